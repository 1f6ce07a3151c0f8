"""Sending the mail queue: each due mail goes to the configured SMTP server; a failure waits longer.

Shared by the mail gateway and the web server (both queue into ``store/mail_queue.py``). A mail
server that is down only delays mail: the row stays ``queued``, the attempt is recorded with its
error, and the next try comes after a backoff that doubles from 30 seconds up to one hour.
Nothing is dropped, ever; a permanent refusal by the server (5xx) is recorded too and retried at
the longest interval, so the game master can see and fix it.

Several processes may send from one database: a mail is leased for a while before it is sent,
so two senders never take the same row at once.
"""

from __future__ import annotations

import os
import smtplib
import ssl
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.utils import parseaddr

from rennleitung.errors import RennleitungError
from rennleitung.store.mail_queue import MailQueue
from rennleitung.textinput import env_whole

FIRST_WAIT = timedelta(seconds=30)
LONGEST_WAIT = timedelta(hours=1)
LEASE = timedelta(minutes=2)
LEASE_BATCH = 20
"""Mails leased in one transaction (one per mail cost a commit each, issue 24); few enough
that they are sent well within ``LEASE``, and each is still marked sent on its own as soon as
the server took it, so a kill repeats at most the mail in flight."""
SECURITY = ("none", "starttls", "tls")


@dataclass(frozen=True)
class SmtpSettings:
    """How to reach the SMTP server, and the sender address of every mail."""

    sender: str = "rennleitung@localhost"
    smtp_host: str = "localhost"
    smtp_port: int = 25
    smtp_security: str = "none"
    smtp_user: str = ""
    smtp_password: str = ""


def env_choice(env: Mapping[str, str], name: str, default: str,
               allowed: tuple[str, ...]) -> str:
    """One of ``allowed`` from the environment variable ``name``; else a bilingual error."""
    value = env.get(name, "").strip().lower() or default
    if value not in allowed:
        raise RennleitungError(f"erlaubt sind {', '.join(allowed)}",
                               f"allowed are {', '.join(allowed)}", name)
    return value


def smtp_from_env(environ: Mapping[str, str] | None = None) -> SmtpSettings:
    """The SMTP settings the environment gives (``RENNLEITUNG_MAIL_FROM``, ``_SMTP_HOST``,
    ``_SMTP_PORT``, ``_SMTP_SECURITY``, ``_SMTP_USER``, ``_SMTP_PASSWORD``; ``docs/mail.md``)."""
    env = os.environ if environ is None else environ
    p = "RENNLEITUNG_"
    return SmtpSettings(
        sender=env.get(f"{p}MAIL_FROM", "") or "rennleitung@localhost",
        smtp_host=env.get(f"{p}SMTP_HOST", "") or "localhost",
        smtp_port=env_whole(env, f"{p}SMTP_PORT", 25, 1, 65_535),
        smtp_security=env_choice(env, f"{p}SMTP_SECURITY", "none", SECURITY),
        smtp_user=env.get(f"{p}SMTP_USER", ""),
        smtp_password=env.get(f"{p}SMTP_PASSWORD", ""),
    )


def backoff(attempts: int) -> timedelta:
    """How long to wait after ``attempts`` failed tries: 30 s, 1 min, 2 min, … at most 1 h."""
    wait: timedelta = FIRST_WAIT * (2 ** min(max(attempts - 1, 0), 12))
    return min(wait, LONGEST_WAIT)


class SmtpTransport:
    """One SMTP connection per batch, with STARTTLS or TLS and a login if configured."""

    def __init__(self, settings: SmtpSettings, timeout: float = 20.0) -> None:
        self.settings = settings
        self.timeout = timeout
        self._smtp: smtplib.SMTP | None = None

    def __enter__(self) -> SmtpTransport:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _connect(self) -> smtplib.SMTP:
        s = self.settings
        smtp: smtplib.SMTP
        if s.smtp_security == "tls":
            smtp = smtplib.SMTP_SSL(s.smtp_host, s.smtp_port, timeout=self.timeout,
                                    context=ssl.create_default_context())
        else:
            smtp = smtplib.SMTP(s.smtp_host, s.smtp_port, timeout=self.timeout)
            if s.smtp_security == "starttls":
                smtp.starttls(context=ssl.create_default_context())
        if s.smtp_user:
            smtp.login(s.smtp_user, s.smtp_password)
        return smtp

    def send(self, recipient: str, raw: bytes) -> str:
        """Hand one mail to the server; returns its answer, raises on failure."""
        if self._smtp is None:
            self._smtp = self._connect()
        sender = parseaddr(self.settings.sender)[1] or self.settings.sender
        refused = self._smtp.sendmail(sender, [recipient], raw)
        if refused:
            raise smtplib.SMTPRecipientsRefused(refused)
        return "250 accepted"

    def close(self) -> None:
        if self._smtp is not None:
            try:
                self._smtp.quit()
            except (smtplib.SMTPException, OSError):
                self._smtp.close()
            self._smtp = None


@dataclass(frozen=True)
class SendResult:
    """What one run of the outbox did."""

    sent: int
    failed: int
    waiting: int


def send_due(queue: MailQueue, settings: SmtpSettings, now: datetime,
             transport_factory: Callable[[SmtpSettings], SmtpTransport] = SmtpTransport,
             limit: int = 200) -> SendResult:
    """Send every queued mail whose time has come; record each attempt."""
    due = queue.due(now, limit)
    sent = failed = 0
    transport = transport_factory(settings)
    try:
        for start in range(0, len(due), LEASE_BATCH):
            leased = queue.lease_many(due[start:start + LEASE_BATCH], now, now + LEASE)
            away = False
            for index, mail in enumerate(leased):
                try:
                    answer = transport.send(mail.recipient, mail.raw)
                except (smtplib.SMTPException, OSError, ValueError) as error:
                    transport.close()
                    failed += 1
                    reason = f"{type(error).__name__}: {error}"[:1000]
                    queue.failed(mail, now, reason, now + backoff(mail.attempts + 1))
                    if isinstance(error, OSError | smtplib.SMTPServerDisconnected |
                                  smtplib.SMTPConnectError):
                        queue.release(leased[index + 1:])  # not tried: not "perhaps sent"
                        away = True
                        break  # the server is away: the rest waits for the next run
                    continue
                sent += 1
                queue.sent(mail, now, answer)
            if away:
                break
    finally:
        transport.close()
    return SendResult(sent, failed, queue.waiting())
