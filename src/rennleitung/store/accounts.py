"""Accounts of the web server: people, their one-time sign-in links and failed sign-in attempts.

Passwords are stored only as argon2 hashes (computed by ``web/security.py``), sign-in links only
as the SHA-256 of their token, so a copy of the database lets nobody sign in. A person's
``session_epoch`` is part of every session cookie; raising it (sign-out everywhere, new password)
makes every older cookie worthless. Each signed-in session also has a row (``web_sessions``,
the hash of the cookie's session id): signing out deletes it, so that cookie is worthless
from then on even if it was copied.
"""

from __future__ import annotations

import hashlib
import threading
import time
import unicodedata

from sqlalchemy import (
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    bindparam,
    delete,
    func,
    select,
    update,
)
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from rennleitung.errors import RennleitungError
from rennleitung.names import clean_name, skeleton
from rennleitung.store.database import WRITE
from rennleitung.store.models import Base

NAME_MAX = 40
EMAIL_MAX = 200
SESSION_KEPT = 30 * 24 * 3600.0
"""A signed-in session lasts as long as its cookie (``web/security.py`` ``SESSION_AGE``)."""
SESSIONS_PER_USER = 50
"""Sessions one person keeps at once (browsers, devices); signing in once more ends the oldest."""
REMEMBER_SECONDS = 1.0
"""How long a person read for a request is reused for the next ones (``remembered``)."""


class UserRow(Base):
    """A person who can sign in."""

    __tablename__ = "web_users"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX), unique=True)
    email: Mapped[str | None] = mapped_column(String(EMAIL_MAX), unique=True, nullable=True)
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    lang: Mapped[str] = mapped_column(String(2), default="")
    session_epoch: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[float] = mapped_column(Float)
    name_key: Mapped[str] = mapped_column(String(200), index=True, server_default="")
    """The name's confusable skeleton (``names.skeleton``): no two accounts share one."""


class SessionRow(Base):
    """A session that is signed in: only the hash of the cookie's session id is kept, and
    signing out deletes the row (revision web_security)."""

    __tablename__ = "web_sessions"
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("web_users.id", ondelete="CASCADE"),
                                         index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[float] = mapped_column(Float)


class SignInLinkRow(Base):
    """A one-time sign-in link: only the hash of its token is kept."""

    __tablename__ = "web_sign_in_links"
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("web_users.id", ondelete="CASCADE"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    expires_at: Mapped[float] = mapped_column(Float)
    used_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class SignInAttemptRow(Base):
    """A failed sign-in, by a hashed key (the account name or the client address)."""

    __tablename__ = "web_sign_in_attempts"
    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[float] = mapped_column(Float)


_USERS, _SESSIONS = UserRow.__table__, SessionRow.__table__
_USER_AND_SESSIONS = (
    select(_USERS.c.id, _USERS.c.name, _USERS.c.email, _USERS.c.lang, _USERS.c.session_epoch,
           _SESSIONS.c.token_hash)
    .select_from(_USERS.outerjoin(_SESSIONS, _SESSIONS.c.user_id == _USERS.c.id))
    .where(_USERS.c.id == bindparam("user_id"))
)
"""A person's row with the hash of each session signed in now (one row each; one row with no
hash when there is none)."""


class User:
    """What the pages need of a person (never the password hash)."""

    __slots__ = ("email", "epoch", "id", "lang", "name", "sessions")

    def __init__(self, row: UserRow, sessions: frozenset[str] = frozenset()) -> None:
        self.id = row.id
        self.name = row.name
        self.email = row.email
        self.lang = row.lang
        self.epoch = row.session_epoch
        self.sessions = sessions
        """Hashes of the session ids signed in now (``AccountStore.user`` reads them)."""

    @classmethod
    def of(cls, user_id: int, name: str, email: str | None, lang: str, epoch: int,
           sessions: frozenset[str]) -> User:
        """A person from the columns of his row (``AccountStore.user``'s one statement)."""
        made = cls.__new__(cls)
        made.id, made.name, made.email, made.lang, made.epoch = user_id, name, email, lang, epoch
        made.sessions = sessions
        return made

    def holds(self, session_id: str) -> bool:
        """Whether the cookie's session ``session_id`` is still signed in on the server."""
        return bool(session_id) and token_hash(session_id) in self.sessions

    @property
    def holder(self) -> str:
        """The opaque account key the play service stores for a seat."""
        return f"user:{self.id}"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def attempt_key(kind: str, value: str) -> str:
    """Attempts are counted by a hash, so the table holds no addresses or names."""
    return hashlib.sha256(f"{kind}:{value.strip().lower()}".encode()).hexdigest()


class AccountStore:
    """Reading and writing accounts; every write is one transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._recent: dict[int, tuple[float, User]] = {}
        self._recent_guard = threading.Lock()
        self._changes = 0  # a reading older than the last change is not remembered

    def remembered(self, user_id: int, now: float | None = None) -> User | None:
        """The person as read by ``user`` less than ``REMEMBER_SECONDS`` ago, else None.

        Every request of a signed-in person needs his account (name, language, session epoch);
        reading it once a second instead of once a request spares a pooled connection and a
        worker thread per request. A change made through this store is seen at once; one made
        by another server process (a sign-out everywhere) within a second."""
        with self._recent_guard:
            found = self._recent.get(user_id)
        moment = time.monotonic() if now is None else now
        if found is None or moment - found[0] > REMEMBER_SECONDS:
            return None
        return found[1]

    def _forget(self, user_id: int) -> None:
        with self._recent_guard:
            self._changes += 1
            self._recent.pop(user_id, None)

    def create_user(self, name: str, email: str | None, password_hash: str | None,
                    lang: str = "") -> User:
        clean = clean_name(name)
        look = skeleton(clean)
        mail = (email or "").strip().lower() or None
        with self._begin(write=True) as session:
            taken = session.scalar(select(UserRow.name).where(
                (func.lower(UserRow.name) == clean.lower()) | (UserRow.name_key == look)))
            if taken is not None and taken.lower() == clean.lower():
                raise RennleitungError(f"den Namen {clean!r} gibt es schon",
                                       f"the name {clean!r} is taken", "name")
            if taken is not None:
                raise RennleitungError(
                    f"der Name {clean!r} sieht aus wie {taken!r}, den es schon gibt",
                    f"the name {clean!r} looks like {taken!r}, which is taken", "name")
            if mail and session.scalar(select(UserRow.id).where(UserRow.email == mail)):
                raise RennleitungError("diese E-Mail-Adresse ist schon angemeldet",
                                       "this e-mail address already has an account", "email")
            row = UserRow(name=clean, email=mail, password_hash=password_hash, lang=lang,
                          session_epoch=0, created_at=time.time(), name_key=look)
            session.add(row)
            session.flush()
            return User(row)

    def user(self, user_id: int) -> User | None:
        """The person and his signed-in sessions, in one statement (most requests of a signed-in
        person read him, once a second: ``remembered``)."""
        read_at, changes = time.monotonic(), self._changes
        with self.engine.connect() as connection:
            if self.engine.dialect.name == "postgresql":  # one statement: no transaction
                connection.execution_options(isolation_level="AUTOCOMMIT")
            rows = connection.execute(_USER_AND_SESSIONS, {"user_id": user_id}).all()
        found = User.of(*rows[0][:5], frozenset(r[5] for r in rows if r[5] is not None)) \
            if rows else None
        with self._recent_guard:
            if found is None or changes != self._changes:
                self._recent.pop(user_id, None)
            else:
                if len(self._recent) > 10_000:
                    self._recent.clear()
                self._recent[user_id] = (read_at, found)
        return found

    def by_login(self, login: str) -> tuple[User, str | None] | None:
        """The person named by ``login`` (name or e-mail) and his password hash."""
        clean = unicodedata.normalize("NFC", login).strip()
        with self._begin() as session:
            row = session.scalar(select(UserRow).where(
                (func.lower(UserRow.name) == clean.lower()) | (UserRow.email == clean.lower())))
            return (User(row), row.password_hash) if row else None

    def set_password_hash(self, user_id: int, password_hash: str) -> None:
        with self._begin(write=True) as session:
            session.execute(update(UserRow).where(UserRow.id == user_id).values(
                password_hash=password_hash))
        self._forget(user_id)

    def set_lang(self, user_id: int, lang: str) -> None:
        with self._begin(write=True) as session:
            session.execute(update(UserRow).where(UserRow.id == user_id).values(lang=lang))
        self._forget(user_id)

    def end_sessions(self, user_id: int) -> None:
        """Every cookie issued so far stops working."""
        with self._begin(write=True) as session:
            session.execute(update(UserRow).where(UserRow.id == user_id).values(
                session_epoch=UserRow.session_epoch + 1))
            session.execute(delete(SessionRow).where(SessionRow.user_id == user_id))
        self._forget(user_id)

    def start_session(self, user_id: int, session_id: str) -> None:
        """Sign ``session_id`` in for ``user_id``; sessions older than ``SESSION_KEPT`` and
        all but the newest ``SESSIONS_PER_USER`` of this person's go."""
        now = time.time()
        with self._begin(write=True) as session:
            session.execute(delete(SessionRow).where(SessionRow.created_at < now - SESSION_KEPT))
            kept = session.scalars(select(SessionRow.id).where(SessionRow.user_id == user_id)
                                   .order_by(SessionRow.created_at.desc())
                                   .offset(SESSIONS_PER_USER - 1)).all()
            if kept:
                session.execute(delete(SessionRow).where(SessionRow.id.in_(kept)))
            session.add(SessionRow(user_id=user_id, token_hash=token_hash(session_id),
                                   created_at=now))
        self._forget(user_id)

    def end_session(self, user_id: int, session_id: str) -> None:
        """Sign out the one session ``session_id`` (the cookie stops working everywhere)."""
        with self._begin(write=True) as session:
            session.execute(delete(SessionRow).where(SessionRow.user_id == user_id,
                                                     SessionRow.token_hash
                                                     == token_hash(session_id)))
        self._forget(user_id)

    def user_named(self, name: str) -> User | None:
        """The account called ``name`` (without regard to case), or None."""
        with self._begin() as session:
            row = session.scalar(select(UserRow).where(
                func.lower(UserRow.name) == name.strip().lower()))
            return User(row) if row else None

    # --- one-time links ------------------------------------------------------------------

    def add_link(self, user_id: int, token: str, lifetime: float) -> None:
        with self._begin(write=True) as session:
            session.add(SignInLinkRow(user_id=user_id, token_hash=token_hash(token),
                                      expires_at=time.time() + lifetime))

    def use_link(self, token: str) -> User | None:
        """The person of an unused, unexpired link; the link is used up in the same step."""
        now = time.time()
        with self._begin(write=True) as session:
            link = session.scalar(select(SignInLinkRow).where(
                SignInLinkRow.token_hash == token_hash(token)))
            if link is None or link.used_at is not None or link.expires_at < now:
                return None
            link.used_at = now
            row = session.get(UserRow, link.user_id)
            return User(row) if row else None

    # --- rate limiting -------------------------------------------------------------------

    def failures(self, keys: list[str], window: float) -> int:
        """Failed attempts under any of ``keys`` within the last ``window`` seconds (the most)."""
        since = time.time() - window
        with self._begin() as session:
            counts = [
                session.scalar(select(func.count()).select_from(SignInAttemptRow).where(
                    SignInAttemptRow.key == key, SignInAttemptRow.at >= since)) or 0
                for key in keys
            ]
        return max(counts, default=0)

    def record_failure(self, keys: list[str], window: float) -> None:
        now = time.time()
        with self._begin(write=True) as session:
            session.execute(delete(SignInAttemptRow).where(SignInAttemptRow.at < now - window))
            for key in keys:
                session.add(SignInAttemptRow(key=key, at=now))

    def _begin(self, write: bool = False) -> _Transaction:
        """A session in one transaction; writers take SQLite's write lock at once."""
        return _Transaction(self._sessions, write)


class _Transaction:
    """``with`` block: one transaction, committed on success, rolled back on any error."""

    def __init__(self, sessions: sessionmaker[Session], write: bool) -> None:
        self._session = sessions()
        self._write = write

    def __enter__(self) -> Session:
        self._session.begin()
        if self._write:
            self._session.connection(execution_options={WRITE: True})
        return self._session

    def __exit__(self, kind: object, error: object, _trace: object) -> None:
        try:
            if error is None:
                self._session.commit()
            else:
                self._session.rollback()
        finally:
            self._session.close()
