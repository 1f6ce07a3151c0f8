"""The mail queue: every outgoing mail as a row that stays after sending, and its attempts.

The one door to the ``mail_out`` and ``mail_out_attempts`` tables for both faces: the mail
gateway queues its answers, reports and questions here, the web server its "your move" notices;
the sender (``play/outbox.py``) leases due rows, hands them to the SMTP server and records each
attempt. A mail is queued built whole (its bytes), so what is sent is what was queued; a ``ref``
queued before is never queued again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from typing import cast

from sqlalchemy import Engine, Table, bindparam, func, insert, or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from rennleitung.store.database import WRITE, one_writer
from rennleitung.store.mail_tables import MailAttemptRow, MailOutRow


@dataclass(frozen=True)
class NewMail:
    """A mail to queue: to whom, about what, of which kind, its key against doubles, and how
    its bytes are built at the moment it is queued (not built at all when ``ref`` is known)."""

    recipient: str
    subject: str
    kind: str
    ref: str | None
    build: Callable[[datetime], bytes]


@dataclass(frozen=True)
class QueuedMail:
    """One row of the queue as the organiser sees it (``mail outbox``)."""

    id: int
    created_at: datetime
    ref: str | None
    kind: str
    game_id: int | None
    recipient: str
    subject: str
    status: str
    attempts: int
    sent_at: datetime | None
    last_error: str
    leased: bool = False  # a send began and was not finished (a kill): perhaps sent


@dataclass(frozen=True)
class Leased:
    """A due mail taken by one sender for a while: where it goes, its bytes, its tries so far."""

    id: int
    recipient: str
    raw: bytes
    attempts: int


@dataclass(frozen=True)
class Attempt:
    """One recorded try to hand a mail to the SMTP server."""

    out_id: int
    at: datetime
    result: str


class Sessions:
    """Read and write transactions on one engine (SQLite takes its write lock at once)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One write transaction, in its turn among this database's writers (``one_writer``:
        the gateway's intake, ticks and sender wrote at once and slept in SQLite's busy handler,
        3.7 s of a 12 s benchmark run)."""
        with one_writer(self.engine), self._sessions() as session, session.begin():
            session.connection(execution_options={WRITE: True})
            yield session

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A read-only session."""
        with self._sessions() as session:
            yield session


def _ready(raw: bytes) -> Callable[[datetime], bytes]:
    return lambda _now: raw


_OUT = cast(Table, MailOutRow.__table__)
_ATTEMPTS = cast(Table, MailAttemptRow.__table__)
# The statements of every mail's way (queued, leased, sent) are built once and run on the
# transaction's connection: through the ORM's session each cost about 0.6 ms of CPU here, most
# of it building and checking the statement, and the queue runs several per mail (issue 24).
_REF_QUEUED = select(_OUT.c.id).where(_OUT.c.ref == bindparam("b_ref"))
_QUEUE = insert(_OUT).returning(_OUT.c.id)
_SENT = update(_OUT).where(_OUT.c.id == bindparam("b_id")).values(
    attempts=bindparam("b_attempts"), status="sent", sent_at=bindparam("b_now"),
    lease_until=None, last_error="")
_ATTEMPT = insert(_ATTEMPTS)
_NEWEST_REF = select(_OUT.c.ref).where(_OUT.c.ref.like(bindparam("b_pattern"), escape="/")) \
    .order_by(_OUT.c.id.desc()).limit(1)


def _like_prefix(prefix: str) -> str:
    """A LIKE pattern (escape character ``/``, as SQLAlchemy's ``autoescape`` writes it) for
    the values starting with ``prefix``; a bound parameter cannot be autoescaped."""
    return prefix.replace("/", "//").replace("%", "/%").replace("_", "/_") + "%"


def enqueue_in(session: Session, mail: NewMail, now: datetime, game_id: int | None = None,
               reply_to_in: int | None = None) -> int | None:
    """Queue ``mail`` inside an open write transaction; None if its ``ref`` was queued before."""
    connection = session.connection()
    if mail.ref is not None and connection.execute(
            _REF_QUEUED, {"b_ref": mail.ref}).scalar() is not None:
        return None
    result = connection.execute(_QUEUE, {
        "created_at": now, "ref": mail.ref, "kind": mail.kind, "game_id": game_id,
        "reply_to_in": reply_to_in, "recipient": mail.recipient,
        "subject": mail.subject[:500], "raw": mail.build(now), "status": "queued",
        "attempts": 0, "next_attempt_at": now, "last_error": ""})
    return int(result.scalar_one())


class MailQueue:
    """The outgoing mail of one database."""

    def __init__(self, engine: Engine) -> None:
        self.sessions = Sessions(engine)

    def enqueue(self, mail: NewMail, now: datetime, game_id: int | None = None) -> int | None:
        """Queue one mail; None if its ``ref`` was queued before."""
        with self.sessions.write() as session:
            return enqueue_in(session, mail, now, game_id)

    def enqueue_many(self, mails: list[tuple[NewMail, int | None]],
                     now: datetime) -> list[int | None]:
        """Queue several mails (with their game) in one transaction, each built before it
        opens (a question mail waits for its picture, and the write lock is not held for
        that); a ``ref`` queued before, or twice in ``mails``, is queued once (None)."""
        refs = [mail.ref for mail, _ in mails if mail.ref is not None]
        with self.sessions.read() as session:
            known = set(session.scalars(select(MailOutRow.ref).where(
                MailOutRow.ref.in_(refs)))) if refs else set()
        built: list[tuple[NewMail, int | None, bytes] | None] = []
        for mail, game_id in mails:
            if mail.ref is not None and mail.ref in known:
                built.append(None)
                continue
            if mail.ref is not None:
                known.add(mail.ref)
            built.append((mail, game_id, mail.build(now)))
        with self.sessions.write() as session:
            return [None if item is None else enqueue_in(
                session, replace(item[0], build=_ready(item[2])), now, item[1])
                for item in built]

    def known(self, ref: str) -> bool:
        """Whether a mail with this ``ref`` was queued (sent or not)."""
        with self.sessions.read() as session:
            return session.scalar(select(MailOutRow.id).where(MailOutRow.ref == ref)) is not None

    def last_ref(self, prefix: str) -> str | None:
        """The ``ref`` of the newest mail queued whose ref starts with ``prefix`` (the last
        question to a seat, with what it had told), None if none."""
        with self.sessions.engine.connect() as connection:
            return connection.execute(_NEWEST_REF, {"b_pattern": _like_prefix(prefix)}).scalar()

    def last_queued(self, prefix: str) -> datetime | None:
        """When the newest mail whose ref starts with ``prefix`` was queued (None: never)."""
        with self.sessions.read() as session:
            return session.scalar(select(MailOutRow.created_at).where(
                MailOutRow.ref.like(_like_prefix(prefix), escape="/"))
                .order_by(MailOutRow.id.desc()).limit(1))

    def count_since(self, prefix: str, since: datetime) -> int:
        """How many mails whose ref starts with ``prefix`` were queued since ``since``."""
        with self.sessions.read() as session:
            return int(session.scalar(select(func.count()).select_from(MailOutRow).where(
                MailOutRow.ref.like(_like_prefix(prefix), escape="/"),
                MailOutRow.created_at >= since)) or 0)

    def due(self, now: datetime, limit: int) -> list[int]:
        """Queued mails whose next try has come, oldest first."""
        with self.sessions.read() as session:
            return list(session.scalars(
                select(MailOutRow.id).where(MailOutRow.status == "queued",
                                            MailOutRow.next_attempt_at <= now)
                .order_by(MailOutRow.id).limit(limit)))

    def lease(self, out_id: int, now: datetime, until: datetime) -> Leased | None:
        """Take a due mail until ``until``; None if it was sent or another sender holds it."""
        with self.sessions.write() as session:
            leased = session.execute(
                update(MailOutRow).where(
                    MailOutRow.id == out_id, MailOutRow.status == "queued",
                    or_(MailOutRow.lease_until.is_(None), MailOutRow.lease_until < now))
                .values(lease_until=until))
            if getattr(leased, "rowcount", 1) == 0:
                return None
            row = session.get(MailOutRow, out_id)
            assert row is not None
            return Leased(row.id, row.recipient, row.raw, row.attempts)

    def lease_many(self, out_ids: list[int], now: datetime,
                   until: datetime) -> list[Leased]:
        """Take several due mails until ``until`` in one transaction, in the order given; one
        sent meanwhile or held by another sender is left out."""
        if not out_ids:
            return []
        with self.sessions.write() as session:
            taken = set(session.scalars(
                update(MailOutRow).where(
                    MailOutRow.id.in_(out_ids), MailOutRow.status == "queued",
                    or_(MailOutRow.lease_until.is_(None), MailOutRow.lease_until < now))
                .values(lease_until=until).returning(MailOutRow.id)))
            rows = {row.id: row for row in session.scalars(select(MailOutRow).where(
                MailOutRow.id.in_(taken)))} if taken else {}
            return [Leased(rows[i].id, rows[i].recipient, rows[i].raw, rows[i].attempts)
                    for i in out_ids if i in rows]

    def release(self, leased: list[Leased]) -> None:
        """Give back mails leased and not tried (the server went away): due again at once."""
        if leased:
            with self.sessions.write() as session:
                session.execute(update(MailOutRow).where(
                    MailOutRow.id.in_([mail.id for mail in leased]),
                    MailOutRow.status == "queued").values(lease_until=None))

    def failed(self, mail: Leased, now: datetime, reason: str, retry_at: datetime) -> None:
        """A try failed: record it; the mail waits until ``retry_at``."""
        with self.sessions.write() as session:
            session.execute(update(MailOutRow).where(MailOutRow.id == mail.id).values(
                attempts=mail.attempts + 1, last_error=reason, lease_until=None,
                next_attempt_at=retry_at))
            session.add(MailAttemptRow(out_id=mail.id, at=now, result=reason))

    def sent(self, mail: Leased, now: datetime, answer: str) -> None:
        """The server took the mail: record it as sent, with the server's answer."""
        with self.sessions.write() as session:
            connection = session.connection()
            connection.execute(_SENT, {"b_id": mail.id, "b_attempts": mail.attempts + 1,
                                       "b_now": now})
            connection.execute(_ATTEMPT, {"out_id": mail.id, "at": now, "result": answer})

    def waiting(self) -> int:
        """How many mails are still queued."""
        with self.sessions.read() as session:
            return len(list(session.scalars(select(MailOutRow.id).where(
                MailOutRow.status == "queued"))))

    def recent(self, limit: int) -> list[QueuedMail]:
        """The newest ``limit`` mails of the queue, newest first."""
        with self.sessions.read() as session:
            return [QueuedMail(r.id, r.created_at, r.ref, r.kind, r.game_id, r.recipient,
                               r.subject, r.status, r.attempts, r.sent_at, r.last_error,
                               r.status == "queued" and r.lease_until is not None)
                    for r in session.scalars(select(MailOutRow).order_by(MailOutRow.id.desc())
                                             .limit(limit))]

    def raw(self, out_id: int) -> bytes:
        """The bytes of one queued mail, as they were (or will be) sent."""
        with self.sessions.read() as session:
            row = session.get(MailOutRow, out_id)
            return b"" if row is None else row.raw

    def attempts(self) -> list[Attempt]:
        """Every recorded try, oldest first."""
        with self.sessions.read() as session:
            return [Attempt(a.out_id, a.at, a.result)
                    for a in session.scalars(select(MailAttemptRow).order_by(MailAttemptRow.id))]
