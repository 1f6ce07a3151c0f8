"""Formula Dé by mail, through the play service (``play.RaceService``).

A mail game of kind ``fd`` names a race by its id. Binding an address to a car seats the person
``mail:ADDRESS`` there. Each open question to a bound car goes out as one mail (once per
version the question opened at and car, see ``fd_questions``; setups and bids are asked of every
car at once); the subject carries ``[vN]``, the version asked about, and an
answer that quotes it is applied against that version, so a late answer after the bot stepped in
is refused, never applied to the next question. When a deadline passes, the seat's bot decides
and the player is told what it chose. Everything a mail says is read from the asked driver's view
(``RaceService.view``), never from the race itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import CarStatus
from rennleitung.formula_de.event_text import count
from rennleitung.formula_de.race_questions import MoveQuestion
from rennleitung.mail import texts
from rennleitung.mail.fd_orders import STANDING, is_board_request, order_text, read_orders
from rennleitung.mail.fd_questions import board_attachments, question_text, whole_board
from rennleitung.mail.fd_standing import brake_keep_lane
from rennleitung.mail.fd_story import out_of_race, out_text, story, told
from rennleitung.mail.game import Handled, Mailroom, Order, reply_subject
from rennleitung.play import Actor, RaceService, RaceState, SeatKind
from rennleitung.play.views import QuestionView, Reader, View
from rennleitung.render.mail_message import Outgoing
from rennleitung.store.mail_store import Binding, GameInfo

_VERSION = re.compile(r"\[v(\d{1,9})\]")


def holder_of(address: str) -> str:
    """The play service's holder key of a person playing by mail."""
    return f"mail:{address}"


def _race_id(game: GameInfo) -> int:
    if not game.location.isdigit():
        raise RennleitungError(f"Rennen {game.location!r} ist keine Nummer",
                               f"race {game.location!r} is not a number", "location")
    return int(game.location)


def status_word(status: str, language: str) -> str:
    """A car's status (``CarStatus``) in the reader's language."""
    try:
        known = CarStatus(status)
    except ValueError:
        return status
    return known.label_de if language == "de" else known.label_en


def code(binding: Binding) -> str:
    """The seat's code as a subject carries it, so a plain Reply answers (`` [Code …]``)."""
    if not binding.token:
        return ""
    return texts.pick(binding.language, f" [Code {binding.token}]", f" [code {binding.token}]")


class FdAdapter:
    """The mail face of races in the play service."""

    def __init__(self, races: RaceService, png: bool = True, base_url: str = "") -> None:
        self.races = races
        self.png = png
        self.base_url = base_url.rstrip("/")
        self._deadlines_run: datetime | None = None
        self._timeouts_seen: dict[int, int] = {}
        """Per race, the version up to which its stored decisions were read for timeouts."""
        self._asked_before: dict[int, dict[str, tuple[int, str]]] = {}
        """Per race and car, the race version and seat code at which its open question was
        found sent already: while the race stands there, a tick builds no view for it."""

    def seat(self, binding: Binding, name: str = "") -> None:
        """Seat the person behind a bound address in the car (before or during the race).
        Before the start the driver takes ``name``; without one a seat still named by its car
        id takes the address's local part, so the mails name him, not ``car1 (car1)``."""
        race_id = _race_id(binding.game)
        info = self.races.info(race_id)
        driver = None
        if info.state is RaceState.OPEN:
            current = info.seat(binding.seat).driver
            fallback = binding.address.split("@")[0] if current in ("", binding.seat) else ""
            driver = name.strip()[:60] or fallback or None
        self.races.assign(race_id, binding.seat, kind=SeatKind.PERSON,
                          holder=holder_of(binding.address), driver=driver)

    def unseat(self, binding: Binding) -> None:
        """The car an address left: free before the start, its bot drives during the race."""
        race_id = _race_id(binding.game)
        if self.races.info(race_id).state is RaceState.OPEN:
            self.races.assign(race_id, binding.seat, kind=SeatKind.PERSON, holder=None)
        else:
            self.races.assign(race_id, binding.seat, kind=SeatKind.BOT)

    def handle(self, service: Mailroom, order: Order) -> Handled:
        binding = order.binding
        language = binding.language
        sender = order.decoded.sender
        subject = reply_subject(order.decoded.subject)
        race_id = _race_id(binding.game)
        car = binding.seat

        def answer(body: str, outcome: dict[str, object], status: str = "refused") -> Handled:
            return Handled(outcome, [Outgoing(sender, subject, texts.letter(language, body))],
                           status)

        seen = self.races.view(race_id, Reader.seat(car))
        info = seen.info
        if info.state is not RaceState.RUNNING or seen.track is None:
            return answer(texts.pick(language, f"Das Rennen läuft nicht (Stand: {info.state}).",
                                     f"The race is not running (state: {info.state})."),
                          {"refused": "state", "state": str(info.state)})
        asked = seen.question()
        if is_board_request(order.text):  # the whole board, asked or not
            body = texts.pick(language, "Das ganze Brett hängt an.", "The whole board is "
                              "attached.")
            return Handled({"board": True}, [Outgoing(
                sender, subject, texts.letter(language, body),
                attachments=whole_board(seen, asked.question if asked else None, self.png))])
        if asked is None:
            waiting = ", ".join(sorted(seen.asked)) or "-"
            return answer(texts.pick(language, f"Wagen {car} ist gerade nicht gefragt (gefragt "
                                     f"ist {waiting}); Ihre Mail ist aufbewahrt.", f"Car {car} is "
                                     f"not asked now ({waiting} is); your mail has been kept."),
                          {"refused": "not asked"})
        quoted = _VERSION.search(order.decoded.subject)
        expected = int(quoted.group(1)) if quoted else None
        reading = read_orders(order.text, asked.question, seen.track)
        data, problems = reading.data, reading.problems
        if data is None:
            lines = [texts.pick(language, "Ihre Antwort konnte nicht angenommen werden:",
                                "Your answer could not be accepted:")]
            lines += ["  " + p.text(language) for p in problems]
            lines += ["", texts.pick(language, "Bitte antworten Sie noch einmal.",
                                     "Please answer again.")]
            return answer("\n".join(lines), {"refused": "orders", "problems": len(problems)})
        decision = {k: v for k, v in data.items() if k != STANDING}
        try:
            applied = self.races.apply(race_id, car, decision, expected, Actor.PERSON,
                                       holder=holder_of(binding.address))
        except RennleitungError as error:
            return answer(texts.pick(language, "Nicht angewendet: ", "Not applied: ")
                          + texts.error_text(language, error),
                          {"refused": "race", "reason_de": error.message_de[:300],
                           "reason_en": error.message_en[:300]})
        body = texts.pick(language, f"Angenommen (Stand {applied.version}):",
                          f"Accepted (version {applied.version}):")
        body += "\n\n" + "\n".join("  " + line for line in order_text(data, language).split("\n"))
        if reading.ignored:
            body += "\n\n" + reading.ignored_text(language)
        outcome: dict[str, object] = {"applied": decision, "version": applied.version}
        if reading.ignored:
            outcome["ignored"] = [number for number, _line in reading.ignored]
        if data.get(STANDING):
            note, moved = self._standing_order(race_id, car, binding, language)
            body += "\n\n" + note
            if moved is not None:
                outcome["standing_order"] = moved
        after = self.races.view(race_id, Reader.seat(car))
        ref = None
        if out_of_race(after, car):  # told at once, in the answer; ``tick`` then stays quiet
            prefix = f"fd:{race_id}:{car}:"
            last = service.last_ref(prefix)
            body += "\n\n" + out_text(after, car, told(last) if last else 0, language)
            ref = f"{prefix}out:{binding.token}:e{len(after.events)}"
            outcome["out"] = True
        return Handled(outcome, [Outgoing(sender, subject, texts.letter(language, body),
                                          ref=ref)])

    def _standing_order(self, race_id: int, car: str, binding: Binding,
                        language: str) -> tuple[str, dict[str, object] | None]:
        """Use ``Wenn zu viel: bremsen, Spur halten`` on the move question that the gear just
        opened (``fd_standing``); returns what the answer says and the move made, if any."""
        seen = self.races.view(race_id, Reader.seat(car))
        asked = seen.question() if seen.running else None
        ask = asked.question if asked is not None else None
        if not isinstance(ask, MoveQuestion) or seen.track is None:
            return texts.pick(language, "Dauerauftrag nicht gebraucht: als Nächstes wird nicht "
                              "nach dem Zug gefragt.", "Standing order not used: the next "
                              "question is not the move."), None
        chosen = brake_keep_lane(ask.moves)
        if chosen is None:
            return texts.pick(language, f"Gewürfelt: {ask.roll}. Dauerauftrag nicht gebraucht "
                              "(oder keine Spur zu halten): die Frage nach dem Zug folgt.",
                              f"Rolled: {ask.roll}. Standing order not used (the roll is not "
                              "too many, or no move keeps the lane): the move question "
                              "follows."), None
        track = seen.track
        move: dict[str, object] = {"kind": "move",
                                   "path": [track.name_of(s) for s in chosen.path]}
        try:
            done = self.races.apply(race_id, car, move, seen.version, Actor.PERSON,
                                    holder=holder_of(binding.address))
        except RennleitungError as error:  # e.g. the race moved on: the question still stands
            return texts.pick(language, "Dauerauftrag nicht angewendet: ",
                              "Standing order not applied: ") + texts.error_text(
                                  language, error), None
        where = track.name_of(chosen.end)
        return texts.pick(language, f"Gewürfelt: {ask.roll}, zu viel. Dauerauftrag angewendet "
                          f"(Stand {done.version}): gebremst, Spur gehalten, nach {where} "
                          f"({chosen.brakes} Bremspunkte, {chosen.tyres} Reifenpunkte).",
                          f"Rolled: {ask.roll}, too many. Standing order applied (version "
                          f"{done.version}): braked, kept the lane, to {where} ({chosen.brakes} "
                          f"brake points, {chosen.tyres} tyre points)."), move

    def tick(self, service: Mailroom, game: GameInfo, now: datetime) -> list[Outgoing]:
        """Deadlines passed, what the bots chose for whom, and every open question."""
        race_id = _race_id(game)
        if self._deadlines_run != now:  # the service ticks every game with the same moment:
            self.races.run_due_deadlines(now)  # every race's deadlines once, not once a game
            self._deadlines_run = now
        bound = {b.seat: b for b in service.bindings(game.key)}
        mails: list[Outgoing] = []
        version = self.races.versions([race_id]).get(race_id, -1)
        # the decisions only when the race moved on (they were read whole every tick)
        stored_now = () if self._timeouts_seen.get(race_id) == version else \
            self.races.decisions(race_id)
        self._timeouts_seen[race_id] = version
        for stored in stored_now:
            binding = bound.get(stored.car)
            if stored.actor is not Actor.TIMEOUT_BOT or binding is None:
                continue
            language = binding.language
            body = texts.pick(language, "Die Frist ist abgelaufen; der Bot hat für Sie "
                              "entschieden:", "The deadline has passed; the bot decided for "
                              "you:")
            body += "\n\n" + "\n".join("  " + line for line in
                                       order_text(stored.decision, language).split("\n"))
            mails.append(Outgoing(binding.address, texts.pick(
                language, f"Formula Dé {game.key}: Frist abgelaufen, Wagen {stored.car}"
                f"{code(binding)}", f"Formula Dé {game.key}: deadline passed, car {stored.car}"
                f"{code(binding)}"),
                texts.letter(language, body), "notice",
                ref=f"fd:{race_id}:timeout:{stored.seq}"))
        public = self.races.view(race_id, Reader.spectator())
        info = public.info
        if info.state is not RaceState.RUNNING:
            self._asked_before.pop(race_id, None)
            mails += self._finish(game, public, bound.values())
            return mails
        for car, binding in bound.items():  # an elimination is told at once
            if out_of_race(public, car):
                mails += self._out(service, race_id, car, binding)
        for car in public.asked:  # setups and bids: every driver asked at once, each his mail
            binding = bound.get(car)
            if binding is None or info.seat(car).kind is not SeatKind.PERSON:
                continue
            sent = self._asked_before.setdefault(race_id, {})
            if sent.get(car) == (public.version, binding.token):
                continue  # the race stands where this question was found sent
            seen = self.races.view(race_id, Reader.seat(car))
            asked = seen.question()
            if asked is None:
                continue
            made = self._question(service, game, seen, asked, binding,
                                  seen.info.seat(car).deadline_at)
            if not made:
                sent[car] = (seen.version, binding.token)
            mails += made
        return mails

    def _out(self, service: Mailroom, race_id: int, car: str,
             binding: Binding) -> list[Outgoing]:
        """The mail telling a bound player his car is out, once (unless his answer's
        confirmation told it already)."""
        prefix = f"fd:{race_id}:{car}:"
        last = service.last_ref(prefix)
        if last is not None and last.startswith(f"{prefix}out:{binding.token}:"):
            return []
        seen = self.races.view(race_id, Reader.seat(car))
        language = binding.language
        return [Outgoing(binding.address, texts.pick(
            language, f"Formula Dé {binding.game.key}: Wagen {car} ist ausgeschieden"
            f"{code(binding)}", f"Formula Dé {binding.game.key}: car {car} is out"
            f"{code(binding)}"), texts.letter(language, out_text(
                seen, car, told(last) if last else 0, language)), "notice",
            ref=f"{prefix}out:{binding.token}:e{len(seen.events)}")]

    def _question(self, service: Mailroom, game: GameInfo, seen: View, asked: QuestionView,
                  binding: Binding, deadline_at: datetime | None) -> list[Outgoing]:
        """The mail asking one bound car its open question, unless it went out before. A
        question asked of all drivers at once (setups, bids) keeps the version it was opened
        at while the others answer, so each driver gets it once and may answer it whenever."""
        race_id = _race_id(game)
        ask = asked.question
        version = asked.opened
        # the holder's token in the ref: whoever holds the seat gets its open question; the
        # events told so far at its end (``fd_story``)
        asking = f"fd:{race_id}:{ask.car}:{version}:{binding.token}:"
        last = service.last_ref(f"fd:{race_id}:{ask.car}:")
        if last is not None and last.startswith(asking):
            return []  # asked before: no board drawn again
        ref = f"{asking}e{len(seen.events)}"
        language = binding.language
        body = "\n".join([*story(seen, told(last) if last else 0, language),  # ends blank
                          question_text(seen, ask, language, version)])
        if deadline_at is not None:
            when = f"{deadline_at:%Y-%m-%d %H:%M} UTC"
            body += "\n\n" + texts.pick(language, f"Antwort bis {when}, sonst entscheidet der "
                                        "Bot.", f"Answer by {when}, else the bot decides.")
        body += "\n\n" + texts.pick(
            language, "Das Bild zeigt den Teil des Bretts, auf den es ankommt. Das ganze Brett: "
            "antworten Sie mit der Zeile \"Brett\"", "The picture shows the part of the board "
            "that matters. The whole board: reply with the line \"board\"")
        if self.base_url:
            body += texts.pick(language, f", oder {self.base_url}/races/{race_id}",
                               f", or {self.base_url}/races/{race_id}")
        body += "."
        return [Outgoing(binding.address, texts.pick(
            language, f"Formula Dé {game.key}: Wagen {ask.car}, Frage [v{version}]"
            f"{code(binding)}", f"Formula Dé {game.key}: car {ask.car}, question [v{version}]"
            f"{code(binding)}"),
            texts.letter(language, body), "question", ref=ref,
            attachments=board_attachments(seen, ask, self.png))]

    def _finish(self, game: GameInfo, public: View,
                bindings: Iterable[Binding]) -> list[Outgoing]:
        if public.info.state not in (RaceState.FINISHED, RaceState.CLOSED):
            return []
        race_id = _race_id(game)
        places = public.order
        mails = []
        for binding in bindings:
            language = binding.language
            lines = [texts.pick(language, "Das Rennen ist zu Ende. Ergebnis:",
                                "The race is over. Result:")]
            for placing in places:
                status = texts.pick(language, placing.reason_de, placing.reason_en) \
                    or status_word(placing.status, language)
                laps = texts.pick(language, count(placing.laps, "Runde", "Runden"),
                                  count(placing.laps, "lap", "laps"))
                points = texts.pick(language, count(placing.points, "Punkt", "Punkte"),
                                    count(placing.points, "point", "points"))
                lines.append(f"  {placing.position or '-'}. {placing.car} {placing.driver}, "
                             f"{laps}, {status}, {points}")
            mails.append(Outgoing(binding.address, texts.pick(
                language, f"Formula Dé {game.key}: Ergebnis", f"Formula Dé {game.key}: result"),
                texts.letter(language, "\n".join(lines)), "notice",
                ref=f"fd:{race_id}:result:{binding.address}"))
        return mails
