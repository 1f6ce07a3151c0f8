"""One timed qualifying lap, solo, as a state machine: the driver picks a gear, the dice speak.

Dresden "Qualifizierung" (with Masters 1 where Dresden is silent): the car starts on the middle
space directly behind (before) the start/finish line, the one the grid also lies behind
(Masters 1-1-3); the first roll is made in 1st gear, as after a normal start roll, but there is
no start roll (Masters 1-1-2: the shifter stands in 1st). The driving code applies in full, with
three changes:

- any downshift is free, except 6th to 1st, which stays forbidden (Dresden; Masters 6-1-2);
- there is no braking (Dresden "nicht gebremst"; Masters 1-0-1 "no PdV is involved");
- leaving a corner with a stop missing costs penalty points instead of tyre points: the points
  the tyres would have lost, i.e. spaces overshot times the tyre factor (hard 1, soft 2, rain
  tyres 2 in the dry; Dresden "Strafpunkte anstatt verbrauchten Verschleißpunkten",
  Masters 1-1-12 and 8-5 "Qualif." column).

**Decision (two stops missing):** a move that would leave a corner with two or more stops
missing (Masters 10-1; in a race the car is out) aborts the lap, as Masters 1-1-14 does: the
driver has no lap and takes one of the remaining grid slots in the black-die draw, behind every
driver with a lap. A lap that reaches ``max_rolls`` rolls without finishing is aborted too
(a safety stop; no real lap comes near it).

The lap ends with the move that crosses the line. Score = rolls + penalty points + whole
minutes of the lap time (+ 10 per error on a real table), Theoretiker −1, Praktiker +1
(Dresden "Fahrerprofile"). The engine never reads a clock: the caller passes the lap time in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.car import DriverProfile, Tyre, Weather
from rennleitung.formula_de.commitment import commit
from rennleitung.formula_de.dice import Dice
from rennleitung.formula_de.events import JsonValue
from rennleitung.formula_de.movegen import generate_moves
from rennleitung.formula_de.movement import MoveOption, MoveRequest
from rennleitung.formula_de.ruleset import Ruleset, get_ruleset
from rennleitung.formula_de.track import Track

TOP_GEAR = 6
PLENTY_OF_TYRES = 1_000_000
"""Tyre points in the move request: enough that overshooting never spins or eliminates the car;
the overshoot becomes penalty points instead (Dresden "Qualifizierung")."""
MAX_ROLLS = 200
"""Safety stop: a lap not finished after this many rolls is aborted."""
MS_PER_MINUTE = 60_000


class QualifyingError(RennleitungError):
    """A decision the qualifying lap cannot accept now; ``where`` names the rule or field."""


class QualifyingAskKind(StrEnum):
    """What the lap waits for."""

    GEAR = "gear"  # Masters 1-1-7: select the gear, then roll
    MOVE = "move"  # which of the legal moves for the roll (Masters 7)


@dataclass(frozen=True, slots=True)
class QualifyingAsk:
    """The question pending: a gear (with the optional soft-tyre +1) or a move for ``roll``."""

    kind: QualifyingAskKind
    gears: tuple[int, ...] = ()
    soft_bonus: bool = False
    moves: tuple[MoveOption, ...] = ()
    roll: int = 0


@dataclass(frozen=True, slots=True)
class GearChoice:
    """The gear for the next roll, and whether to use the soft-tyre +1 (Dresden "Reifen")."""

    gear: int
    soft_bonus: bool = False


@dataclass(frozen=True, slots=True)
class PathChoice:
    """One of the offered moves, by its path (space indices, start excluded)."""

    path: tuple[int, ...]


QualifyingDecision = GearChoice | PathChoice


@dataclass(frozen=True, slots=True)
class QualifyingConfig:
    """Track, ruleset and the driver's choices for the lap: profile, tyres, the run's weather
    (never changeable: changeable counts as sun or as the first run's weather, decided by the
    league), and the safety stop."""

    track: str = "monaco"
    ruleset: str = "dresden-2006"
    profile: DriverProfile = DriverProfile.NORMAL
    tyre: Tyre = Tyre.HARD
    weather: Weather = Weather.SUN
    max_rolls: int = MAX_ROLLS


@dataclass(frozen=True, slots=True)
class QualifyingEvent:
    """One line of the lap's protocol (Dresden: "Alle Würfe und Strafen werden protokolliert"):
    the roll it belongs to, its kind and its data; ``event_text.render_qualifying`` words it."""

    roll_number: int
    kind: str
    data: tuple[tuple[str, JsonValue], ...] = ()

    def get(self, key: str) -> JsonValue:
        """One data value (None when absent)."""
        return dict(self.data).get(key)


@dataclass(frozen=True, slots=True)
class Abort:
    """Why a lap ended without a time: the rule and the reason in both languages."""

    rule: str
    de: str
    en: str


def start_space(track: Track) -> int:
    """The middle space directly behind the line (Dresden "mittlere Feld direkt hinter die
    Start/Ziel-Linie"; Masters 1-1-3); with an even number of lanes the one right of centre."""
    ahead = track.first_after_line[track.lanes // 2]
    return track.behind_in_lane[ahead]


def legal_gears(current: int) -> tuple[int, ...]:
    """Gears for the next roll: one up, the same, or any lower gear for free, but never 6th to
    1st (Dresden "Qualifizierung"; Masters 6-1-2). Before the first roll: 1st only."""
    if current == 0:
        return (1,)
    top = min(current + 1, TOP_GEAR)
    return tuple(g for g in range(1, top + 1) if not (current == TOP_GEAR and g == 1))


def qualifying_score(
    rolls: int,
    penalty_points: int,
    lap_time_ms: int,
    profile: DriverProfile,
    ruleset: Ruleset,
    errors: int = 0,
) -> int:
    """Rolls + penalty points + whole minutes + points per error + the profile's ±1 (lower is
    better; the lap time breaks ties). Dresden "Qualifizierung", "Fahrerprofile"; Masters 1-1-11,
    1-1-13."""
    if lap_time_ms < 0:
        raise QualifyingError(
            f"Rundenzeit {lap_time_ms} ms ist negativ",
            f"lap time {lap_time_ms} ms is negative",
            "lap_time_ms",
        )
    minutes = lap_time_ms // MS_PER_MINUTE
    return (
        rolls
        + penalty_points
        + minutes * ruleset.qualifying_minute_points
        + errors * ruleset.qualifying_error_points
        + profile.effects.qualifying
    )


@dataclass(slots=True)
class _State:
    space: int
    gear: int = 0
    corner_stops: int = 0
    crossings: int = 0
    rolls: int = 0
    roll_total: int = 0
    penalty_points: int = 0
    overshoots: list[tuple[int, int, int]] = field(default_factory=list)


class TimedLap:
    """One solo timed lap. Create with ``TimedLap.create(config, seed)`` (or pass the dice
    in), then answer ``pending`` with ``apply`` until ``finished``."""

    def __init__(
        self,
        config: QualifyingConfig,
        dice: Dice,
        *,
        track: Track | None = None,
        ruleset: Ruleset | None = None,
        commitment: str = "",
    ) -> None:
        self.config = config
        self.track = track if track is not None else builtin_track(config.track)
        self.ruleset = ruleset if ruleset is not None else get_ruleset(config.ruleset)
        self.dice = dice
        self.commitment = commitment
        if config.profile not in self.ruleset.profiles_allowed:
            raise QualifyingError(
                f"Fahrerprofil {config.profile.label_de} ist in {self.ruleset.name} nicht erlaubt",
                f"driver profile {config.profile.label_en} is not allowed in {self.ruleset.name}",
                "profile (Dresden Fahrerprofile)",
            )
        start = start_space(self.track)
        self.start = start
        self._line_crossings_needed = 2 if (start, self._after(start)) in self._line() else 1
        self._state = _State(space=start)
        self.events: list[QualifyingEvent] = []
        self.abort: Abort | None = None
        self._ask: QualifyingAsk | None = self._gear_ask()

    @classmethod
    def create(cls, config: QualifyingConfig, seed: int | str) -> TimedLap:
        """A lap on a built-in track with a preset ruleset and dice seeded by ``seed``."""
        return cls(config, Dice.from_seed(seed), commitment=commit(seed))

    # --- what the lap shows ----------------------------------------------------------------

    @property
    def pending(self) -> QualifyingAsk | None:
        """The question waiting for an answer, or None when the lap is over."""
        return self._ask

    @property
    def finished(self) -> bool:
        return self._ask is None

    @property
    def completed(self) -> bool:
        """The car crossed the line: the lap counts."""
        return self.finished and self.abort is None

    @property
    def space(self) -> int:
        return self._state.space

    @property
    def gear(self) -> int:
        return self._state.gear

    @property
    def corner_stops(self) -> int:
        return self._state.corner_stops

    @property
    def rolls(self) -> int:
        """Number of gear rolls so far (Dresden "Wurfzahl"; Masters 1-1-10)."""
        return self._state.rolls

    @property
    def roll_total(self) -> int:
        """Sum of the gear-die results (for the protocol; the score counts rolls)."""
        return self._state.roll_total

    @property
    def penalty_points(self) -> int:
        """Penalty points for leaving corners with a stop missing."""
        return self._state.penalty_points

    @property
    def overshoots(self) -> tuple[tuple[int, int, int], ...]:
        """(roll number, spaces overshot, penalty points) for every overshoot, in order."""
        return tuple(self._state.overshoots)

    @property
    def overshoot_factor(self) -> int:
        """Penalty points per space overshot with this lap's tyres and weather."""
        tyre = self.ruleset.tyre(self.config.tyre)
        return tyre.overshoot_per_space(self.config.weather, 1)

    def score(self, lap_time_ms: int, errors: int = 0) -> int:
        """The lap's score for a lap time measured by the caller (only for a completed lap)."""
        if not self.completed:
            raise QualifyingError(
                "die Runde ist nicht beendet oder wurde abgebrochen",
                "the lap is not over or was aborted",
                "qualifying",
            )
        return qualifying_score(
            self.rolls, self.penalty_points, lap_time_ms, self.config.profile, self.ruleset, errors
        )

    def request(self, roll: int, gear: int, soft_bonus: bool = False) -> MoveRequest:
        """The move request for a roll: no brakes, tyres to spare, no other car (solo lap)."""
        config = self.config
        rules = self.ruleset
        effects = config.profile.effects_at(in_pit_lane=False)
        tyre = rules.tyre(config.tyre)
        distance = roll + effects.movement + tyre.movement_malus(1)
        if soft_bonus:
            distance += tyre.movement_bonus(config.weather, 1)
        if config.weather is Weather.RAIN:
            slide = tyre.rain_slide + effects.rain_slide
        else:
            slide = effects.corner_stop_sun
        return MoveRequest(
            start=self._state.space,
            distance=distance,
            gear=gear,
            brakes=0,
            tyres=PLENTY_OF_TYRES,
            overshoot_factor=self.overshoot_factor,
            slide=slide,
            corner_stops=self._state.corner_stops,
            pit_allowed=False,
            blocked_table=rules.blocked_table,
            slipstream_min_gear=rules.slipstream_min_gear,
            slipstream_spaces=rules.slipstream_spaces,
            slipstream_corner_brakes=rules.slipstream_corner_brakes,
        )

    # --- answering ----------------------------------------------------------------------------

    def apply(self, decision: QualifyingDecision) -> None:
        """Answer the pending question; a wrong answer raises ``QualifyingError`` naming the
        rule and leaves the lap unchanged."""
        ask = self._ask
        if ask is None:
            raise QualifyingError("die Runde ist vorbei", "the lap is over", "qualifying")
        if ask.kind is QualifyingAskKind.GEAR:
            if not isinstance(decision, GearChoice):
                raise QualifyingError(
                    "erwartet wird eine Gangwahl", "a gear choice is expected", "qualifying"
                )
            self._roll(ask, decision)
            return
        if not isinstance(decision, PathChoice):
            raise QualifyingError(
                "erwartet wird die Wahl eines Zugs", "a move choice is expected", "qualifying"
            )
        option = next((o for o in ask.moves if o.path == decision.path), None)
        if option is None:
            raise QualifyingError(
                "dieser Zug ist nicht erlaubt", "this move is not legal", "Masters 7"
            )
        self._apply_option(option, ask.roll)

    def _roll(self, ask: QualifyingAsk, choice: GearChoice) -> None:
        if choice.gear not in ask.gears:
            allowed = ", ".join(map(str, ask.gears))
            raise QualifyingError(
                f"Gang {choice.gear} nicht erlaubt (möglich: {allowed})",
                f"gear {choice.gear} not allowed (possible: {allowed})",
                "Dresden Qualifizierung; Masters 6-1-2",
            )
        if choice.soft_bonus and not ask.soft_bonus:
            raise QualifyingError(
                "der Weichreifen-Bonus gilt nur mit Weichreifen bei Sonne",
                "the soft-tyre bonus only applies on soft tyres in sunshine",
                "Dresden Reifen",
            )
        state = self._state
        state.gear = choice.gear
        roll = self.dice.gear(choice.gear).result
        state.rolls += 1
        state.roll_total += roll
        self._emit("roll", gear=choice.gear, result=roll, soft_bonus=choice.soft_bonus)
        options = generate_moves(self.track, self.request(roll, choice.gear, choice.soft_bonus))
        if not options:
            self._emit("no_move")
            self._next()
        elif len(options) == 1:
            self._apply_option(options[0], roll)
        else:
            self._ask = QualifyingAsk(QualifyingAskKind.MOVE, moves=tuple(options), roll=roll)

    def _apply_option(self, option: MoveOption, roll: int) -> None:
        state = self._state
        name = self.track.name_of
        if option.eliminated is not None:
            self.abort = Abort(
                f"{option.eliminated.rule}; Masters 1-1-14",
                f"Runde abgebrochen: {option.eliminated.text_de}",
                f"lap aborted: {option.eliminated.text_en}",
            )
            self._emit("abort", reason=option.eliminated.code, rolls=state.rolls)
            self._ask = None
            return
        state.space = option.end
        state.corner_stops = option.corner_stops
        state.crossings += option.laps
        self._emit("move", spaces=option.spaces_moved, end=name(option.end))
        if option.overshoot:
            points = option.tyres  # spaces overshot × tyre factor, no tyres spent
            state.penalty_points += points
            state.overshoots.append((state.rolls, option.overshoot, points))
            self._emit("penalty", overshoot=option.overshoot, points=points)
        if state.crossings >= self._line_crossings_needed:
            self._emit("finish", rolls=state.rolls, penalty_points=state.penalty_points)
            self._ask = None
            return
        self._next()

    def _next(self) -> None:
        if self._state.rolls >= self.config.max_rolls:
            self.abort = Abort(
                "Sicherheitsgrenze / safety stop",
                f"Runde nach {self._state.rolls} Würfen abgebrochen",
                f"lap stopped after {self._state.rolls} rolls",
            )
            self._emit("abort", reason="safety_stop", rolls=self._state.rolls)
            self._ask = None
            return
        self._ask = self._gear_ask()

    def _gear_ask(self) -> QualifyingAsk:
        tyre = self.ruleset.tyre(self.config.tyre)
        return QualifyingAsk(
            QualifyingAskKind.GEAR,
            gears=legal_gears(self._state.gear),
            soft_bonus=tyre.movement_bonus(self.config.weather, 1) > 0,
        )

    def _emit(self, kind: str, **data: JsonValue) -> None:
        self.events.append(QualifyingEvent(self._state.rolls, kind, tuple(data.items())))

    def _line(self) -> frozenset[tuple[int, int]]:
        return self.track.line_edges

    def _after(self, space: int) -> int:
        return self.track.ahead_in_lane[space]
