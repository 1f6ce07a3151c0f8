"""How a server is set up: database, secret key, public address, mail; from the environment.

``RENNLEITUNG_DB`` names the database (default: ``var/rennleitung.sqlite3`` in the working
directory, which ``make run`` uses). ``RENNLEITUNG_SECRET`` signs the session cookies; without it
a random key is made once and kept in ``var/secret_key`` (several processes on one PostgreSQL
must share one key: set the variable). ``RENNLEITUNG_BASE_URL`` is the address in mailed links;
``RENNLEITUNG_SMTP_HOST``/``_PORT`` and ``RENNLEITUNG_MAIL_FROM`` say where mail goes (no host:
no mail is sent, and the page says so). ``RENNLEITUNG_WEB_THREADS`` sets the worker threads.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from rennleitung.errors import RennleitungError
from rennleitung.store.database import resolve_url
from rennleitung.textinput import env_whole

VAR = Path("var")


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything ``create_app`` needs; tests build one directly."""

    db_url: str
    secret: str
    base_url: str = "http://127.0.0.1:8000"
    secure_cookies: bool = False
    smtp_host: str = ""
    smtp_port: int = 25
    mail_from: str = "rennleitung@localhost"
    demo: bool = True
    demo_laps: int = 0
    deadline_tick: float = 1.0
    mail_tick: float = 5.0
    """Seconds between runs of the mail outbox when nothing new was queued (retries)."""
    threads: int = 2
    """Worker threads for handlers that read or write the database (on SQLite a driver's answer
    itself runs in the event loop's thread instead, ``web/database_work.py``; on PostgreSQL
    here). Python runs one thread at a time: more threads did not answer more, they made the
    slowest answers slower (flat out on SQLite: about 570 answers/s with 2, 500 with 4; p99 at
    100 answers/s: 300 ms with 4, 500 ms with 12, before the collector was settled). On a
    database far away over the network, more threads may pay: then set
    ``RENNLEITUNG_WEB_THREADS``."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses whose ``X-Forwarded-For`` names the client (``RENNLEITUNG_TRUSTED_PROXIES``,
    comma-separated); from anyone else the header is ignored, so it cannot dodge the limits."""
    max_connections: int = 500
    """Open connections at once (``RENNLEITUNG_MAX_CONNECTIONS``); more are refused with 503.
    Every watcher of a race holds one for its live updates."""
    clock: Callable[[], datetime] | None = None
    """The server's time for its races (deadlines, time banks, quiet races); None, as always
    outside tests: the system clock. Only a test server is given one, a
    ``rennleitung.play.clock.ManualClock`` that the test moves forward (``docs/web.md``, "A
    controllable clock"); no environment variable sets it."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, var: Path = VAR) -> Settings:
        env = os.environ if environ is None else environ
        db = env.get("RENNLEITUNG_DB") or str(var / "rennleitung.sqlite3")
        secret = env.get("RENNLEITUNG_SECRET") or _stored_secret(var / "secret_key")
        base = env.get("RENNLEITUNG_BASE_URL", "http://127.0.0.1:8000").rstrip("/")
        return cls(
            db_url=resolve_url(db, env),
            secret=secret,
            base_url=base,
            secure_cookies=base.startswith("https://"),
            smtp_host=env.get("RENNLEITUNG_SMTP_HOST", ""),
            smtp_port=env_whole(env, "RENNLEITUNG_SMTP_PORT", 25, 1, 65_535),
            mail_from=env.get("RENNLEITUNG_MAIL_FROM", "rennleitung@localhost"),
            demo=env.get("RENNLEITUNG_DEMO", "1") != "0",
            threads=env_whole(env, "RENNLEITUNG_WEB_THREADS", 2, 1, 64),  # 0: every request waits
            trusted_proxies=_addresses(env.get("RENNLEITUNG_TRUSTED_PROXIES", "")),
            max_connections=env_whole(env, "RENNLEITUNG_MAX_CONNECTIONS", 500, 10, 100_000),
        )


def _addresses(raw: str) -> tuple[str, ...]:
    """``10.0.0.1, 127.0.0.1`` as a tuple; each must be an IP address or network."""
    found = tuple(part.strip() for part in raw.split(",") if part.strip())
    for address in found:
        try:
            ipaddress.ip_network(address, strict=False)
        except ValueError:
            raise RennleitungError(
                f"RENNLEITUNG_TRUSTED_PROXIES: {address[:60]!r} ist keine IP-Adresse",
                f"RENNLEITUNG_TRUSTED_PROXIES: {address[:60]!r} is not an IP address",
                "RENNLEITUNG_TRUSTED_PROXIES") from None
    return found


def _stored_secret(path: Path) -> str:
    """A random key kept in a file readable by its owner only, made on first use."""
    if path.exists():
        return path.read_text(encoding="utf-8").strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(key + "\n")
    return key
