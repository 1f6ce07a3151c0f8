"""Sessions, CSRF tokens, passwords and sign-in limits: the server's small security kit.

A session lives in one signed cookie (itsdangerous): the person's id, his ``session_epoch``, a
random CSRF token and a random session id. Nothing secret is in it (it is signed, not
encrypted); the signature stops forgery, the epoch stops old cookies after a sign-out
everywhere, and the session id stops this cookie after its own sign-out (the server keeps the
ids of signed-in sessions, ``store/accounts.py``). Every form carries the CSRF
token of the cookie; a request whose token differs is refused before anything is read.
"""

from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from itsdangerous import BadSignature, URLSafeTimedSerializer

SESSION_COOKIE = "rl_session"
LANG_COOKIE = "rl_lang"
SESSION_AGE = 30 * 24 * 3600
PASSWORD_MIN = 8

FAILURE_WINDOW = 15 * 60
"""Failed sign-ins are counted over this many seconds."""
FAILURES_PER_ACCOUNT = 5
"""Failed sign-ins to one account from one address: a stranger elsewhere does not lock the owner
out (his own address has its own count)."""
FAILURES_PER_ADDRESS = 30
FAILURE_DELAY = 0.5
"""Seconds a failed sign-in's answer waits for each earlier failure of the same account (from
anywhere) in the window, so guessing from many addresses gets slow too."""
FAILURE_DELAY_MAX = 5.0
SIGNUPS_PER_ADDRESS = 30
"""Accounts made from one address in ``FAILURE_WINDOW``: each costs a password hash (a tenth of
a second of processor time), so a flood of sign-ups cannot take the server; a club signing up
together behind one router stays well below it."""

_hasher = PasswordHasher()
"""argon2id at argon2-cffi's own defaults (RFC 9106's second choice: 3 passes over 64 MiB)."""


def use_hasher(hasher: PasswordHasher) -> PasswordHasher:
    """Hash with ``hasher`` from now on; returns the hasher it replaces. Only the tests call it,
    to hash at argon2's lowest cost: at the default cost a check takes about a third of a
    second on two cores, and ``make test`` signs in a few hundred times. A hash keeps its own
    cost, so hashes made before still check."""
    global _hasher
    replaced, _hasher = _hasher, hasher
    _dummy_hash.cache_clear()
    return replaced


@lru_cache(maxsize=1)
def _dummy_hash() -> str:
    """Checked against when an account has no password, so that costs the same time."""
    return _hasher.hash("not a password of anyone")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def check_password(stored: str | None, password: str) -> bool:
    """True when ``password`` matches; an account without a password costs the same time."""
    try:
        return _hasher.verify(stored or _dummy_hash(), password) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


@dataclass(frozen=True, slots=True)
class Session:
    """What the cookie says: who (0: nobody), his epoch, the CSRF token, and the session's id
    (its hash is kept on the server while the session is signed in)."""

    user: int = 0
    epoch: int = 0
    csrf: str = ""
    sid: str = ""

    def signed_in(self, user: int, epoch: int) -> Session:
        """A new session for ``user`` with a fresh CSRF token and id (no fixation)."""
        return Session(user, epoch, secrets.token_urlsafe(24), secrets.token_urlsafe(24))

    def signed_out(self) -> Session:
        return replace(self, user=0, epoch=0, csrf=secrets.token_urlsafe(24), sid="")


READ_KEPT = 10_000
"""Cookies whose reading ``SessionCodec.loads`` keeps (beyond, it starts afresh)."""


class SessionCodec:
    """Signs and reads the session cookie. A cookie read once is not checked again for the rest
    of its life (the very same text signed by the same key reads the same until it is too old):
    every request of a signed-in person carries it, and its signature cost more than the
    rest of a request that does little."""

    def __init__(self, secret: str) -> None:
        self._serializer = URLSafeTimedSerializer(secret, salt="rennleitung-session")
        self._read: dict[str, tuple[float, Session]] = {}

    def dumps(self, session: Session) -> str:
        return self._serializer.dumps([session.user, session.epoch, session.csrf, session.sid])

    def loads(self, cookie: str | None) -> Session | None:
        if not cookie:
            return None
        kept = self._read.get(cookie)
        if kept is not None and time.time() < kept[0]:
            return kept[1]
        try:
            data, signed = self._serializer.loads(cookie, max_age=SESSION_AGE,
                                                  return_timestamp=True)
        except BadSignature:
            return None
        found = self._session(data)
        if found is not None:
            if len(self._read) >= READ_KEPT:
                self._read.clear()
            self._read[cookie] = (signed.timestamp() + SESSION_AGE, found)
        return found

    @staticmethod
    def _session(data: Any) -> Session | None:
        if (
            not isinstance(data, list)
            or len(data) not in (3, 4)  # 3: a cookie from before session ids (signed out)
            or not isinstance(data[0], int)
            or not isinstance(data[1], int)
            or not isinstance(data[2], str)
            or not data[2]
            or not isinstance(data[-1], str)
        ):
            return None
        return Session(data[0], data[1], data[2], data[3] if len(data) == 4 else "")


def new_session() -> Session:
    return Session(0, 0, secrets.token_urlsafe(24))


def csrf_ok(session: Session, sent: str | None) -> bool:
    """Constant-time comparison of the token sent with the cookie's."""
    return bool(sent) and bool(session.csrf) and hmac.compare_digest(
        session.csrf.encode(), (sent or "").encode()
    )


def safe_next(target: str | None, default: str = "/") -> str:
    """A redirect target on this site only (no ``//host`` or ``scheme:`` tricks)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return default
    return target
