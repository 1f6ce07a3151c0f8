"""The mail service: store every mail as received, then route it to its game and queue answers.

``receive`` only stores (its own transaction, before anything is parsed), so an intake can
acknowledge a mail as soon as it is safe. ``process`` reads a stored mail, finds the game by the
sender's address and the game's secret, lets the game's adapter act, and records the outcome and
the answers in one transaction. A mail already processed is never processed again; a mail whose
processing broke is marked ``failed`` with its reason and answered politely.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from rennleitung.errors import RennleitungError
from rennleitung.mail import texts
from rennleitung.mail.compose import Outgoing, build
from rennleitung.mail.decode import Decoded, clean_address, decode, message_id_of
from rennleitung.mail.settings import MailSettings
from rennleitung.store.database import WRITE, open_database
from rennleitung.store.mail_tables import (
    MailBindingRow,
    MailGameRow,
    MailInRow,
    MailOutRow,
)
from rennleitung.store.race_tables import PlayRaceRow

KINDS = ("turbo", "fd")
TRACE_HEADERS = frozenset({b"received", b"return-path", b"delivered-to", b"x-original-to",
                           b"x-delivered-to", b"x-rennleitung-source"})


def utcnow() -> datetime:
    """Now, with time zone (the clock of the service unless a test hands in another)."""
    return datetime.now(UTC)


def content_hash(raw: bytes) -> str:
    """SHA-256 of a mail without its trace headers, so one mail delivered on two paths (LMTP
    and IMAP, or twice by a retrying MTA) hashes the same."""
    split = re.search(rb"\r?\n\r?\n", raw)
    head, body = (raw[:split.start()], raw[split.start():]) if split else (raw, b"")
    kept: list[bytes] = []
    skipping = False
    for line in re.split(rb"\r?\n", head):
        if line[:1] in (b" ", b"\t"):
            if not skipping:
                kept.append(line)
            continue
        skipping = line.split(b":", 1)[0].strip().lower() in TRACE_HEADERS
        if not skipping:
            kept.append(line)
    return hashlib.sha256(b"\n".join(kept) + body.replace(b"\r\n", b"\n")).hexdigest()


def _race_exists(session: Session, location: str) -> bool:
    """A Formula Dé game's location is the id of a race stored in the same database."""
    text = location.strip()
    if not text.isdigit() or len(text) > 18:
        return False
    return session.get(PlayRaceRow, int(text)) is not None


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


@dataclass
class Order:
    """A stored mail from a bound sender, cleaned, for a game adapter."""

    mail_id: int
    binding: Binding
    decoded: Decoded
    text: str  # the order sheet or body, secret line blanked, line numbers kept
    received_at: datetime


@dataclass
class Handled:
    """What an adapter made of a mail: a short outcome for the record, and the answers."""

    outcome: dict[str, object]
    answers: list[Outgoing]
    status: str = "processed"


class GameAdapter(Protocol):
    """One kind of game played by mail (TURBO 2000, Formula Dé)."""

    def handle(self, service: MailService, order: Order) -> Handled:
        """Act on a mail of a bound sender; return the outcome and the answers."""
        ...

    def tick(self, service: MailService, game: GameInfo, now: datetime) -> list[Outgoing]:
        """Mail the game wants to send by itself (reports, questions, deadlines passed)."""
        ...


@dataclass(frozen=True)
class Received:
    """The stored row of an incoming mail and whether it had been stored before."""

    id: int
    duplicate: bool


class MailService:
    """Intake, routing and outbox of one database."""

    def __init__(self, engine: Engine, settings: MailSettings,
                 clock: Callable[[], datetime] = utcnow) -> None:
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
        self.settings = settings
        self.clock = clock
        self.adapters: dict[str, GameAdapter] = {}
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._processing = threading.Lock()
        self._binding_cache: dict[str, list[Binding]] | None = None

    @classmethod
    def open(cls, url: str, settings: MailSettings) -> MailService:
        """A service on ``url`` (schema migrated) with the adapters that can be loaded."""
        service = cls(open_database(url), settings)
        from rennleitung.mail.fd_game import FdAdapter
        from rennleitung.mail.turbo_game import TurboAdapter
        from rennleitung.play import RaceService

        service.adapters["turbo"] = TurboAdapter()
        service.adapters["fd"] = FdAdapter(RaceService(service.engine))
        return service

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One write transaction (SQLite takes its write lock at once)."""
        with self._sessions() as session, session.begin():
            session.connection(execution_options={WRITE: True})
            yield session

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A read-only session."""
        with self._sessions() as session:
            yield session

    # --- organiser ---------------------------------------------------------------------------

    def add_game(self, key: str, kind: str, location: str, secret: str = "") -> GameInfo:
        """A game becomes playable by mail; without a secret one is drawn."""
        key = key.strip()
        if not key or len(key) > 100:
            raise RennleitungError("Name der Partie fehlt oder ist zu lang",
                                   "game name missing or too long", "game")
        if kind not in KINDS:
            raise RennleitungError(f"Art muss {' oder '.join(KINDS)} sein",
                                   f"kind must be {' or '.join(KINDS)}", "kind")
        secret = secret.strip() or secrets.token_hex(4)
        if not re.fullmatch(r"[A-Za-z0-9_-]{4,100}", secret):
            raise RennleitungError("Geheimwort: 4 bis 100 Buchstaben, Ziffern, - oder _",
                                   "secret: 4 to 100 letters, digits, - or _", "secret")
        with self.write() as session:
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
                              created_at=self.clock())
            session.add(row)
            session.flush()
            return _game_info(row)

    def game(self, key: str) -> GameInfo:
        """A game by its key."""
        with self.read() as session:
            row = session.scalar(select(MailGameRow).where(MailGameRow.key == key))
            if row is None:
                raise RennleitungError(f"keine Partie {key!r}", f"no game {key!r}", "game")
            return _game_info(row)

    def games(self) -> list[GameInfo]:
        """Every game played by mail."""
        with self.read() as session:
            return [_game_info(r) for r in session.scalars(select(MailGameRow)
                                                            .order_by(MailGameRow.id))]

    def bind(self, key: str, address: str, seat: str, language: str = "de") -> Binding:
        """Bind an address to a seat of a game (an existing binding of that address moves)."""
        clean = clean_address(address)
        if not clean:
            raise RennleitungError(f"{address!r} ist keine Mailadresse",
                                   f"{address!r} is not a mail address", "address")
        if language not in texts.LANGUAGES:
            raise RennleitungError("Sprache de oder en", "language de or en", "language")
        if not seat.strip():
            raise RennleitungError("Platz fehlt", "seat missing", "seat")
        game = self.game(key)
        binding = Binding(game, clean, seat.strip(), language)
        seat_person = getattr(self.adapters.get(game.kind), "seat", None)
        if seat_person is not None:
            seat_person(binding)  # e.g. the person takes the car in the play service
        with self.write() as session:
            row = session.scalar(select(MailBindingRow).where(
                MailBindingRow.game_id == game.id, MailBindingRow.address == clean))
            if row is None:
                session.add(MailBindingRow(game_id=game.id, address=clean, seat=seat.strip(),
                                           language=language))
            else:
                row.seat, row.language = seat.strip(), language
        return binding

    def bindings(self, key: str | None = None) -> list[Binding]:
        """The bindings of one game, or of all."""
        with self.read() as session:
            query = select(MailBindingRow, MailGameRow).join(
                MailGameRow, MailGameRow.id == MailBindingRow.game_id).order_by(MailBindingRow.id)
            if key is not None:
                query = query.where(MailGameRow.key == key)
            return [Binding(_game_info(g), b.address, b.seat, b.language)
                    for b, g in session.execute(query).all()]

    # --- intake ------------------------------------------------------------------------------

    def receive(self, raw: bytes, source: str, envelope_from: str | None = None,
                envelope_to: tuple[str, ...] = ()) -> Received:
        """Store a mail as received. The same content again is the same row; the same
        Message-ID with other content is stored too, marked as a duplicate of the first."""
        digest = content_hash(raw)
        message_id = message_id_of(raw)
        for _attempt in range(3):
            try:
                with self.write() as session:
                    known = session.scalar(select(MailInRow.id).where(
                        MailInRow.content_hash == digest))
                    if known is not None:
                        return Received(known, True)
                    first = session.scalar(select(MailInRow.id).where(
                        MailInRow.message_id == message_id, MailInRow.duplicate_of.is_(None))
                        .order_by(MailInRow.id).limit(1)) if message_id else None
                    result = session.execute(insert(MailInRow).values(
                        received_at=self.clock(), source=source,
                        envelope_from=envelope_from or "", envelope_to=",".join(envelope_to),
                        message_id=message_id, content_hash=digest, raw=raw,
                        duplicate_of=first, status="duplicate" if first else "new",
                        sender="", seat="", outcome="").returning(MailInRow.id))
                    return Received(int(result.scalar_one()), first is not None)
            except IntegrityError:
                continue  # another process stored the same mail at the same moment
        raise RennleitungError("Mail konnte nicht gespeichert werden",
                               "mail could not be stored", "mail_in")

    def pending(self) -> list[int]:
        """Stored mails not processed yet, oldest first."""
        with self.read() as session:
            return list(session.scalars(select(MailInRow.id).where(MailInRow.status == "new")
                                        .order_by(MailInRow.id)))

    def process_pending(self, batch: int = 50) -> int:
        """Process every stored mail still waiting, oldest first; the outcomes of up to
        ``batch`` mails are written in one transaction. Returns how many were processed."""
        done = 0
        waiting = self.pending()
        for start in range(0, len(waiting), batch):
            done += self._process(waiting[start:start + batch])
        return done

    def process(self, mail_id: int) -> int:
        """Process one stored mail if it still waits (1), else nothing (0)."""
        return self._process([mail_id])

    def _process(self, mail_ids: list[int]) -> int:
        with self._processing:
            results = []
            with self.read() as session:
                rows = session.execute(
                    select(MailInRow.id, MailInRow.raw, MailInRow.envelope_from,
                           MailInRow.received_at)
                    .where(MailInRow.id.in_(mail_ids), MailInRow.status == "new")
                    .order_by(MailInRow.id)).all()
            decoded_rows: list[tuple[int, Decoded | Exception, datetime]] = []
            for mail_id, raw, envelope_from, received_at in rows:
                try:
                    decoded_rows.append((mail_id, decode(raw, envelope_from or None),
                                         received_at))
                except Exception as error:  # decode never raises; should it, the mail fails
                    decoded_rows.append((mail_id, error, received_at))
            senders = {d.sender for _i, d, _r in decoded_rows
                       if isinstance(d, Decoded) and d.sender}
            with self.read() as session:
                self._binding_cache = self._bindings_of_all(session, senders)
            for mail_id, read, received_at in decoded_rows:
                decoded = read if isinstance(read, Decoded) else Decoded()
                try:
                    if isinstance(read, Exception):
                        raise read
                    game_id, seat, handled = self._route(mail_id, decoded, received_at)
                except Exception as error:  # nothing may stop the intake
                    game_id, seat = None, ""
                    handled = Handled({"error": f"{type(error).__name__}: {error}"[:2000]},
                                      self._failed_answer(decoded), status="failed")
                results.append((mail_id, decoded, game_id, seat, handled))
            self._binding_cache = None
            if not results:
                return 0
            done = 0
            with self.write() as session:
                for mail_id, decoded, game_id, seat, handled in results:
                    changed = session.execute(
                        update(MailInRow).where(MailInRow.id == mail_id,
                                                MailInRow.status == "new")
                        .values(status=handled.status, sender=decoded.sender[:320],
                                game_id=game_id, seat=seat[:200],
                                outcome=json.dumps(handled.outcome, ensure_ascii=False),
                                processed_at=self.clock()))
                    if getattr(changed, "rowcount", 1) == 0:
                        continue  # another process took it meanwhile
                    done += 1
                    for answer in handled.answers:
                        self._enqueue(session, answer, game_id, mail_id, decoded.message_id)
            return done

    def _failed_answer(self, decoded: Decoded) -> list[Outgoing]:
        if decoded.automatic or not decoded.sender:
            return []
        return [Outgoing(decoded.sender, _reply_subject(decoded.subject),
                         texts.letter("both", texts.pick("both", *texts.FAILED)), "notice")]

    def _route(self, mail_id: int, decoded: Decoded,
               received_at: datetime) -> tuple[int | None, str, Handled]:
        if not decoded.sender or decoded.automatic:
            why = "automatic" if decoded.automatic else "no sender address"
            return None, "", Handled({"refused": why}, [], "refused")
        candidates = self.bindings_of(decoded.sender)
        if not candidates:
            text = texts.letter("both", texts.pick("both", *texts.UNKNOWN_SENDER))
            return None, "", Handled({"refused": "unknown sender"},
                                     [Outgoing(decoded.sender, _reply_subject(decoded.subject),
                                               text, "refusal")], "refused")
        chosen = [(b, line) for b in candidates
                  if (line := _secret_place(decoded, b.game.secret)) is not None]
        if len(chosen) != 1:
            language = candidates[0].language if len(candidates) == 1 else "both"
            text = texts.letter(language, texts.pick(language, *texts.NO_SECRET))
            return None, "", Handled({"refused": "secret"},
                                     [Outgoing(decoded.sender, _reply_subject(decoded.subject),
                                               text, "refusal")], "refused")
        binding, line = chosen[0]
        if decoded.too_long:
            text = texts.letter(binding.language, texts.pick(binding.language, *texts.TOO_LONG))
            return binding.game.id, binding.seat, Handled(
                {"refused": "too long"}, [Outgoing(decoded.sender,
                                                   _reply_subject(decoded.subject), text,
                                                   "refusal")], "refused")
        order_text = decoded.sheet
        if line >= 0:
            lines = order_text.split("\n")
            lines[line] = ""
            order_text = "\n".join(lines)
        adapter = self.adapters.get(binding.game.kind)
        if adapter is None:
            raise RuntimeError(f"no adapter for {binding.game.kind}")
        order = Order(mail_id, binding, decoded, order_text, received_at)
        return binding.game.id, binding.seat, adapter.handle(self, order)

    def _bindings_of_all(self, session: Session,
                         addresses: set[str]) -> dict[str, list[Binding]]:
        """The bindings of the senders of a batch, read in one query (columns, no ORM
        objects: with hundreds of games this was most of the time a mail took)."""
        found: dict[str, list[Binding]] = {}
        games: dict[int, GameInfo] = {}
        if not addresses:
            return found
        query = (select(MailBindingRow.address, MailBindingRow.seat, MailBindingRow.language,
                        MailGameRow.id, MailGameRow.key, MailGameRow.kind,
                        MailGameRow.location, MailGameRow.secret)
                 .join(MailGameRow, MailGameRow.id == MailBindingRow.game_id)
                 .where(MailBindingRow.address.in_(sorted(addresses)))
                 .order_by(MailBindingRow.id))
        for address, seat, language, game_id, key, kind, location, secret in session.execute(
                query):
            game = games.setdefault(game_id, GameInfo(game_id, key, kind, location, secret))
            found.setdefault(address, []).append(Binding(game, address, seat, language))
        return found

    def bindings_of(self, address: str) -> list[Binding]:
        """Every binding of one address."""
        if self._binding_cache is not None:  # read once for a batch of mails
            return list(self._binding_cache.get(address.lower(), []))
        with self.read() as session:
            query = select(MailBindingRow, MailGameRow).join(
                MailGameRow, MailGameRow.id == MailBindingRow.game_id).where(
                MailBindingRow.address == address.lower()).order_by(MailBindingRow.id)
            return [Binding(_game_info(g), b.address, b.seat, b.language)
                    for b, g in session.execute(query).all()]

    # --- outbox ------------------------------------------------------------------------------

    def enqueue(self, outgoing: Outgoing, game_id: int | None = None,
                in_reply_to: str = "") -> int | None:
        """Queue a mail; a ``ref`` queued before is not queued again (returns None)."""
        with self.write() as session:
            return self._enqueue(session, outgoing, game_id, None, in_reply_to)

    def _enqueue(self, session: Session, outgoing: Outgoing, game_id: int | None,
                 reply_to_in: int | None, in_reply_to: str) -> int | None:
        if outgoing.ref is not None and session.scalar(
                select(MailOutRow.id).where(MailOutRow.ref == outgoing.ref)) is not None:
            return None
        now = self.clock()
        result = session.execute(insert(MailOutRow).values(
            created_at=now, ref=outgoing.ref, kind=outgoing.kind, game_id=game_id,
            reply_to_in=reply_to_in, recipient=outgoing.recipient,
            subject=outgoing.subject[:500],
            raw=build(outgoing, self.settings.sender, now, in_reply_to),
            status="queued", attempts=0, next_attempt_at=now, last_error="")
            .returning(MailOutRow.id))
        return int(result.scalar_one())

    def tick(self, now: datetime | None = None) -> int:
        """Let every game send what it wants to send by itself; returns how many were queued."""
        moment = now or self.clock()
        queued = 0
        for game in self.games():
            adapter = self.adapters.get(game.kind)
            if adapter is None:
                continue
            for outgoing in adapter.tick(self, game, moment):
                queued += self.enqueue(outgoing, game.id) is not None
        return queued

    def game_mail(self, game_id: int) -> list[MailInRow]:
        """The mails processed for a game, oldest first (for status pages)."""
        with self.read() as session:
            return list(session.scalars(select(MailInRow).where(MailInRow.game_id == game_id)
                                        .order_by(MailInRow.id)))


def _game_info(row: MailGameRow) -> GameInfo:
    return GameInfo(row.id, row.key, row.kind, row.location, row.secret)


def _reply_subject(subject: str) -> str:
    subject = subject.strip()
    return subject if subject.lower().startswith("re:") else f"Re: {subject}".strip()


def reply_subject(subject: str) -> str:
    """``Re: `` in front of a subject (once)."""
    return _reply_subject(subject)


def _secret_place(decoded: Decoded, secret: str) -> int | None:
    """Where the secret is: -1 in the subject, else the index of the first non-empty line of the
    text if it carries the secret, else None."""
    pattern = re.compile(rf"(?<![A-Za-z0-9_-]){re.escape(secret)}(?![A-Za-z0-9_-])")
    if pattern.search(decoded.subject):
        return -1
    for text in (decoded.body, decoded.sheet):
        lines = text.split("\n")
        for index, line in enumerate(lines):
            if line.strip():
                if pattern.search(line):
                    return index if text is decoded.sheet else -2
                break
    return None
