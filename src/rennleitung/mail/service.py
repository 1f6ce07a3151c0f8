"""The mail service: store every mail as received, then route it to its game and queue answers.

``receive`` only stores (its own transaction, before anything is parsed), so an intake can
acknowledge a mail as soon as it is safe. ``process`` reads a stored mail, finds the game by the
sender's address and the game's secret, lets the game's adapter act, and records the outcome and
the answers in one transaction. A mail already processed is never processed again; a mail whose
processing broke is marked ``failed`` with its reason and answered politely.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine

from rennleitung.errors import RennleitungError
from rennleitung.mail import texts
from rennleitung.mail.decode import Decoded, clean_address, decode, message_id_of
from rennleitung.mail.fd_game import FdAdapter
from rennleitung.mail.game import GameAdapter, Handled, Order, reply_subject
from rennleitung.mail.settings import MailSettings
from rennleitung.mail.turbo_game import TurboAdapter
from rennleitung.play import RaceService
from rennleitung.render.mail_message import Attachment, Outgoing, build
from rennleitung.store.database import open_database
from rennleitung.store.mail_queue import MailQueue, NewMail
from rennleitung.store.mail_store import (
    Binding,
    GameInfo,
    MailStore,
    Outcome,
    Received,
    ReceivedMail,
)

KINDS = ("turbo", "fd")
_TOKEN_SHAPE = re.compile(r"(?<![A-Za-z0-9_-])([0-9a-f]{10})(?![A-Za-z0-9_-])", re.I)


def new_token() -> str:
    """A seat's own code: ten hex digits (a game's drawn secret has eight)."""
    return secrets.token_hex(5)


@dataclass(frozen=True)
class Bound:
    """A binding made, and what it changed: the seat the address left, the address it took the
    seat from (empty: none)."""

    binding: Binding
    moved_from: str = ""
    taken_from: str = ""

    def text(self, language: str) -> str:
        b = self.binding
        de = f"{b.address} spielt {b.seat} in {b.game.key} ({b.language}), Code {b.token}"
        en = f"{b.address} plays {b.seat} in {b.game.key} ({b.language}), code {b.token}"
        if self.moved_from:
            de += f"; Platz {self.moved_from} ist frei (Bot)"
            en += f"; seat {self.moved_from} is free (bot)"
        if self.taken_from:
            de += f"; {self.taken_from} ist nicht mehr angemeldet"
            en += f"; {self.taken_from} is no longer bound"
        return texts.pick(language, de, en)


def welcome(binding: Binding, bound: Bound, extra: str = "",
            attachments: list[Attachment] | None = None) -> Outgoing:
    """The mail a bound address gets: its seat, its code, how to answer; ``extra`` and
    ``attachments``: what the game adds (TURBO 2000: how to send a sheet, the start sheet)."""
    language = binding.language
    game = binding.game
    what = "Formula Dé" if game.kind == "fd" else "TURBO 2000"
    body = texts.pick(
        language,
        f"Sie spielen {binding.seat} in der Partie {game.key} ({what}) per Mail.\n\n"
        f"Ihr Code: {binding.token}\n\nJede Frage der Rennleitung trägt ihn im Betreff "
        "[Code …]; antworten Sie einfach mit \"Antworten\" Ihres Mailprogramms und schreiben "
        "Sie Ihre Angaben über das Zitat, eine je Zeile. Eine eigene Mail braucht den Code im "
        "Betreff oder in der ersten Zeile. Geben Sie den Code nicht weiter: wer ihn kennt, kann "
        "für Sie antworten.",
        f"You play {binding.seat} in the game {game.key} ({what}) by mail.\n\n"
        f"Your code: {binding.token}\n\nEvery question of race control carries it in the "
        "subject [code …]; just use your mail program's \"Reply\" and write your orders above "
        "the quote, one per line. A mail of your own needs the code in the subject or the first "
        "line. Keep the code to yourself: whoever knows it can answer for you.")
    if bound.moved_from:
        body += "\n\n" + texts.pick(language, f"Ihr bisheriger Platz {bound.moved_from} ist "
                                     "frei; sein Code gilt nicht mehr.", "Your former seat "
                                     f"{bound.moved_from} is free; its code no longer counts.")
    if extra:
        body += "\n\n" + extra
    return Outgoing(binding.address, texts.pick(
        language, f"{what} {game.key}: Willkommen, {binding.seat} [Code {binding.token}]",
        f"{what} {game.key}: welcome, {binding.seat} [code {binding.token}]"),
        texts.letter(language, body), "welcome",
        ref=f"welcome:{game.id}:{binding.address}:{binding.token}",
        attachments=list(attachments or []))
REFUSAL_QUIET = timedelta(hours=1)
"""The same refusal to the same sender goes out at most once in this time."""
UNBOUND_QUIET = timedelta(days=1)
"""A sender bound to no game is refused at most once in this time."""
UNBOUND_PER_HOUR = 20
"""Refusals to senders bound to no game, at most, per hour in all."""
SECRET_ALONE = frozenset({"turbo"})
"""Kinds of game where the game's secret alone still opens a seat (mails written before seat
codes): a TURBO 2000 sheet carries its team's own password, which the sheet check demands, so a
co-player who knows the game's secret still cannot send a sheet for another team. A Formula Dé
answer has no such second secret, so there the seat's code is needed."""
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


class MailService:
    """Intake, routing and outbox of one database; the tables are behind ``store`` (games,
    bindings, mail in) and ``queue`` (mail out)."""

    def __init__(self, engine: Engine, settings: MailSettings,
                 clock: Callable[[], datetime] = utcnow) -> None:
        self.store = MailStore(engine)
        self.queue: MailQueue = self.store.queue
        self.engine = engine
        self.settings = settings
        self.clock = clock
        self.adapters: dict[str, GameAdapter] = {}
        self._processing = threading.Lock()
        self._binding_cache: dict[str, list[Binding]] | None = None
        self._tick_bindings: dict[str, list[Binding]] | None = None

    @classmethod
    def open(cls, url: str, settings: MailSettings) -> MailService:
        """A service on ``url`` (schema migrated) with the adapters of both games."""
        service = cls(open_database(url), settings)
        service.adapters["turbo"] = TurboAdapter()
        service.adapters["fd"] = FdAdapter(RaceService(service.engine),
                                           base_url=settings.base_url)
        return service

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
        return self.store.add_game(key, kind, location, secret, self.clock())

    def game(self, key: str) -> GameInfo:
        """A game by its key."""
        return self.store.game(key)

    def games(self) -> list[GameInfo]:
        """Every game played by mail."""
        return self.store.games()

    def bind(self, key: str, address: str, seat: str, language: str | None = None,
             replace: bool = False, name: str = "") -> Binding:
        """Bind an address to a seat of a game; ``bind_seat`` says what moved."""
        return self.bind_seat(key, address, seat, language, replace, name).binding

    def bind_seat(self, key: str, address: str, seat: str, language: str | None = None,
                  replace: bool = False, name: str = "") -> Bound:
        """Bind an address to a seat of a game. An address holds one seat per game: its
        binding moves (the seat it left is freed). A seat held by another address is refused
        unless ``replace``, which takes it from that address. The language stays unless given
        (a new binding: ``de``). The seat gets a token of its own unless the same address keeps
        the same seat; a welcome mail with it is queued. ``name``: the driver's name (Formula
        Dé, before the start)."""
        clean = clean_address(address)
        if not clean:
            raise RennleitungError(f"{address!r} ist keine Mailadresse",
                                   f"{address!r} is not a mail address", "address")
        if language is not None and language not in texts.LANGUAGES:
            raise RennleitungError("Sprache de oder en", "language de or en", "language")
        seat = seat.strip()
        if not seat:
            raise RennleitungError("Platz fehlt", "seat missing", "seat")
        game = self.game(key)
        current = self.bindings(key)
        own = next((b for b in current if b.address == clean), None)
        holder = next((b for b in current if b.seat == seat and b.address != clean), None)
        if holder is not None and not replace:
            raise RennleitungError(
                f"{seat} gehört schon {holder.address}; --replace nimmt ihn ihm weg",
                f"{seat} is held by {holder.address}; --replace takes it from them", "seat")
        keeps = own is not None and own.seat == seat and bool(own.token)
        token = own.token if keeps and own is not None else new_token()
        chosen = language or (own.language if own is not None else "de")
        binding = Binding(game, clean, seat, chosen, token)
        adapter = self.adapters.get(game.kind)
        if own is not None and own.seat != seat:
            unseat = getattr(adapter, "unseat", None)
            if unseat is not None:
                unseat(own)  # the seat left behind goes back to its bot
        seat_person = getattr(adapter, "seat", None)
        if seat_person is not None:
            seat_person(binding, name)  # e.g. the person takes the car in the play service
        self.store.bind(binding, replace=replace)
        bound = Bound(binding, own.seat if own is not None and own.seat != seat else "",
                      holder.address if holder is not None else "")
        if not keeps:
            parts = getattr(adapter, "welcome_parts", None)  # e.g. TURBO's start sheet
            extra, files = parts(binding) if parts is not None else ("", [])
            self.enqueue(welcome(binding, bound, extra, files), game.id)
        return bound

    def bindings(self, key: str | None = None) -> list[Binding]:
        """The bindings of one game, or of all."""
        if key is not None and self._tick_bindings is not None:  # during a tick
            return list(self._tick_bindings.get(key, []))
        return self.store.bindings(key)

    def bindings_of(self, address: str) -> list[Binding]:
        """Every binding of one address."""
        if self._binding_cache is not None:  # read once for a batch of mails
            return list(self._binding_cache.get(address.lower(), []))
        return self.store.bindings_of({address.lower()}).get(address.lower(), [])

    # --- intake ------------------------------------------------------------------------------

    def receive(self, raw: bytes, source: str, envelope_from: str | None = None,
                envelope_to: tuple[str, ...] = ()) -> Received:
        """Store a mail as received. The same content again is the same row; the same
        Message-ID with other content is stored too, marked as a duplicate of the first."""
        return self.store.receive(raw, source, envelope_from or "", ",".join(envelope_to),
                                  message_id_of(raw), content_hash(raw), self.clock())

    def pending(self) -> list[int]:
        """Stored mails not processed yet, oldest first."""
        return self.store.pending()

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
            decoded_rows: list[tuple[int, Decoded | Exception, datetime]] = []
            for mail in self.store.waiting(mail_ids):
                try:
                    decoded_rows.append((mail.id, decode(mail.raw, mail.envelope_from or None),
                                         mail.received_at))
                except Exception as error:  # decode never raises; should it, the mail fails
                    decoded_rows.append((mail.id, error, mail.received_at))
            senders = {d.sender for _i, d, _r in decoded_rows
                       if isinstance(d, Decoded) and d.sender}
            self._binding_cache = self.store.bindings_of(senders)
            outcomes = []
            held: dict[str, int] = {}  # refusal refs queued in this batch, by prefix
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
                if handled.status == "refused" and handled.answers:
                    handled = self._limit_refusals(mail_id, decoded, handled, held)
                outcomes.append(Outcome(
                    mail_id, handled.status, decoded.sender, game_id, seat, handled.outcome,
                    tuple(self._new_mail(a, decoded.message_id) for a in handled.answers)))
            self._binding_cache = None
            if not outcomes:
                return 0
            return self.store.record(outcomes, self.clock())

    def _limit_refusals(self, mail_id: int, decoded: Decoded, handled: Handled,
                        held: dict[str, int]) -> Handled:
        """Refusals are not answered again and again (a robot without auto headers answered
        every 10 s, issue 24): the same refusal to the same bound sender goes out once an hour,
        to a sender bound to no game once a day, and to unbound senders at most
        ``UNBOUND_PER_HOUR`` an hour in all (backscatter to forged senders). The mail is kept;
        its outcome says why it got no answer."""
        now = self.clock()
        sender = decoded.sender
        bound = bool(self.bindings_of(sender))
        kept: list[Outgoing] = []
        why = ""
        for answer in handled.answers:
            digest = hashlib.sha256(answer.text.encode("utf-8")).hexdigest()[:16]
            if bound:
                prefix = f"refusal:{sender}:{digest}:"
                last = self.queue.last_queued(prefix)
                if held.get(prefix) or (last is not None and now - last < REFUSAL_QUIET):
                    why = "same refusal within the hour"
                    continue
            else:
                prefix = f"refusal:unbound:{sender}:"
                last = self.queue.last_queued(prefix)
                total = self.queue.count_since("refusal:unbound:", now - REFUSAL_QUIET) \
                    + sum(n for p, n in held.items() if p.startswith("refusal:unbound:"))
                if held.get(prefix) or (last is not None and now - last < UNBOUND_QUIET):
                    why = "unbound sender refused within the day"
                    continue
                if total >= UNBOUND_PER_HOUR:
                    why = "refusals to unbound senders at their limit"
                    continue
            held[prefix] = held.get(prefix, 0) + 1
            kept.append(replace(answer, ref=answer.ref or f"{prefix}{mail_id}"))
        if not why:
            return replace(handled, answers=kept)
        return replace(handled, answers=kept, outcome={**handled.outcome, "answer_held": why})

    def _failed_answer(self, decoded: Decoded) -> list[Outgoing]:
        if decoded.automatic or not decoded.sender:
            return []
        return [Outgoing(decoded.sender, reply_subject(decoded.subject),
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
                                     [Outgoing(decoded.sender, reply_subject(decoded.subject),
                                               text, "refusal")], "refused")
        chosen = [(b, line) for b in candidates
                  if b.token and (line := _secret_place(decoded, b.token)) is not None]
        if not chosen:
            refused = self._not_own_token(decoded, candidates)
            if refused is not None:
                return refused
            chosen = [(b, line) for b in candidates
                      if (line := _secret_place(decoded, b.game.secret)) is not None]
            if len(chosen) == 1 and chosen[0][0].game.kind not in SECRET_ALONE:
                seat = chosen[0][0]
                text = texts.letter(seat.language, texts.pick(
                    seat.language, *texts.SECRET_ALONE).format(code=seat.token))
                return seat.game.id, seat.seat, Handled(
                    {"refused": "secret alone"}, [Outgoing(decoded.sender,
                                                           reply_subject(decoded.subject),
                                                           text, "refusal")], "refused")
        if len(chosen) != 1:
            language = candidates[0].language if len(candidates) == 1 else "both"
            text = texts.letter(language, texts.pick(language, *texts.NO_SECRET))
            return None, "", Handled({"refused": "secret"},
                                     [Outgoing(decoded.sender, reply_subject(decoded.subject),
                                               text, "refusal")], "refused")
        binding, line = chosen[0]
        if decoded.too_long:
            text = texts.letter(binding.language, texts.pick(binding.language, *texts.TOO_LONG))
            return binding.game.id, binding.seat, Handled(
                {"refused": "too long"}, [Outgoing(decoded.sender,
                                                   reply_subject(decoded.subject), text,
                                                   "refusal")], "refused")
        order_text = decoded.sheet
        if line < 0:  # in the subject: a first line carrying it too is no order either
            line = _first_line_with(order_text, (binding.game.secret, binding.token))
        if line >= 0:
            lines = order_text.split("\n")
            lines[line] = ""
            order_text = "\n".join(lines)
        adapter = self.adapters.get(binding.game.kind)
        if adapter is None:
            raise RuntimeError(f"no adapter for {binding.game.kind}")
        order = Order(mail_id, binding, decoded, order_text, received_at)
        return binding.game.id, binding.seat, adapter.handle(self, order)

    def _not_own_token(self, decoded: Decoded,
                       candidates: list[Binding]) -> tuple[int | None, str, Handled] | None:
        """A mail carrying the code of a seat its sender does not hold is refused and kept
        (a co-player, or a forged From); None if it carries no such code."""
        words = {w.lower() for w in _TOKEN_SHAPE.findall(decoded.subject)}
        for text in (decoded.body, decoded.sheet):
            first = next((line for line in text.split("\n") if line.strip()), "")
            words |= {w.lower() for w in _TOKEN_SHAPE.findall(first)}
        foreign = [b for b in self.store.by_tokens(words) if b.address != decoded.sender]
        if not foreign:
            return None
        language = candidates[0].language if len(candidates) == 1 else "both"
        text = texts.letter(language, texts.pick(language, *texts.OTHER_TOKEN))
        other = foreign[0]
        return other.game.id, "", Handled(
            {"refused": "other seat's code", "code_of": other.seat},
            [Outgoing(decoded.sender, reply_subject(decoded.subject), text, "refusal")],
            "refused")

    # --- outbox ------------------------------------------------------------------------------

    def _new_mail(self, outgoing: Outgoing, in_reply_to: str = "") -> NewMail:
        """``outgoing`` for the queue, built with this gateway's sender when it is queued."""
        sender = self.settings.sender
        return NewMail(outgoing.recipient, outgoing.subject, outgoing.kind, outgoing.ref,
                       lambda now: build(outgoing, sender, now, in_reply_to))

    def enqueue(self, outgoing: Outgoing, game_id: int | None = None,
                in_reply_to: str = "") -> int | None:
        """Queue a mail; a ``ref`` queued before is not queued again (returns None)."""
        return self.queue.enqueue(self._new_mail(outgoing, in_reply_to), self.clock(), game_id)

    def queued(self, ref: str) -> bool:
        """Whether a mail with this ``ref`` was queued before."""
        return self.queue.known(ref)

    def last_ref(self, prefix: str) -> str | None:
        """The ref of the newest mail queued whose ref starts with ``prefix``."""
        return self.queue.last_ref(prefix)

    def tick(self, now: datetime | None = None) -> int:
        """Let every game send what it wants to send by itself; returns how many were queued.
        Every game is ticked before any mail is queued, so the pictures of all games' questions
        are drawn side by side (``pictures``) while the next games are ticked."""
        moment = now or self.clock()
        made: list[tuple[Outgoing, int]] = []
        everyone: dict[str, list[Binding]] = {}
        for binding in self.store.bindings():  # read once for every game's tick
            everyone.setdefault(binding.game.key, []).append(binding)
        self._tick_bindings = everyone
        try:
            for game in self.games():
                adapter = self.adapters.get(game.kind)
                if adapter is None:
                    continue
                made += [(outgoing, game.id) for outgoing in adapter.tick(self, game, moment)]
        finally:
            self._tick_bindings = None
        queued = self.queue.enqueue_many([(self._new_mail(outgoing), game_id)
                                          for outgoing, game_id in made], self.clock())
        return sum(out_id is not None for out_id in queued)

    def game_mail(self, game_id: int) -> list[ReceivedMail]:
        """The mails processed for a game, oldest first (for status pages)."""
        return self.store.game_mail(game_id)


def _first_line_with(text: str, words: tuple[str, ...]) -> int:
    """The index of the first non-empty line of ``text`` if it carries one of ``words`` (the
    secret, the seat's code), else -1."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if line.strip():
            found = any(word and re.search(rf"(?<![A-Za-z0-9_-]){re.escape(word)}"
                                           r"(?![A-Za-z0-9_-])", line) for word in words)
            return index if found else -1
    return -1


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
