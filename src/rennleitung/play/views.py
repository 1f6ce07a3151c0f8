"""What one reader may know of a stored race: the views the play service hands to the faces.

The faces (web, mail, the CLI showing a stored race) never hold the engine's ``Race``; they get
a ``View`` made for one reader and render pages, mails and JSON from it alone (architecture:
"Faces see views"). A reader is a seat (a driver: his car in full, his open questions and his
answers that wait for the others), the organiser or a spectator; the organiser sees what a
spectator sees (he runs the race, he does not play it). What every reader sees is public under
the rules: the board, the cars' gears, places and karma, the events (a pit announcement
included: it is spoken aloud at the table, Dresden "Boxenstopp"), who is asked. Secret until the
rules reveal them: another driver's setup (Dresden "Rennen": shown when all are in), another
driver's head-to-head bid (Dresden "Kopf an Kopf": shown when the level cars' bids are revealed
together), and the dice seed (only its commitment until the flag, ``RaceInfo.seed``).

The view holds engine values (track, ruleset, car states, questions, events), all frozen; its
JSON form (``View.to_json``) is documented in ``docs/play.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rennleitung.formula_de.car import CarStatus, Tyre, Wear, Weather
from rennleitung.formula_de.event_text import render
from rennleitung.formula_de.events import Event
from rennleitung.formula_de.position import Position
from rennleitung.formula_de.race_decisions import PitPlan, plan_to_data
from rennleitung.formula_de.race_questions import Question
from rennleitung.formula_de.ruleset import Ruleset
from rennleitung.formula_de.track import Track
from rennleitung.play.advice import GearHint, MoveHint
from rennleitung.play.model import RaceInfo, RaceState, RulesNotice


class ReaderKind(StrEnum):
    SEAT = "seat"
    ORGANISER = "organiser"
    SPECTATOR = "spectator"


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads: a seat (``car`` set), the organiser or a spectator."""

    kind: ReaderKind
    car: str | None = None

    @classmethod
    def seat(cls, car: str) -> Reader:
        return cls(ReaderKind.SEAT, car)

    @classmethod
    def organiser(cls) -> Reader:
        return cls(ReaderKind.ORGANISER)

    @classmethod
    def spectator(cls) -> Reader:
        return cls(ReaderKind.SPECTATOR)

    @classmethod
    def of(cls, info: RaceInfo, holder: str | None) -> Reader:
        """The reader ``holder`` is in this race: the seat he holds, else the organiser if the
        race is his, else a spectator."""
        if holder:
            seat = next((s for s in info.seats if s.holder == holder), None)
            if seat is not None:
                return cls.seat(seat.car)
            if info.organiser == holder:
                return cls.organiser()
        return cls.spectator()

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "car": self.car}


@dataclass(frozen=True, slots=True)
class CarLine:
    """One car on the board as the reader may see it. ``wear`` and ``tyre`` are None for
    another driver's car until the setups are revealed; ``pit_plan`` is the announced pit
    work (public); ``progress`` the distance along the race in rows."""

    car: str
    driver: str
    team: str
    profile: str
    grid: int
    space: int
    space_name: str
    gear: int
    status: CarStatus
    halted: bool
    laps: int
    tyre: Tyre | None
    tyre_laps: int
    box: int
    karma: int
    wear: Wear | None
    pit_plan: PitPlan | None
    progress: float
    corner_stops: int = 0
    """Stops made in the corner the car stands in (Masters 7-1-1; public: on the board)."""
    stops_needed: int = 0
    """The stops that corner asks for (0 off a corner)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "car": self.car,
            "driver": self.driver,
            "team": self.team,
            "profile": self.profile,
            "grid": self.grid,
            "space": self.space_name,
            "gear": self.gear,
            "status": self.status.value,
            "halted": self.halted,
            "laps": self.laps,
            "tyre": self.tyre.value if self.tyre is not None else None,
            "tyre_laps": self.tyre_laps,
            "box": self.box,
            "karma": self.karma,
            "wear": self.wear.as_dict() if self.wear is not None else None,
            "pit_plan": plan_to_data(self.pit_plan) if self.pit_plan is not None else None,
            "progress": self.progress,
            "corner_stops": self.corner_stops,
            "stops_needed": self.stops_needed,
        }


@dataclass(frozen=True, slots=True)
class OrderLine:
    """One line of the running order (the classification, Masters 21)."""

    position: int
    car: str
    driver: str
    laps: int
    status: str
    gear: int
    points: int
    karma: int
    grid: int
    rule: str = ""
    reason_de: str = ""
    reason_en: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "car": self.car,
            "driver": self.driver,
            "laps": self.laps,
            "status": self.status,
            "gear": self.gear,
            "points": self.points,
            "karma": self.karma,
            "grid": self.grid,
            "rule": self.rule,
            "reason_de": self.reason_de,
            "reason_en": self.reason_en,
        }


@dataclass(frozen=True, slots=True)
class QuestionView:
    """One open question of the reader's car: the engine's question, the version it was
    opened at (a question asked of all drivers at once keeps it while the others answer, so
    an answer made against it stays current) and the answers it offers (decision JSON)."""

    question: Question
    opened: int
    options: tuple[dict[str, Any], ...]
    hints: tuple[GearHint | MoveHint, ...] = ()
    """What each gear (a turn) or each move option (a move, in the question's order) costs
    and leaves the car facing (``play/advice.py``); empty for other questions."""

    @property
    def car(self) -> str:
        return self.question.car

    def to_json(self) -> dict[str, Any]:
        """The question's JSON form with ``options`` (as ``question.json`` has it) and
        ``opened``."""
        data = self.question.to_json()
        data["options"] = list(self.options)
        data["opened"] = self.opened
        data["hints"] = [h.to_json() for h in self.hints]
        return data


def notice_json(notice: RulesNotice) -> dict[str, Any]:
    """A rule-fix notice as every reader may see it: which decisions no longer applied by number
    and car only (a dropped secret bid stays secret), with its sentence in both languages."""
    data = notice.to_json()
    data["dropped"] = [{"seq": d.seq, "car": d.car} for d in notice.dropped]
    data["de"], data["en"] = notice.text("de"), notice.text("en")
    return data


def clock_json(info: RaceInfo) -> dict[str, Any]:
    """The race's clock as the organiser set it (public: every driver plays under it)."""
    return {
        "decision_seconds": info.decision_seconds,
        "bank_seconds": info.bank_seconds,
        "bot_after_misses": info.bot_after_misses,
        "abandon_seconds": info.abandon_seconds,
        "abandon_action": info.abandon_action.value if info.abandon_seconds else None,
        "abandon_at": info.abandon_at.isoformat() if info.abandon_at else None,
    }


@dataclass(frozen=True)
class View:
    """A stored race as one reader may know it at ``version``. ``started`` is False while the
    race is open (no board yet: everything below ``info`` is empty). ``questions`` and
    ``answered`` are the reader's own (a seat's; empty for others); ``asked`` names every car
    that has a question to answer now (public: whose turn it is). ``position`` is the board as
    a position (``render/position_svg``), the reader's car to move. A view made without its
    board (``view_at(..., board=False)``, for ``question.json``) has no cars, order, events or
    position."""

    reader: Reader
    info: RaceInfo
    version: int
    started: bool
    round: int = 0
    laps: int = 0
    track: Track | None = None
    ruleset: Ruleset | None = None
    weather: Weather | None = None
    weather_settled: bool = False
    dangerous: frozenset[int] = frozenset()
    entries: tuple[tuple[str, str], ...] = ()
    cars: tuple[CarLine, ...] = ()
    order: tuple[OrderLine, ...] = ()
    events: tuple[Event, ...] = ()
    questions: tuple[QuestionView, ...] = ()
    answered: tuple[dict[str, Any], ...] = ()
    asked: tuple[str, ...] = ()
    position: Position | None = None
    finished: bool = False
    names: Mapping[str, str] = field(default_factory=dict)
    timed_out: tuple[tuple[int, str], ...] = ()
    """``(seq, car)`` of every decision the bot made because its driver's time ran out (actor
    ``timeout-bot``; public: the table sees who missed his turn); read only for races with a
    time per decision."""
    table: bool = False
    """The race is played at a real table (issue 29, ``docs/table.md``): the organiser's view
    then holds every open question (he enters for the table) and every car's sheet."""

    @property
    def running(self) -> bool:
        return self.info.state is RaceState.RUNNING

    def car(self, car: str) -> CarLine | None:
        return next((c for c in self.cars if c.car == car), None)

    @property
    def own(self) -> CarLine | None:
        """The reader's car (a seat's), once the race has its cars."""
        return self.car(self.reader.car) if self.reader.car else None

    def question(self, car: str | None = None) -> QuestionView | None:
        """The reader's open question (of ``car``, default the reader's), if any; at the table
        the organiser's is the first open one, whoever's it is."""
        wanted = car or self.reader.car
        if wanted is None and self.table and self.reader.kind is ReaderKind.ORGANISER:
            return self.questions[0] if self.questions else None
        return next((q for q in self.questions if q.car == wanted), None)

    def driver(self, car: str) -> str:
        return self.names.get(car, car)

    def log(self, lang: str, last: int | None = None) -> list[str]:
        """The newest events first as sentences in ``lang`` (``last``: that many only)."""
        chosen = self.events if last is None else self.events[-last:]
        return [render(e, "de" if lang == "de" else "en", self.names) for e in reversed(chosen)]

    def to_json(self) -> dict[str, Any]:
        """The view as JSON (``docs/play.md``): seats without who holds them."""
        info = self.info
        data: dict[str, Any] = {
            "reader": self.reader.to_json(),
            "race": info.id,
            "name": info.name,
            "state": info.state.value,
            "version": self.version,
            "track": info.track,
            "ruleset": info.ruleset,
            "laps": self.laps or info.laps,
            "commitment": info.commitment,
            "seed": info.seed,
            "seats": [
                {"car": s.car, "driver": s.driver, "kind": s.kind.value,
                 "taken": s.holder is not None, "bank_left": s.bank_left,
                 "misses": s.misses, "away": s.away,
                 "deadline_at": s.deadline_at.isoformat() if s.deadline_at else None}
                for s in info.seats
            ],
            "started": self.started,
            "notices": [notice_json(n) for n in info.notices],
            "clock": clock_json(info),
            "clock_log": [e.to_json() for e in info.clock_log],
        }
        if self.table:
            data["table"] = True
        if not self.started:
            return data
        names = self.names
        data.update({
            "round": self.round,
            "weather": {
                "current": self.weather.value if self.weather is not None else None,
                "settled": self.weather_settled,
            },
            "dangerous": sorted(self.track.name_of(s) for s in self.dangerous)
            if self.track is not None else [],
            "cars": [c.to_json() for c in self.cars],
            "order": [o.to_json() for o in self.order],
            "events": [
                {**e.to_data(), "de": render(e, "de", names), "en": render(e, "en", names)}
                for e in self.events
            ],
            "questions": [q.to_json() for q in self.questions],
            "answered": list(self.answered),
            "asked": list(self.asked),
            "finished": self.finished,
            "timed_out": [{"seq": seq, "car": car, "driver": self.driver(car)}
                          for seq, car in self.timed_out],
        })
        return data
