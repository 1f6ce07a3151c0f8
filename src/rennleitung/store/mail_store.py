"""The mail gateway's storage: games played by mail, who may write to them, every mail received.

The one door to the tables ``mail_games``, ``mail_bindings`` and ``mail_in`` (``mail_tables``):
the gateway (``mail/service.py``) decides, this module reads and writes. A mail is stored as
received in a transaction of its own before anything parses it; what processing made of a batch
of mails is written together with the answers it queues (``mail_queue.enqueue_in``), in one
transaction, and only for mails still ``new``, so a mail is never processed twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from sqlalchemy import Engine, Table, bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from rennleitung.errors import RennleitungError
from rennleitung.store.mail_queue import MailQueue, NewMail, Sessions, enqueue_in
from rennleitung.store.mail_tables import (
    MailBindingRow,
    MailGameRow,
    MailGatewayRow,
    MailInRow,
)
from rennleitung.store.race_tables import PlayRaceRow

_IN = cast(Table, MailInRow.__table__)
_RECORD = update(_IN).where(_IN.c.id == bindparam("b_id"), _IN.c.status == "new").values(
    status=bindparam("b_status"), sender=bindparam("b_sender"), game_id=bindparam("b_game"),
    seat=bindparam("b_seat"), outcome=bindparam("b_outcome"), processed_at=bindparam("b_now"))
"""What became of a mail, written once (built here once: see ``mail_queue``)."""


@dataclass(frozen=True)
class GameInfo:
    """A game played by mail, as adapters see it."""

    id: int
    key: str
    kind: str
    location: str
    secret: str


@dataclass(frozen=True)
class Binding:
    """Who may write to a game, for which seat, in which language."""

    game: GameInfo
    address: str
    seat: str
    language: str
    token: str = ""  # the seat's own code for this address (``mail_bindings.token``)


@dataclass(frozen=True)
class GatewayPart:
    """How one part of the gateway fares (``mail status``)."""

    part: str
    ok: bool
    failures: int
    last_error: str
    updated_at: datetime
    next_try_at: datetime | None


@dataclass(frozen=True)
class Received:
    """The stored row of an incoming mail and whether it had been stored before."""

    id: int
    duplicate: bool


@dataclass(frozen=True)
class ReceivedMail:
    """One stored incoming mail as the organiser sees it (``mail inbox``, ``mail status``)."""

    id: int
    received_at: datetime
    source: str
    envelope_from: str
    message_id: str
    duplicate_of: int | None
    status: str
    sender: str
    game_id: int | None
    seat: str
    outcome: str
    processed_at: datetime | None


@dataclass(frozen=True)
class Waiting:
    """A stored mail not processed yet: its bytes as received, for the gateway to read."""

    id: int
    raw: bytes
    envelope_from: str
    received_at: datetime


@dataclass(frozen=True)
class Outcome:
    """What processing made of one mail, and the answers to queue with it."""

    mail_id: int
    status: str
    sender: str
    game_id: int | None
    seat: str
    outcome: dict[str, object]
    answers: tuple[NewMail, ...]


def _game_info(row: MailGameRow) -> GameInfo:
    return GameInfo(row.id, row.key, row.kind, row.location, row.secret)


def _race_exists(session: Session, location: str) -> bool:
    """A Formula Dé game's location is the id of a race stored in the same database."""
    text = location.strip()
    if not text.isdigit() or len(text) > 18:
        return False
    return session.get(PlayRaceRow, int(text)) is not None


def _received(row: MailInRow) -> ReceivedMail:
    return ReceivedMail(row.id, row.received_at, row.source, row.envelope_from, row.message_id,
                        row.duplicate_of, row.status, row.sender, row.game_id, row.seat,
                        row.outcome, row.processed_at)


class MailStore:
    """The mail tables of one database (games, bindings, mail in; the queue is ``queue``)."""

    def __init__(self, engine: Engine) -> None:
        if engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:"):
            # Write-ahead log: one sync per commit instead of several, readers never wait
            # for the writer; a commit is still on disk before a mail is acknowledged.
            raw = engine.raw_connection()
            try:
                cursor = raw.cursor()
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.close()
            finally:
                raw.close()
        self.engine = engine
        self.sessions = Sessions(engine)
        self.queue = MailQueue(engine)

    # --- games and bindings -------------------------------------------------------------------

    def add_game(self, key: str, kind: str, location: str, secret: str,
                 now: datetime) -> GameInfo:
        """Store a new game; a Formula Dé game's location must be a race of this database."""
        with self.sessions.write() as session:
            if session.scalar(select(MailGameRow.id).where(MailGameRow.key == key)):
                raise RennleitungError(f"Partie {key!r} gibt es schon",
                                       f"game {key!r} already exists", "game")
            if kind == "fd" and not _race_exists(session, location):
                raise RennleitungError(
                    f"Rennen {location!r} gibt es in dieser Datenbank nicht (die Nummer des "
                    "Rennens im Webserver; --db nennt seine Datenbank)",
                    f"there is no race {location!r} in this database (the race's number on the "
                    "web server; --db names its database)", "location")
            row = MailGameRow(key=key, kind=kind, location=location, secret=secret,
                              created_at=now)
            session.add(row)
            session.flush()
            return _game_info(row)

    def game(self, key: str) -> GameInfo:
        """A game by its key."""
        with self.sessions.read() as session:
            row = session.scalar(select(MailGameRow).where(MailGameRow.key == key))
            if row is None:
                raise RennleitungError(f"keine Partie {key!r}", f"no game {key!r}", "game")
            return _game_info(row)

    def games(self) -> list[GameInfo]:
        """Every game played by mail."""
        with self.sessions.read() as session:
            return [_game_info(r) for r in session.scalars(select(MailGameRow)
                                                            .order_by(MailGameRow.id))]

    def bind(self, binding: Binding, replace: bool = False) -> None:
        """Store a binding (an existing binding of that address to the game moves, with the
        token given). With ``replace`` another address bound to that seat loses it."""
        with self.sessions.write() as session:
            if replace:
                session.execute(delete(MailBindingRow).where(
                    MailBindingRow.game_id == binding.game.id,
                    MailBindingRow.seat == binding.seat,
                    MailBindingRow.address != binding.address))
            row = session.scalar(select(MailBindingRow).where(
                MailBindingRow.game_id == binding.game.id,
                MailBindingRow.address == binding.address))
            if row is None:
                session.add(MailBindingRow(game_id=binding.game.id, address=binding.address,
                                           seat=binding.seat, language=binding.language,
                                           token=binding.token))
            else:
                row.seat, row.language, row.token = (binding.seat, binding.language,
                                                     binding.token)

    def by_tokens(self, tokens: set[str]) -> list[Binding]:
        """The bindings whose token is one of ``tokens`` (to tell another seat's code)."""
        if not tokens:
            return []
        query = (select(MailBindingRow, MailGameRow)
                 .join(MailGameRow, MailGameRow.id == MailBindingRow.game_id)
                 .where(MailBindingRow.token.in_(sorted(tokens))))
        with self.sessions.read() as session:
            return [Binding(_game_info(g), b.address, b.seat, b.language, b.token)
                    for b, g in session.execute(query).all()]

    def bindings(self, key: str | None = None) -> list[Binding]:
        """The bindings of one game, or of all."""
        with self.sessions.read() as session:
            query = select(MailBindingRow, MailGameRow).join(
                MailGameRow, MailGameRow.id == MailBindingRow.game_id).order_by(MailBindingRow.id)
            if key is not None:
                query = query.where(MailGameRow.key == key)
            return [Binding(_game_info(g), b.address, b.seat, b.language, b.token)
                    for b, g in session.execute(query).all()]

    def bindings_of(self, addresses: set[str]) -> dict[str, list[Binding]]:
        """The bindings of several addresses, read in one query (columns, no ORM objects: with
        hundreds of games this was most of the time a mail took)."""
        found: dict[str, list[Binding]] = {}
        games: dict[int, GameInfo] = {}
        if not addresses:
            return found
        query = (select(MailBindingRow.address, MailBindingRow.seat, MailBindingRow.language,
                        MailBindingRow.token, MailGameRow.id, MailGameRow.key, MailGameRow.kind,
                        MailGameRow.location, MailGameRow.secret)
                 .join(MailGameRow, MailGameRow.id == MailBindingRow.game_id)
                 .where(MailBindingRow.address.in_(sorted(addresses)))
                 .order_by(MailBindingRow.id))
        with self.sessions.read() as session:
            for address, seat, language, token, game_id, key, kind, location, secret in (
                    session.execute(query)):
                game = games.setdefault(game_id, GameInfo(game_id, key, kind, location, secret))
                found.setdefault(address, []).append(Binding(game, address, seat, language,
                                                             token))
        return found

    # --- the gateway's health ------------------------------------------------------------------

    def note_part(self, part: GatewayPart) -> None:
        """Record how a part of the gateway fared in its last try."""
        with self.sessions.write() as session:
            row = session.get(MailGatewayRow, part.part)
            if row is None:
                row = MailGatewayRow(part=part.part)
                session.add(row)
            row.ok, row.failures, row.last_error = part.ok, part.failures, part.last_error[:2000]
            row.updated_at, row.next_try_at = part.updated_at, part.next_try_at

    def parts(self) -> list[GatewayPart]:
        """How every part of the gateway fared when last tried."""
        with self.sessions.read() as session:
            return [GatewayPart(r.part, r.ok, r.failures, r.last_error, r.updated_at,
                                r.next_try_at)
                    for r in session.scalars(select(MailGatewayRow).order_by(
                        MailGatewayRow.part))]

    # --- mail in ------------------------------------------------------------------------------

    def receive(self, raw: bytes, source: str, envelope_from: str, envelope_to: str,
                message_id: str, digest: str, now: datetime) -> Received:
        """Store a mail as received. The same content again is the same row; the same
        Message-ID with other content is stored too, marked as a duplicate of the first."""
        for _attempt in range(3):
            try:
                with self.sessions.write() as session:
                    known = session.scalar(select(MailInRow.id).where(
                        MailInRow.content_hash == digest))
                    if known is not None:
                        return Received(known, True)
                    first = session.scalar(select(MailInRow.id).where(
                        MailInRow.message_id == message_id, MailInRow.duplicate_of.is_(None))
                        .order_by(MailInRow.id).limit(1)) if message_id else None
                    result = session.execute(insert(MailInRow).values(
                        received_at=now, source=source, envelope_from=envelope_from,
                        envelope_to=envelope_to, message_id=message_id, content_hash=digest,
                        raw=raw, duplicate_of=first, status="duplicate" if first else "new",
                        sender="", seat="", outcome="").returning(MailInRow.id))
                    return Received(int(result.scalar_one()), first is not None)
            except IntegrityError:
                continue  # another process stored the same mail at the same moment
        raise RennleitungError("Mail konnte nicht gespeichert werden",
                               "mail could not be stored", "mail_in")

    def pending(self) -> list[int]:
        """Stored mails not processed yet, oldest first."""
        with self.sessions.read() as session:
            return list(session.scalars(select(MailInRow.id).where(MailInRow.status == "new")
                                        .order_by(MailInRow.id)))

    def waiting(self, mail_ids: list[int]) -> list[Waiting]:
        """Those of ``mail_ids`` still ``new``, oldest first, with their bytes."""
        with self.sessions.read() as session:
            rows = session.execute(
                select(MailInRow.id, MailInRow.raw, MailInRow.envelope_from,
                       MailInRow.received_at)
                .where(MailInRow.id.in_(mail_ids), MailInRow.status == "new")
                .order_by(MailInRow.id)).all()
        return [Waiting(i, raw, env or "", at) for i, raw, env, at in rows]

    def record(self, outcomes: list[Outcome], now: datetime) -> int:
        """Write what became of each mail and queue its answers, in one transaction; a mail
        another process took meanwhile is left alone. Returns how many were recorded."""
        done = 0
        with self.sessions.write() as session:
            connection = session.connection()
            for item in outcomes:
                changed = connection.execute(_RECORD, {
                    "b_id": item.mail_id, "b_status": item.status, "b_sender": item.sender[:320],
                    "b_game": item.game_id, "b_seat": item.seat[:200],
                    "b_outcome": json.dumps(item.outcome, ensure_ascii=False), "b_now": now})
                if getattr(changed, "rowcount", 1) == 0:
                    continue  # another process took it meanwhile
                done += 1
                for answer in item.answers:
                    enqueue_in(session, answer, now, item.game_id, item.mail_id)
        return done

    def received(self, limit: int) -> list[ReceivedMail]:
        """The newest ``limit`` mails received, newest first."""
        with self.sessions.read() as session:
            return [_received(r) for r in session.scalars(
                select(MailInRow).order_by(MailInRow.id.desc()).limit(limit))]

    def game_mail(self, game_id: int) -> list[ReceivedMail]:
        """The mails processed for a game, oldest first (for status pages)."""
        with self.sessions.read() as session:
            return [_received(r) for r in session.scalars(
                select(MailInRow).where(MailInRow.game_id == game_id).order_by(MailInRow.id))]
