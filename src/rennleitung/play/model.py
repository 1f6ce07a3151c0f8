"""The values the race service takes and gives: what a race is made of, its seats, its stored
decisions and the notices listeners receive. Plain frozen data, no database and no engine state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import DriverProfile
from rennleitung.formula_de.race_setup import RaceConfig


class PlayError(RennleitungError):
    """A request the race service refuses (unknown race, wrong state, seat taken…)."""


class UnknownRace(PlayError):
    """No race has this number (the web answers 404)."""


class NotYourSeat(PlayError):
    """A person answered for a car whose seat he does not hold: another person's, a bot's or
    a car the race does not have (the web answers 403). Checked before anything else about the
    answer, so a stranger learns nothing about the race's state."""


class RaceState(StrEnum):
    """Where a race is in its life. ``open``: seats are being filled; ``running``: decisions are
    taken; ``finished``: the flag fell (the seed is revealed); ``closed``: the organiser ended it
    (finished or not), nothing more is applied."""

    OPEN = "open"
    RUNNING = "running"
    FINISHED = "finished"
    CLOSED = "closed"


class SeatKind(StrEnum):
    PERSON = "person"
    BOT = "bot"


class Actor(StrEnum):
    """Who made a decision: the person in the seat, the seat's bot, the bot standing in for a
    person whose time ran out, or the organiser (a halt)."""

    PERSON = "person"
    BOT = "bot"
    TIMEOUT_BOT = "timeout-bot"
    ORGANISER = "organiser"


DEFAULT_BOT = "simple"


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """One car of a new race. ``bot`` drives a bot seat and stands in for a person whose time
    runs out; ``holder`` is the opaque key of the account holding a person's seat (None: free).
    """

    car: str
    driver: str = ""
    kind: SeatKind = SeatKind.PERSON
    bot: str = DEFAULT_BOT
    holder: str | None = None
    team: str = ""
    profile: DriverProfile = DriverProfile.NORMAL


MAX_DECISION_SECONDS = 7 * 24 * 3600
"""The longest time per decision a race may give: a week (by mail a round takes days; anything
longer is a typing error, and a deadline beyond the calendar could not be stored)."""
MAX_BANK_SECONDS = 7 * 24 * 3600
"""The largest time bank a driver may have: a week, for the same reasons."""
MAX_MISSES = 50
"""The most missed decisions an organiser may allow before the bot takes a seat over."""
MAX_ABANDON_SECONDS = 90 * 24 * 3600
"""The longest a race may wait for any decision before it is abandoned: 90 days."""


class AbandonAction(StrEnum):
    """What becomes of a running race in which nobody decided for the organiser's period:
    ``close`` ends it (as the organiser's Close does), ``bots`` gives every person's seat to
    its bot (each driver may take his back, as after missed decisions)."""

    CLOSE = "close"
    BOTS = "bots"


class ClockWhat(StrEnum):
    """What the clock did: a seat's bot took over after missed decisions (``away``), its driver
    took the seat back (``back``), the race was abandoned (``closed`` or ``bots``)."""

    AWAY = "away"
    BACK = "back"
    CLOSED = "closed"
    BOTS = "bots"


@dataclass(frozen=True, slots=True)
class ClockEvent:
    """One line of a race's clock log: ``what`` happened at ``at``, with the race at
    ``version``, to ``car`` (empty for the race as a whole) after ``misses`` missed decisions
    in a row (``away``) or ``seconds`` without a decision (abandoned)."""

    at: datetime
    what: ClockWhat
    version: int
    car: str = ""
    misses: int = 0
    seconds: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"at": self.at.isoformat(), "what": self.what.value, "version": self.version,
                "car": self.car, "misses": self.misses, "seconds": self.seconds}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ClockEvent:
        return cls(at=datetime.fromisoformat(data["at"]), what=ClockWhat(data["what"]),
                   version=int(data["version"]), car=str(data.get("car", "")),
                   misses=int(data.get("misses", 0)), seconds=int(data.get("seconds", 0)))


@dataclass(frozen=True, slots=True)
class RaceSpec:
    """What a new race is made of. ``track`` is a built-in track's name, or the name of the
    track whose file content is ``track_text``; ``laps`` 0 means the ruleset's laps;
    ``decision_seconds`` is the time a person has per decision (None: no deadline);
    ``bank_seconds`` each driver's time bank, used once a decision's time has run out, before
    the bot decides (None: none; needs a time per decision); after ``bot_after_misses``
    decisions missed in a row the bot drives the seat until its driver is back (0: never);
    after ``abandon_seconds`` without any decision the race is closed or its persons' seats
    given to the bots (``abandon_action``; None: never). A race for
    a league names it and the race number (``league``, ``league_race``) and brings the engine's
    configuration made from the league (``config``: karma, grid of the qualifying), whose
    entries the seats follow one by one; its result goes into the league when it finishes
    (``play/league_races.py``). ``table``: the dice are the table's, entered by the organiser
    (``docs/table.md``)."""

    track: str
    ruleset: str
    seats: tuple[SeatSpec, ...]
    laps: int = 0
    track_text: str | None = None
    decision_seconds: int | None = None
    name: str = ""
    organiser: str | None = None
    max_rounds: int = 400
    league: str | None = None
    league_race: int | None = None
    config: RaceConfig | None = None
    bank_seconds: int | None = None
    bot_after_misses: int = 0
    abandon_seconds: int | None = None
    abandon_action: AbandonAction = AbandonAction.CLOSE
    table: bool = False
    """Played on a real table (issue 29): the organiser enters every die, ``docs/table.md``."""


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat as stored. ``deadline_at`` is set while the car is asked and the race has a
    time per decision: the time per decision after ``asked_at`` and then what is left of the
    bank (``bank_left``, None: the race has none). ``misses``: decisions the bot made in a row
    because the time ran out; ``away_since``: since when the bot drives for the absent driver
    (after the organiser's number of misses, or the race abandoned to the bots)."""

    car: str
    number: int
    driver: str
    kind: SeatKind
    bot: str
    holder: str | None
    asked_at: datetime | None = None
    deadline_at: datetime | None = None
    bank_left: int | None = None
    misses: int = 0
    away_since: datetime | None = None

    @property
    def away(self) -> bool:
        """The bot drives this person's seat until its driver is back."""
        return self.away_since is not None


@dataclass(frozen=True, slots=True)
class StoredDecision:
    """One decision as stored: the race's version after it is ``seq``."""

    seq: int
    car: str
    actor: Actor
    decision: dict[str, Any]
    made_at: datetime
    holder: str | None = None


@dataclass(frozen=True, slots=True)
class RaceInfo:
    """A race as the world may see it: ``seed`` is None until the race is finished or closed."""

    id: int
    name: str
    state: RaceState
    version: int
    track: str
    ruleset: str
    laps: int
    commitment: str
    seats: tuple[Seat, ...]
    decision_seconds: int | None
    organiser: str | None
    created_at: datetime
    updated_at: datetime
    seed: str | None = None
    custom_track: bool = False
    rules_version: int = 1
    notices: tuple[RulesNotice, ...] = ()
    """Rule fixes that changed the running race, oldest first (``RulesNotice``)."""
    bank_seconds: int | None = None
    bot_after_misses: int = 0
    abandon_seconds: int | None = None
    abandon_action: AbandonAction = AbandonAction.CLOSE
    abandon_at: datetime | None = None
    """When the running race is abandoned unless someone decides first."""
    clock_log: tuple[ClockEvent, ...] = ()
    """What the clock did to seats and race, oldest first (public: the table sees it)."""

    def seat(self, car: str) -> Seat:
        """The seat of ``car``."""
        for seat in self.seats:
            if seat.car == car:
                return seat
        raise PlayError(f"unbekanntes Auto {car!r}", f"unknown car {car!r}", "car")


@dataclass(frozen=True, slots=True)
class Applied:
    """The outcome of a change: the race's version and state after it, the decisions stored
    (the caller's first, then the bots'), and the cars asked now."""

    race_id: int
    version: int
    state: RaceState
    stored: tuple[StoredDecision, ...] = ()
    asked: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RulesNotice:
    """Why a running race changed under a rule fix (``docs/formula_de/records.md``, "A rule fix
    in a running race"): from ``round`` + 1 on it is played under rules version ``rules_to``
    instead of ``rules_from``; ``version`` is the race's version after the change. ``dropped``
    are the stored decisions that no longer applied, the first of them the question asked again
    (empty when every decision still applied); ``changes`` the fixes made in between, each
    ``(version, rule, German, English)``."""

    at: datetime
    rules_from: int
    rules_to: int
    round: int
    version: int
    dropped: tuple[StoredDecision, ...] = ()
    changes: tuple[tuple[int, str, str, str], ...] = ()

    def text(self, lang: str = "en") -> str:
        """One sentence for people, in ``lang`` (``de`` or ``en``)."""
        rules = "; ".join(f"{r} ({de if lang == 'de' else en})" for _, r, de, en in self.changes)
        if lang == "de":
            head = (
                f"Regelkorrektur: ab Spielrunde {self.round + 1} gilt Regelstand {self.rules_to} "
                f"statt {self.rules_from}"
            )
            tail = (
                f"; {len(self.dropped)} gespeicherte Entscheidung(en) gelten nicht mehr, die "
                f"Frage an {self.dropped[0].car} wird neu gestellt"
                if self.dropped
                else "; alle Entscheidungen gelten weiter"
            )
            return f"{head}{tail}. Geändert: {rules}"
        head = (
            f"Rule fix: from round {self.round + 1} the race is played under rules version "
            f"{self.rules_to} instead of {self.rules_from}"
        )
        tail = (
            f"; {len(self.dropped)} stored decision(s) no longer apply, {self.dropped[0].car} "
            "is asked that question again"
            if self.dropped
            else "; every decision still applies"
        )
        return f"{head}{tail}. Changed: {rules}"

    def to_json(self) -> dict[str, Any]:
        return {
            "at": self.at.isoformat(),
            "rules_from": self.rules_from,
            "rules_to": self.rules_to,
            "round": self.round,
            "version": self.version,
            "dropped": [
                {
                    "seq": d.seq,
                    "car": d.car,
                    "actor": d.actor.value,
                    "decision": d.decision,
                    "made_at": d.made_at.isoformat(),
                    "holder": d.holder,
                }
                for d in self.dropped
            ],
            "changes": [
                {"version": v, "rule": r, "de": de, "en": en} for v, r, de, en in self.changes
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RulesNotice:
        return cls(
            at=datetime.fromisoformat(data["at"]),
            rules_from=int(data["rules_from"]),
            rules_to=int(data["rules_to"]),
            round=int(data["round"]),
            version=int(data["version"]),
            dropped=tuple(
                StoredDecision(
                    seq=int(d["seq"]),
                    car=str(d["car"]),
                    actor=Actor(d["actor"]),
                    decision=d["decision"],
                    made_at=datetime.fromisoformat(d["made_at"]),
                    holder=d.get("holder"),
                )
                for d in data.get("dropped", [])
            ),
            changes=tuple(
                (int(c["version"]), str(c["rule"]), str(c["de"]), str(c["en"]))
                for c in data.get("changes", [])
            ),
        )


@dataclass(frozen=True, slots=True)
class RaceChanged:
    """Notice: the race moved to ``version`` (or changed state)."""

    race_id: int
    version: int
    state: RaceState


@dataclass(frozen=True, slots=True)
class QuestionFor:
    """Notice: ``car`` (a person's seat, held by ``holder``) has a question to answer at
    ``version``, due by ``deadline_at`` when the race has a time per decision."""

    race_id: int
    car: str
    version: int
    holder: str | None
    deadline_at: datetime | None = None


Notice = RaceChanged | QuestionFor


@dataclass(frozen=True, slots=True)
class TimedOut:
    """A deadline that passed: ``car``'s bot decided at ``version``."""

    race_id: int
    car: str
    applied: Applied = field(compare=False)
