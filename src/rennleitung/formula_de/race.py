"""The race state machine: from the grid to the flag, one decision or one die at a time.

In the style of OpenSpiel, a race is always waiting for exactly one driver's decision
(``pending`` / ``legal_decisions()``), or it is over. Between decisions the dice speak: every roll
comes from the one injected ``Dice`` and is an event. The flow of a race is written as one
generator (``_run``) that yields an ``Ask`` whenever a person must decide, so the rules read in
the order of the rulebook: setup (Dresden "Rennen"), the start roll (Dresden "Startwurf";
Masters 9), rounds of play in order (Masters 6-2, 19-5), each move in the Masters 6-3 sequence
(gear, skip costs, boost, roll, move, road-holding tests, blocking, pit, collisions, engine
tests), the weather at the end of a round (Dresden "Wetter"), the finish (Masters 21).

A race is its configuration, its seed and its decisions: ``record.py`` replays it bit for bit.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Generator
from dataclasses import dataclass, replace

from rennleitung.errors import RennleitungError
from rennleitung.formula_de import rules_version
from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.car import (
    CarStatus,
    Tyre,
    Wear,
    WearArea,
    Weather,
    WeatherRoll,
    WeatherState,
)
from rennleitung.formula_de.commitment import commit
from rennleitung.formula_de.dice import Dice, DiceRoll, RollPurpose
from rennleitung.formula_de.events import Cause, Event, EventKind, JsonValue, make_event
from rennleitung.formula_de.karma_income import end_of_race_karma, laps_most_led
from rennleitung.formula_de.movecheck import check_move
from rennleitung.formula_de.movegen import generate_moves
from rennleitung.formula_de.movement import MoveOption, MoveRequest
from rennleitung.formula_de.moves import Choices, request_for
from rennleitung.formula_de.position import CarState, Position
from rennleitung.formula_de.race_decisions import (
    AskKind,
    BidChoice,
    BoxChoice,
    Decision,
    DecisionError,
    Halt,
    KarmaAction,
    KarmaChoice,
    MoveChoice,
    PitChoice,
    SetupChoice,
    StaleVersion,
    TurnChoice,
    plan_to_data,
)
from rennleitung.formula_de.race_gears import gears_skipped, legal_gears, skip_cost
from rennleitung.formula_de.race_ledger import (
    KarmaMove,
    KarmaReason,
    PlayOrder,
    karma_moves,
    play_orders,
)
from rennleitung.formula_de.race_log import Earlier, Log
from rennleitung.formula_de.race_order import (
    OrderItem,
    coordinate,
    laps_behind,
    level_groups,
    order_key,
    order_of_play,
    progress,
    round_order,
    sweep_key,
)
from rennleitung.formula_de.race_pit import (
    MASTERS_REPAIRABLE,
    REPAIRABLE,
    all_plans,
    check_plan,
    clamp_plan,
    do_work,
    max_repairs,
    plan_points,
)
from rennleitung.formula_de.race_questions import (
    BidQuestion,
    BoxQuestion,
    KarmaQuestion,
    MoveQuestion,
    PitQuestion,
    Question,
    SetupQuestion,
    TurnQuestion,
)
from rennleitung.formula_de.race_restart import restart_spots, track_cut
from rennleitung.formula_de.race_retirement import (
    FROM_ELIMINATION,
    LEAVES_WRECK,
    MARKS_DANGER,
    Retirement,
    rule_of,
)
from rennleitung.formula_de.race_setup import (
    RaceConfig,
    check_config,
    draw_grid,
    grid_spaces,
)
from rennleitung.formula_de.race_state import STANDARD_SETUP, CarInfo, CornerPass, RaceState
from rennleitung.formula_de.race_view import RaceView, view_of
from rennleitung.formula_de.ruleset import (
    EngineFailure,
    PitSystem,
    PreRaceOrder,
    Ruleset,
    StartOutcome,
    WreckRemoval,
    get_ruleset,
)
from rennleitung.formula_de.track import SpaceKind, Track

Answer = Decision | dict[str, Decision]
"""What the flow receives: the decision of a single question, or the answers of a batch of
simultaneous questions by car (a car halted meanwhile has none)."""
Flow = Generator[Question | tuple[Question, ...], Answer, None]
Check = Generator[Question | tuple[Question, ...], Answer, bool]

T_CAR_SETUP = Wear(tyres=4, brakes=4, fuel=4, body=3, engine=3, road_holding=2, box=0)
"""The T-car setup offered: 20 points (Dresden "Ausfälle": the T-car has 2 points less)."""

RACING = frozenset(
    {CarStatus.RUNNING, CarStatus.SPUN, CarStatus.STALLED, CarStatus.IN_PIT, CarStatus.ROLLING_OUT}
)

_CUT_SHORT = frozenset({AskKind.TURN, AskKind.MOVE, AskKind.PIT})
"""Questions asked only inside the asked car's own turn: ``halt`` may end that turn there."""


class _TurnCut(Exception):
    """Thrown into the flow by ``Race.halt`` to end the halted car's turn at once."""


@dataclass(frozen=True, slots=True)
class Placing:
    """One line of the classification (Masters 21; Dresden "Rennen")."""

    car: str
    driver: str
    position: int
    laps: int
    status: str
    grid: int
    points: int
    karma: int
    rule: str = ""
    reason_de: str = ""
    reason_en: str = ""


class Race:
    """One race. Create with ``Race.create`` (built-in track, preset ruleset, seeded dice) or
    pass the parts in; then answer ``pending`` with ``apply`` until ``finished``.

    ``turns`` counts the turns begun and ``turn_car`` names the car whose turn is under way
    ("" between turns), so a caller can tell the first question of a turn (FD Blitz clock).
    ``halted`` holds the cars stopped with ``halt``."""

    def __init__(
        self,
        config: RaceConfig,
        dice: Dice,
        *,
        track: Track | None = None,
        ruleset: Ruleset | None = None,
        commitment: str = "",
        state: RaceState | None = None,
        logs: tuple[Earlier[tuple[str, Decision]], Earlier[Event], bool] = ((), (), False),
    ) -> None:
        self.config = config
        self.track = track if track is not None else builtin_track(config.track)
        self.ruleset = ruleset if ruleset is not None else get_ruleset(config.ruleset)
        self._wrecks_stay = self.ruleset.wreck_removal is WreckRemoval.WHEN_PASSED
        self.laps = config.laps or self.ruleset.laps
        self.dice = dice
        self.commitment = commitment
        check_config(config, self.ruleset, len(self.track.grid), len(self.track.boxes))
        self._grid = grid_spaces(self.track, len(config.entries), config.side_by_side)
        self.entries = {e.id: e for e in config.entries}
        self.cars: dict[str, CarState] = {}
        self.info: dict[str, CarInfo] = {}
        self.grid_order: list[str] = []
        self.finish_order: list[str] = []
        self.dangerous: set[int] = set()
        self.weather = WeatherState(current=config.qualifying_weather)
        self._events: Log[Event] = Log()
        self._decisions: Log[tuple[str, Decision]] = Log()
        self.round = 0
        self.stopped = False
        self.halted: set[str] = set()
        self.turns = 0
        self.turn_car = ""
        self._seq = 0
        self._weather_rolls_due = 0
        self._restart_round = 0  # the round after a restart: played in race order
        self._t_cars_used: set[str] = set()
        self._cuts: dict[frozenset[int], bool] = {}  # track_cut by the set of wrecks
        grid_first = self.track.grid[0] if self.track.grid else 0
        self._offset = 1 if self.track.spaces[grid_first].height > self.track.lap_rows / 2 else 0
        self._requests: tuple[MoveRequest, ...] = ()  # behind the open move question
        self._chosen: MoveOption | None = None  # the option of the accepted move answer
        self._answers: dict[str, Decision] = {}  # of the open batch, by car
        self.rules: list[tuple[int, int]] = [(0, rules_version.RULES_VERSION)]
        """(first round, rules version): the rules each stretch of the race was played under."""
        self.keep_boundaries = False
        """When set, the state at every round boundary is kept for ``take_boundaries``."""
        self._boundaries: list[RaceState] = []
        self._proc = self._run() if state is None else self._resumed(state, logs)
        self._open: tuple[Question, ...] = ()
        self._batch = False  # the open questions are asked at once (a tuple from the flow)
        with contextlib.suppress(StopIteration):  # resumed at the last boundary: over at once
            self._open_now(next(self._proc))

    @classmethod
    def create(cls, config: RaceConfig, seed: int | str) -> Race:
        """A race on a built-in track with a preset ruleset and dice seeded by ``seed``."""
        return cls(config, Dice.from_seed(seed), commitment=commit(seed))

    @classmethod
    def resume(
        cls,
        state: RaceState,
        *,
        track: Track | None = None,
        decisions: Earlier[tuple[str, Decision]] = (),
        events: Earlier[Event] = (),
        rolls: Earlier[DiceRoll] = (),
        keep_boundaries: bool = False,
    ) -> Race:
        """The race continued from ``state``, a round boundary (``take_boundaries``): it goes on
        bit for bit as the race it was taken from, under the rules of this program (a state from
        older rules starts a new stretch in ``rules``). The logs up to the boundary (decisions,
        events, rolls) belong to the race: their lengths must be the state's; each may be given
        as a callable that reads it when it is first needed (``race_log.Log``: a race rebuilt
        from the store plays on without reading its older events)."""
        dice = Dice.resumed(state.rng, Log(rolls, state.rolls))
        return cls(
            state.config,
            dice,
            track=track,
            commitment=state.commitment,
            state=state,
            logs=(decisions, events, keep_boundaries),
        )

    def take_boundaries(self) -> list[RaceState]:
        """The states at the round boundaries passed since the last call (``keep_boundaries``
        on), oldest first: the store keeps one per round (``race_state.py``)."""
        taken, self._boundaries = self._boundaries, []
        return taken

    # --- public API ---------------------------------------------------------------------

    @property
    def version(self) -> int:
        """The number of decisions applied so far (halts and answers of an open batch
        included): an answer made against another version is stale (``StaleVersion``)."""
        return len(self._decisions)

    @property
    def events(self) -> list[Event]:
        """Everything that happened so far, in order (``events.py``)."""
        return self._events.items()

    def events_since(self, start: int) -> list[Event]:
        """The events from number ``start`` (0-based) on, without reading older ones that a
        resumed race has not read yet."""
        return self._events.since(start)

    @property
    def decisions(self) -> list[tuple[str, Decision]]:
        """Every decision applied so far with its car, halts included, in order."""
        return self._decisions.items()

    @property
    def pending(self) -> Question | None:
        """The first open question, or None when the race is over. With several questions
        open at once (setups, bids) it is the first not yet answered in the rules' order."""
        for question in self._open:
            if question.car not in self._answers:
                return question
        return None

    def questions(self) -> list[Question]:
        """Every open question not yet answered, in the rules' order; each names its car."""
        return [q for q in self._open if q.car not in self._answers]

    @property
    def finished(self) -> bool:
        return not self._open

    def open_answers(self) -> dict[str, Decision]:
        """The answers to the open simultaneous questions that wait for the others, by car:
        secret until all are in (``view`` shows each driver only his own)."""
        return dict(self._answers)

    def view(self, car: str | None = None) -> RaceView:
        """What ``car``'s driver may know now, or with None what the spectators see
        (``race_view.py``); ``view(car).to_json()`` is its JSON form."""
        if car is not None and car not in self.cars:
            raise DecisionError(f"unbekanntes Auto {car!r}", f"unknown car {car!r}", "car")
        return view_of(self, car)

    def legal_decisions(self, car: str | None = None) -> list[Decision]:
        """The decisions the open question of ``car`` (default: ``pending``) accepts. Setups,
        pit plans and move paths are open sets: the list holds the standard setup per tyre,
        every plan worth listing and the generator's paths; ``apply`` accepts any setup the
        ruleset allows and any path the driving rules allow."""
        ask = self._question(car) if car is not None else self.pending
        if ask is None:
            return []
        if isinstance(ask, SetupQuestion):
            return [SetupChoice(ask.fixed or ask.suggested, tyre) for tyre in Tyre]
        if isinstance(ask, BoxQuestion):
            return [BoxChoice(b) for b in ask.boxes]
        if isinstance(ask, MoveQuestion):
            return [MoveChoice(o.path) for o in ask.moves]
        if isinstance(ask, KarmaQuestion):
            return [KarmaChoice(a) for a in ask.karma_actions]
        if isinstance(ask, BidQuestion):
            return [BidChoice(k) for k in range(ask.karma + 1)]
        if isinstance(ask, PitQuestion):
            plans = all_plans(self.ruleset, self.cars[ask.car], self.info[ask.car].start_wear)
            return [PitChoice(p) for p in plans]
        found: list[Decision] = []
        for gear in ask.gears:
            for boost in (False, True) if ask.boost else (False,):
                for soft in (False, True) if ask.soft_bonus else (False,):
                    for launch in (True, False) if ask.launch_optional else (True,):
                        found.append(TurnChoice(gear, boost, soft, launch))
        return found

    def check(self, decision: Decision, *, car: str | None = None) -> None:
        """Raise ``DecisionError`` naming the rule or field if ``apply`` would refuse this
        answer now; change nothing."""
        if isinstance(decision, Halt):
            return
        self._validate(self._asked(car), decision)
        self._chosen = None

    def apply(
        self, decision: Decision, *, car: str | None = None, expected_version: int | None = None
    ) -> None:
        """Answer the open question of ``car`` (default: ``pending``'s car). Answers to
        simultaneous questions come in any order; the race goes on when all are in, in the
        rules' order. With ``expected_version`` the answer must have been made against this
        version (else ``StaleVersion``). An illegal answer raises ``DecisionError`` naming the
        rule or field; a refused answer leaves the race unchanged."""
        if expected_version is not None and expected_version != self.version:
            raise StaleVersion(expected_version, self.version)
        if isinstance(decision, Halt):
            asked = self.pending
            if asked is None:
                raise DecisionError("das Rennen ist vorbei", "the race is over", "race")
            self.halt(asked.car if car is None else car)
            return
        ask = self._asked(car)
        self._validate(ask, decision)
        self._decisions.append((ask.car, decision))
        if not self._batch:
            self._send(decision)
            return
        self._answers[ask.car] = decision
        if all(q.car in self._answers for q in self._open):
            self._send(dict(self._answers))

    def _asked(self, car: str | None) -> Question:
        """The open, unanswered question of ``car`` (default: ``pending``)."""
        if self.finished:
            raise DecisionError("das Rennen ist vorbei", "the race is over", "race")
        ask = self.pending if car is None else self._question(car)
        if ask is None:
            assert car is not None
            if car not in self.cars:
                raise DecisionError(f"unbekanntes Auto {car!r}", f"unknown car {car!r}", "car")
            raise DecisionError(
                f"an {self.driver(car)} ist jetzt keine Frage offen",
                f"no question is open for {self.driver(car)} now",
                "car",
            )
        return ask

    def _question(self, car: str) -> Question | None:
        return next((q for q in self.questions() if q.car == car), None)

    def _open_now(self, asked: Question | tuple[Question, ...]) -> None:
        self._batch = isinstance(asked, tuple)
        self._open = asked if isinstance(asked, tuple) else (asked,)
        self._answers = {}
        if self._batch and not self._open:  # nobody left to ask
            self._send({})

    def _send(self, answer: Answer) -> None:
        try:
            self._open_now(self._proc.send(answer))
        except StopIteration:
            self._open = ()
            self._answers = {}

    def halt(self, car: str) -> None:
        """Stop ``car`` for the rest of the race: it makes no more turns and stands where it is,
        an obstacle like any car (Dresden "FD Blitz": a player whose time is up "muß sofort
        seinen Zug beenden. Das Auto bleibt dort stehen, wo es gerade steht"). If the car's own
        gear, move or pit question is pending, its turn ends there: what is rolled stays rolled,
        the rest is not done. A secret bid not yet made is dropped (no bid); any other open
        question of the car is answered first. The halt is kept among the decisions, so the
        record replays it at the same moment."""
        if self.finished:
            raise DecisionError("das Rennen ist vorbei", "the race is over", "race")
        if car not in self.cars:
            raise DecisionError(f"unbekanntes Auto {car!r}", f"unknown car {car!r}", "halt")
        if self.round == 0:
            raise DecisionError(
                "vor dem Start hält kein Auto an",
                "no car can be halted before the start",
                "Dresden FD Blitz",
            )
        if car in self.halted or self.cars[car].status not in RACING:
            raise DecisionError(
                f"{self.driver(car)} fährt nicht mehr",
                f"{self.driver(car)} is no longer moving",
                "Dresden FD Blitz",
            )
        own = self._question(car)
        batch = self._batch
        cut = own is not None and not batch
        if own is not None and not batch and own.kind not in _CUT_SHORT:
            raise DecisionError(
                "erst die offene Frage beantworten",
                "answer the pending question first",
                f"race.{car}",
            )
        self.halted.add(car)
        self._decisions.append((car, Halt()))
        self._emit(EventKind.HALTED, car, rule="Dresden FD Blitz")
        if own is not None and batch:
            self._open = tuple(q for q in self._open if q.car != car)
            if all(q.car in self._answers for q in self._open):
                self._send(dict(self._answers))
        elif cut:
            try:
                self._open_now(self._proc.throw(_TurnCut()))
            except StopIteration:
                self._open = ()

    def to_position(self, to_move: str = "") -> Position:
        """This moment in the position notation of the movement layer."""
        ask = self.pending
        if not to_move and ask is not None:
            to_move = ask.car
        return Position(
            track=self.track,
            track_ref=self.config.track,
            ruleset=self.ruleset,
            weather=self.weather.current,
            cars=tuple(self.cars[c] for c in self.grid_order),
            dangerous=frozenset(self.dangerous),
            to_move=to_move,
            laps=self.laps,
            round=self.round,
        )

    def driver(self, car: str) -> str:
        return self.entries[car].driver

    @property
    def karma_moves(self) -> list[KarmaMove]:
        """Every karma movement so far, from the karma events (``race_ledger``)."""
        return karma_moves(self.events)

    @property
    def orders(self) -> list[PlayOrder]:
        """Every round's order of play so far, as car ids, from the round events."""
        return play_orders(self.events)

    def driver_names(self) -> dict[str, str]:
        """Car id -> driver name, for rendering events (``event_text.render``)."""
        return {car: entry.driver for car, entry in self.entries.items()}

    def laps_done(self, car: str) -> int:
        """Laps completed (the first crossing from a grid behind the line is the start)."""
        return max(self.info[car].crossings - self._offset, 0)

    def progress_of(self, car: str) -> float:
        """Distance along the race in rows: completed laps and the height of the car's space,
        a car in the pit lane over the line on its new lap (the order of play places pit-lane
        cars by their entry instead, ``race_order``; Masters 19-5)."""
        state = self.cars[car]
        return progress(self.track, state.space, self.info[car].crossings - self._offset)

    def classification(self) -> list[Placing]:
        """Finishers by laps completed and then in the order they crossed the line (a lapped
        car finishes a lap or more short, rule decision "The end of the race for lapped cars"),
        then the rest by laps and distance."""
        home = sorted(self.finish_order, key=lambda c: -self.laps_done(c))  # stable: crossing
        rest = [c for c in self.grid_order if c not in self.finish_order]
        rest.sort(key=lambda c: (-self.laps_done(c), -self._distance(c), self.info[c].grid))
        table = self.ruleset.points_table
        placings = []
        for n, car in enumerate([*home, *rest], start=1):
            info = self.info[car]
            finished = car in self.finish_order
            laps = self.laps_done(car) if info.retirement is None else info.retired_laps
            status = "finished" if finished else "retired" if info.retirement else "running"
            # Dresden Rennen: points only from two complete laps, for lapped finishers too
            scores = (finished and laps >= self.laps) or laps >= self.ruleset.points_min_laps
            points = table[n - 1] if scores and n <= len(table) else 0
            reason = info.retirement
            placings.append(
                Placing(
                    car=car,
                    driver=self.driver(car),
                    position=n,
                    laps=laps,
                    status=status,
                    grid=info.grid,
                    points=points,
                    karma=info.karma,
                    rule=rule_of(reason, self.ruleset.blocking_cites_masters) if reason else "",
                    reason_de=reason.text_de if reason else "",
                    reason_en=reason.text_en if reason else "",
                )
            )
        return placings

    def _distance(self, car: str) -> float:
        info = self.info[car]
        return info.final_progress if info.retirement else self.progress_of(car)

    # --- validation ---------------------------------------------------------------------

    def _validate(self, ask: Question, decision: Decision) -> None:
        self._chosen = None
        rule = {
            AskKind.SETUP: SetupChoice,
            AskKind.BOX: BoxChoice,
            AskKind.TURN: TurnChoice,
            AskKind.MOVE: MoveChoice,
            AskKind.PIT: PitChoice,
            AskKind.KARMA: KarmaChoice,
            AskKind.BID: BidChoice,
        }[ask.kind]
        if not isinstance(decision, rule):
            raise DecisionError(
                f"erwartet wird eine Entscheidung der Art {ask.kind.value}",
                f"a decision of kind {ask.kind.value} is expected",
                f"race.{ask.car}",
            )
        if isinstance(ask, SetupQuestion) and isinstance(decision, SetupChoice):
            try:
                decision.wear.validate_setup(
                    total=ask.points,
                    box_max=ask.box_max,
                    area_minimum=ask.area_minimum,
                    fixed=ask.fixed,
                )
            except RennleitungError as error:
                raise DecisionError(error.de, error.en, error.where or "setup") from None
        elif isinstance(ask, BoxQuestion) and isinstance(decision, BoxChoice):
            if decision.box not in ask.boxes:
                raise DecisionError(
                    f"Box {decision.box} ist nicht frei",
                    f"box {decision.box} is not free",
                    "Dresden Rennen",
                )
        elif isinstance(ask, TurnQuestion) and isinstance(decision, TurnChoice):
            self._validate_turn(ask, decision)
        elif isinstance(ask, MoveQuestion) and isinstance(decision, MoveChoice):
            self._chosen = self._move_option(ask, decision.path)
        elif isinstance(ask, BidQuestion) and isinstance(decision, BidChoice):
            if not 0 <= decision.karma <= ask.karma:
                raise DecisionError(
                    f"Gebot zwischen 0 und {ask.karma} Karma",
                    f"a bid between 0 and {ask.karma} karma",
                    "Dresden Kopf an Kopf",
                )
        elif isinstance(decision, PitChoice):
            car = self.cars[ask.car]
            check_plan(self.ruleset, car, self.info[ask.car].start_wear, decision.plan)
        elif (
            isinstance(ask, KarmaQuestion)
            and isinstance(decision, KarmaChoice)
            and decision.action not in ask.karma_actions
        ):
            raise DecisionError(
                "nicht genug Karma dafür", "not enough karma for that", "Dresden Karmapool"
            )

    def _move_option(self, ask: MoveQuestion, path: tuple[int, ...]) -> MoveOption:
        """The option a path stands for: the offered one with this path, else any path the
        literal rules accept (``movecheck.check_move``) at its cost; a path that breaks a rule
        is refused with the first rule it breaks (Masters 7, 11, 12, 18, 19)."""
        offered = next((o for o in ask.moves if o.path == path), None)
        if offered is not None:
            return offered
        first: RennleitungError | None = None
        for request in self._requests:
            try:
                return check_move(self.track, request, path)[0]
            except RennleitungError as error:
                first = first or error
        assert first is not None  # a move question always has its request
        raise DecisionError(first.de, first.en, first.where)

    def _validate_turn(self, ask: TurnQuestion, choice: TurnChoice) -> None:
        if choice.gear not in ask.gears:
            allowed = ", ".join(map(str, ask.gears))
            raise DecisionError(
                f"Gang {choice.gear} nicht erlaubt (möglich: {allowed})",
                f"gear {choice.gear} not allowed (possible: {allowed})",
                "Dresden Auto; Masters 6-2, 13",
            )
        if choice.boost and not ask.boost:
            raise DecisionError(
                "Motor-Boost nicht erlaubt (nicht mit dem letzten Motorpunkt)",
                "engine boost not allowed (not with the last engine point)",
                "Dresden Verschleiß",
            )
        if choice.soft_bonus and not ask.soft_bonus:
            raise DecisionError(
                "der Weichreifen-Bonus gilt nur in der ersten Runde des Satzes bei Sonne",
                "the soft-tyre bonus only applies on the set's first lap in sunshine",
                "Dresden Reifen",
            )
        if not choice.launch and not ask.launch_optional:
            raise DecisionError(
                "der Startbonus des Profils ist hier nicht wählbar",
                "the profile's launch bonus is not optional here",
                "Dresden Fahrerprofile",
            )
        if choice.pit is not None:
            if not ask.pit_plans:
                raise DecisionError(
                    "jetzt ist keine Boxenansage möglich",
                    "no pit announcement possible now",
                    "Dresden Boxenstopp",
                )
            car = self.cars[ask.car]
            check_plan(self.ruleset, car, self.info[ask.car].start_wear, choice.pit)

    # --- small helpers ------------------------------------------------------------------

    def _emit(self, kind: EventKind, car: str = "", **data: JsonValue) -> None:
        if car:
            data = {"driver": self.driver(car), **data}
        self._events.append(make_event(len(self._events) + 1, self.round, kind, car, data))

    def _karma(self, car: str, change: int, reason: KarmaReason) -> None:
        """Tell a karma movement (the car's karma already changed); the league reads it from
        the event's data (``race_ledger.karma_moves``)."""
        self._emit(
            EventKind.KARMA, car, change=change, reason=reason.value, karma=self.info[car].karma
        )

    def _black(self, purpose: str, car: str) -> int:
        """A black-die roll by ``car``: the dice history (and so the record) names who rolled."""
        return self.dice.black(purpose, car).result

    def _set(self, car: str, **changes: object) -> CarState:
        state = replace(self.cars[car], **changes)  # type: ignore[arg-type]
        self.cars[car] = state
        return state

    def _name(self, space: int) -> str:
        return self.track.name_of(space)

    def _in_pit_lane(self, car: str) -> bool:
        return self.track.spaces[self.cars[car].space].kind is not SpaceKind.TRACK

    def _rain(self) -> bool:
        return self.weather.current is Weather.RAIN

    def _mark(self, space: int, cause: Cause) -> None:
        """A dangerous space (Masters 17-0-1; Dresden Verschleiß); never in the pit lane."""
        if self.track.spaces[space].kind is not SpaceKind.TRACK or space in self.dangerous:
            return
        self.dangerous.add(space)
        self._emit(EventKind.DANGEROUS, space=self._name(space), reason=cause.value)

    def _car_at(self, space: int) -> str | None:
        for car, state in self.cars.items():
            if state.space == space and state.status.on_track:
                return car
        return None

    # --- the race -----------------------------------------------------------------------

    def _run(self) -> Flow:
        cfg = self.config
        self._emit(
            EventKind.CREATED,
            track=cfg.track,
            ruleset=self.ruleset.name,
            laps=self.laps,
            commitment=self.commitment or "-",
        )
        yield from self._setup()
        yield from self._rounds()

    def _rounds(self, resumed: bool = False) -> Flow:
        """Round after round until no car is left moving: the top of this loop is a round
        boundary, where the whole race is its ``RaceState`` (a race ``resumed`` there does not
        hand out the boundary it came from again)."""
        cfg = self.config
        while True:
            if self.keep_boundaries and not resumed:
                self._boundaries.append(self._boundary())
            resumed = False
            if not any(s.status in RACING and c not in self.halted for c, s in self.cars.items()):
                break
            if self.round >= cfg.max_rounds:
                self.stopped = True
                self._emit(EventKind.STOPPED, rounds=self.round)
                break
            self.round += 1
            self._weather_rolls_due = 0
            bids = yield from self._head_to_head()
            yield from self._round_of_play(bids)
            yield from self._end_of_round()
        self._end_of_race()

    def _boundary(self) -> RaceState:
        """This round boundary as a value (copies: the race goes on changing its own)."""
        return RaceState(
            config=self.config,
            commitment=self.commitment,
            round=self.round,
            version=len(self._decisions),
            events=len(self._events),
            rolls=len(self.dice),
            rng=self.dice.stream_state(),
            weather=self.weather,
            cars=tuple(self.cars[c] for c in self.grid_order),
            info=tuple(self.info[c].copy() for c in self.grid_order),
            finish_order=tuple(self.finish_order),
            dangerous=frozenset(self.dangerous),
            halted=frozenset(self.halted),
            stopped=self.stopped,
            turns=self.turns,
            arrivals=self._seq,
            t_cars_used=frozenset(self._t_cars_used),
            restart_round=self._restart_round,
            rules=tuple(self.rules),
        )

    def _resumed(
        self,
        state: RaceState,
        logs: tuple[Earlier[tuple[str, Decision]], Earlier[Event], bool],
    ) -> Flow:
        """The flow from the boundary ``state`` on (``resume``)."""
        decisions, events, self.keep_boundaries = logs
        self._decisions = Log(decisions, state.version)
        self._events = Log(events, state.events)
        given = (len(self._decisions), len(self._events), len(self.dice))
        if given != (state.version, state.events, state.rolls):
            raise DecisionError(
                f"die Protokolle (Entscheidungen, Ereignisse, Würfe {given}) passen nicht zum "
                f"Stand des Rennens ({state.version}, {state.events}, {state.rolls})",
                f"the logs (decisions, events, rolls {given}) do not fit the race's state "
                f"({state.version}, {state.events}, {state.rolls})",
                "state",
            )
        self.round = state.round
        self._restart_round = state.restart_round
        self.grid_order = [c.id for c in state.cars]
        self.cars = {c.id: c for c in state.cars}
        self.info = {c.id: i.copy() for c, i in zip(state.cars, state.info, strict=True)}
        self.finish_order = list(state.finish_order)
        self.dangerous = set(state.dangerous)
        self.weather = state.weather
        self.halted = set(state.halted)
        self.stopped = state.stopped
        self.turns = state.turns
        self._seq = state.arrivals
        self._t_cars_used = set(state.t_cars_used)
        self.rules = list(state.rules) or [(0, 1)]
        now = rules_version.RULES_VERSION
        if self.rules[-1][1] != now:
            self.rules.append((state.round + 1, now))
        yield from self._rounds(resumed=True)

    def _round_of_play(self, bids: dict[str, int]) -> Flow:
        """One round of play (Masters 6-2-2 to 6-2-6): a sweep from the leader back round the
        lap. A car the leader passes in his move is lapped and misses the rest of the round; a
        lapped car that passes the leader again plays once more when the sweep reaches it."""
        items = self._order_items(bids)
        order, top = round_order(self.track, items)
        order = [c for c in order if c not in self.halted]
        self._emit(EventKind.ROUND, order=list(order))
        if not order:
            return
        leader = order_of_play(self.track, items)[0]
        bottom = top - self.track.lap_rows  # the sweep ends above this
        pending = list(order)
        while pending:
            car = pending.pop(0)
            here = self._order_item(car, bids)
            if car != leader and coordinate(self.track, here, top) <= bottom + 1e-6:
                self._emit(EventKind.ROUND_SKIPPED, car, rule="Masters 6-2-6")
                continue
            behind = laps_behind(self.track, here, top)
            self.turns += 1
            self.turn_car = car
            with contextlib.suppress(_TurnCut):  # Race.halt: the turn ends where it is
                yield from self._turn(car)
            self.turn_car = ""
            if self._blocked():
                yield from self._restart()
                return
            now = self._order_item(car, bids)
            if car == leader:
                bottom = -order_key(self.track, now)[0] - self.track.lap_rows
                continue
            again = laps_behind(self.track, now, top)
            if (
                0 <= again < behind
                and coordinate(self.track, now, top) > bottom + 1e-6
                and self.cars[car].status in RACING
                and car not in self.halted
            ):
                key = sweep_key(self.track, now, top)
                at = next(
                    (
                        n
                        for n, other in enumerate(pending)
                        if sweep_key(self.track, self._order_item(other, bids), top) > key
                    ),
                    len(pending),
                )
                pending.insert(at, car)
                self._emit(EventKind.ROUND_AGAIN, car, rule="Masters 6-2-6")

    def _order_item(self, car: str, bids: dict[str, int] | None = None) -> OrderItem:
        state = self.cars[car]
        return OrderItem(
            car=car,
            space=state.space,
            laps_base=self.info[car].crossings - self._offset,
            gear=state.gear,
            arrived=self.info[car].arrived,
            stalled=state.status is CarStatus.STALLED,
            bid=(bids or {}).get(car, 0),
        )

    def _order_items(self, bids: dict[str, int] | None = None) -> list[OrderItem]:
        return [
            self._order_item(c, bids)
            for c, s in self.cars.items()
            if s.status in RACING or (s.status is CarStatus.WRECK and not self._wrecks_stay)
        ]

    def _head_to_head(self) -> Generator[Question | tuple[Question, ...], Answer, dict[str, int]]:
        """Dresden "Kopf an Kopf": cars level with each other bid karma in secret; the bids
        are revealed together and spent, and the higher bid plays first."""
        rules = self.ruleset
        bids: dict[str, int] = {}
        if not (rules.head_to_head and rules.karma) or self.round == self._restart_round:
            return bids  # after a restart the field plays in race order (rule decision)
        if self.round == 1 and self.config.side_by_side:
            # Dresden FD Blitz, third heat: the die has decided who begins (grid slot 1);
            # head to head only from the next round on (rule decision)
            return bids
        items = [
            i
            for i in self._order_items()
            if self.cars[i.car].status in RACING and i.car not in self.halted
        ]
        for group in level_groups(self.track, items):
            if not any(self.info[c].karma > 0 for c in group):
                continue
            asked = tuple(
                BidQuestion(car, self.info[car].karma, tuple(c for c in group if c != car))
                for car in group
                if car not in self.halted
            )
            answers = yield asked
            assert isinstance(answers, dict)
            offers: dict[str, int] = {}
            for question in asked:  # the rules' order; a car halted meanwhile has no bid
                choice = answers.get(question.car)
                if choice is not None:
                    assert isinstance(choice, BidChoice)
                    offers[question.car] = choice.karma
            if not any(offers.values()):
                continue
            self._emit(
                EventKind.HEAD_TO_HEAD,
                bids=[{"car": c, "karma": k} for c, k in offers.items()],
            )
            for car, karma in offers.items():
                if karma:
                    self.info[car].karma -= karma
                    self._karma(car, -karma, KarmaReason.HEAD_TO_HEAD)
            bids.update(offers)
        return bids

    def _blocked(self) -> bool:
        """Dresden Neustart: wrecks make the track impassable for the cars still racing."""
        if not self.ruleset.restart_after_blockage:
            return False
        wrecks = frozenset(s.space for s in self.cars.values() if s.status is CarStatus.WRECK)
        if not wrecks:
            return False
        cut = self._cuts.get(wrecks)
        if cut is None:  # asked after every move; the wrecks rarely change between two moves
            cut = self._cuts[wrecks] = track_cut(self.track, wrecks)
        return cut

    def _restart(self) -> Flow:
        """Dresden Neustart: the race is stopped and restarted with every car still racing:
        from the grid if the leader has not reached the ``full_restart_before_corner``-th
        corner, else in a tight field in the middle of the next straight ahead of the leader,
        each driver free to pick a gear up to ``restart_max_gear``. Cars in the pit lane stay
        where they are; wrecks and cars rolling out with a failed engine are removed. A complete
        restart offers every driver already out a T-car on his original grid slot ("T-Cars
        dürfen auf die ursprüngliche Position der Fahrer gestellt werden"), one per team."""
        rules = self.ruleset
        for car, state in self.cars.items():
            if state.status is CarStatus.WRECK or (
                state.status in RACING and self.info[car].rolling_out is Retirement.ENGINE
            ):
                self.info[car].rolling_out = None
                if self.info[car].retirement is None:  # Masters 16-0-6 roll to the flag
                    self._retire(car, Retirement.ENGINE, wreck=False)
                else:
                    self._remove_wreck(car)
        order = [
            c
            for c in order_of_play(self.track, self._order_items())
            if self.cars[c].status in RACING and not self._in_pit_lane(c)
        ]
        if not order:
            return
        leader = order[0]
        full = self.laps_done(leader) == 0 and not self._reached(
            leader, rules.full_restart_before_corner
        )
        self._emit(EventKind.RESTART, full=full)
        # rule decision "Order after a restart" (Dresden Neustart, Fahrregeln): the first round
        # is played in race order, the leader first, so level cars tie by that order now
        self._restart_round = self.round + 1
        for car in order:
            self._seq += 1
            self.info[car].arrived = self._seq
        if full:
            for car in order:
                info = self.info[car]
                self._set(
                    car,
                    space=self._grid[info.grid - 1],
                    gear=0,
                    status=CarStatus.RUNNING,
                    corner_stops=0,
                    laps=0,
                )
                info.crossings = 0
                info.passes = []
                info.needs_start = True
                info.launch_pending = True
                info.next_gears = ()
            for car in self.grid_order:
                if self.info[car].retirement is not None and self._t_car_left(car):
                    yield from self._t_car(car, self._grid[self.info[car].grid - 1])
            return
        spots = restart_spots(self.track, self.cars[leader].space, len(order))
        gears = tuple(range(1, rules.restart_max_gear + 1))
        for car, spot in zip(order, spots, strict=False):
            info = self.info[car]
            old = self.cars[car].space
            self._neutral_passes(car, old, spot)
            if self.track.spaces[spot].height < self.track.spaces[old].height:
                info.crossings += 1
            self._set(
                car,
                space=spot,
                gear=0,
                status=CarStatus.RUNNING,
                corner_stops=0,
                laps=self.laps_done(car),
            )
            info.needs_start = False
            info.next_gears = gears
        for car in order[len(spots) :]:
            self._retire(car, Retirement.BLOCKED, wreck=False)  # no room left in the field

    def _reached(self, car: str, corner: int) -> bool:
        here = self.track.spaces[self.cars[car].space].corner
        return here >= corner or any(p.corner >= corner for p in self.info[car].passes)

    def _neutral_passes(self, car: str, old: int, new: int) -> None:
        """Corners a restart carries the car past count as passed (not as missed stops)."""
        track = self.track
        start = track.spaces[old].height
        end = track.spaces[new].height
        if end < start:
            end += track.lap_rows
        lap = self.laps_done(car)
        for corner in track.corners:
            begin = min(track.spaces[s].height for s in corner.spaces)
            if track.spaces[old].corner == corner.number or start < begin <= end:
                lap_of = lap
            elif start < begin + track.lap_rows <= end:
                lap_of = lap + 1  # beyond the line
            else:
                continue
            self.info[car].passes.append(
                CornerPass(lap_of, corner.number, 0, corner.stops, penalty=False, neutral=True)
            )

    def _t_car_left(self, car: str) -> bool:
        """Dresden "Ausfälle": one T-car per team and race, if the ruleset has T-cars."""
        if self.ruleset.t_car_points is None or car in self.halted:
            return False
        return self.entries[car].team_id not in self._t_cars_used

    def _t_car_allowed(self, car: str) -> bool:
        """Dresden "Ausfälle": out before the end of the first corner after the start, one
        T-car per team and race, from the team's box."""
        info = self.info[car]
        state = self.cars[car]
        if not self._t_car_left(car) or not state.box or not self.track.boxes:
            return False
        return self.laps_done(car) == 0 and not any(p.corner == 1 for p in info.passes)

    def _t_car(self, car: str, grid_slot: int | None = None) -> Flow:
        """The T-car: from the team's box in 1st gear (Dresden "Ausfälle"), or after a
        complete restart on the driver's grid slot with a start roll like everyone (Dresden
        "Neustart")."""
        state = self.cars[car]
        box_space = self.track.boxes[state.box - 1] if grid_slot is None else grid_slot
        if self._car_at(box_space) is not None:
            return  # the box is taken: no T-car now
        points = self.ruleset.t_car_points or 0
        choice = yield SetupQuestion(
            car,
            points=points,
            box_max=self.ruleset.box_max,
            area_minimum=self.ruleset.area_minimum,
            suggested=T_CAR_SETUP,
            t_car=True,
        )
        assert isinstance(choice, SetupChoice)
        self._t_cars_used.add(self.entries[car].team_id)
        if state.status is CarStatus.WRECK:
            self._remove_wreck(car)  # our decision: the T-car replaces the wreck at once
        self.cars[car] = replace(
            state,
            space=box_space,
            gear=0,
            wear=choice.wear,
            tyre=choice.tyre,
            tyre_laps=0,
            status=CarStatus.RUNNING,
            corner_stops=0,
            laps=0,
        )
        info = self.info[car]
        info.retirement = None
        info.retired_laps = 0
        info.crossings = 0
        info.needs_start = grid_slot is not None
        info.next_gears = () if grid_slot is not None else (1,)
        info.launch_pending = True
        info.rolling_out = None
        info.inertia = False
        info.passes = []
        info.start_wear = choice.wear
        info.t_car_pending = False
        info.fresh_tyres = True  # Masters 8-4-1: see _tyre_age
        self._emit(EventKind.T_CAR, car, points=points, box=state.box, space=self._name(box_space))

    def _setup(self) -> Flow:
        """Grid, weather, setups and boxes (Dresden "Rennen", "Qualifizierung", "Wetter").
        The ruleset's ``pre_race_order`` says whether the setups (Dresden "Rennen": "Dann stellt
        jeder Fahrer sich ein Setup ... Jede Mannschaft wählt ... eine Box") or the pits (Masters
        4-0-1: "Before each player configures his car, he must choose a pit") come first."""
        cfg = self.config
        qualified = [c for c in cfg.qualifying]
        others = [e.id for e in cfg.entries if e.id not in qualified]
        draws: dict[str, list[int]] = {}

        def draw(car: str) -> int:
            result = self._black(RollPurpose.GRID_DRAW, car)
            draws.setdefault(car, []).append(result)
            return result

        order = draw_grid(qualified, others, draw)
        self.grid_order = order
        for slot, car in enumerate(order, start=1):
            entry = self.entries[car]
            karma = self.ruleset.karma_start if entry.karma is None else entry.karma
            self.info[car] = CarInfo(grid=slot, karma=karma if self.ruleset.karma else 0)
            self.cars[car] = CarState(
                id=car,
                space=self._grid[slot - 1],
                profile=entry.profile,
                name=entry.name,
                team=entry.team,
            )
            qualified_car = car in qualified
            self._emit(
                EventKind.GRID,
                car,
                grid=slot,
                how="qualifying" if qualified_car else "drawn",
                draws=list(draws.get(car, [])),  # every roll is in the log (Dresden Qualif.)
            )
        pole = order[0]
        result = self._black(RollPurpose.WEATHER, pole)
        roll = self.track.weather.weather_for(result)
        self.weather = WeatherState.at_race_start(roll, cfg.qualifying_weather)
        self._emit_weather(result, roll, pole)
        if (cfg.pre_race_order or self.ruleset.pre_race_order) is PreRaceOrder.BOXES_FIRST:
            yield from self._choose_boxes(order)
            yield from self._choose_setups(order)
        else:
            yield from self._choose_setups(order)
            yield from self._choose_boxes(order)

    def _choose_setups(self, order: list[str]) -> Flow:
        """Dresden "Rennen"; Masters 5: each driver's setup and tyres, in grid order."""
        rules = self.ruleset
        asked = tuple(
            SetupQuestion(
                car,
                points=rules.setup_points,
                box_max=rules.box_max,
                area_minimum=rules.area_minimum,
                suggested=rules.fixed_setup or STANDARD_SETUP,
                fixed=rules.fixed_setup,
            )
            for car in order
        )
        answers = yield asked
        assert isinstance(answers, dict)
        for car in order:  # in grid order, whatever order the answers came in
            choice = answers[car]
            assert isinstance(choice, SetupChoice)
            self._set(car, wear=choice.wear, tyre=choice.tyre)
            self.info[car].start_wear = choice.wear
            self._emit(EventKind.SETUP, car, tyre=choice.tyre.value, wear=choice.wear.as_dict())

    def _choose_boxes(self, order: list[str]) -> Flow:
        """Dresden "Rennen": one box per team, in the order of its best-placed driver (Masters
        4-0-1: in grid order, pole first); Dresden Open "Rennen" (``box_per_driver``): "Jeder
        Fahrer wählt entsprechend Platzierung ... eine Box", so every driver chooses his own."""
        if not self.track.boxes:
            return
        teams: dict[str, list[str]] = {}
        for car in order:
            key = car if self.ruleset.box_per_driver else self.entries[car].team_id
            teams.setdefault(key, []).append(car)
        free = list(range(1, len(self.track.boxes) + 1))
        for members in teams.values():
            choice = yield BoxQuestion(members[0], tuple(free), tuple(members))
            assert isinstance(choice, BoxChoice)
            free.remove(choice.box)
            for car in members:
                self._set(car, box=choice.box)
                self._emit(EventKind.BOX, car, box=choice.box)

    def _emit_weather(self, result: int, roll: WeatherRoll, car: str) -> None:
        """The weather roll, naming the driver who rolled it (the pole sitter, later the
        leader)."""
        current = self.weather.current
        self._emit(
            EventKind.WEATHER,
            car,
            result=result,
            roll=roll.value,
            weather=current.value,
            settled=self.weather.settled,
        )

    # --- one turn -----------------------------------------------------------------------

    def _turn(self, car: str) -> Flow:
        state = self.cars[car]
        info = self.info[car]
        if state.status is CarStatus.WRECK:
            if not self._wrecks_stay:
                self._remove_wreck(car)  # Masters 14-2, 20-3-2: removed at its next turn
            return
        if state.status not in RACING or car in self.halted:
            return  # a halted car stands still (Dresden FD Blitz)
        if state.status is CarStatus.IN_PIT:
            yield from self._pit_turn(car)
            return
        if info.rolling_out is not None:
            yield from self._rollout_turn(car)
            return
        forced: tuple[int, ...] = ()
        if state.status is CarStatus.STALLED:
            self._set(car, status=CarStatus.RUNNING)
            forced = (1,)  # Dresden Startwurf; Masters 9-1-1: next round in 1st, no new roll
        elif info.needs_start:
            purpose = RollPurpose.START if self.round == 1 else RollPurpose.RESTART
            result = self._black(purpose, car)
            outcome = self.ruleset.start_outcome(result)
            info.needs_start = False
            self._emit(
                EventKind.START_ROLL,
                car,
                result=result,
                outcome=outcome.value,
            )
            if outcome is StartOutcome.STALL:
                self._set(car, status=CarStatus.STALLED, gear=0)
                self._emit(EventKind.STALLED, car)
                return
            self._set(car, status=CarStatus.RUNNING)
            if outcome is StartOutcome.SUPER_START:
                yield from self._super_start(car, restart=purpose is RollPurpose.RESTART)
                return
            forced = (1,)
        if info.next_gears:
            forced, info.next_gears = info.next_gears, ()
        yield from self._gear_turn(car, forced)

    def _super_start(self, car: str, restart: bool) -> Flow:
        """Dresden Startwurf, Masters 9-2: four spaces at once; 1st or 2nd next (Masters: 2nd
        after the race start, 1st or 2nd after a spin, 10-4-6)."""
        spaces = self.ruleset.super_start_spaces
        self._emit(EventKind.SUPER_START, car, spaces=spaces)
        ask = self._turn_ask(car, (1,), boost_ok=False)
        choice = yield ask
        assert isinstance(choice, TurnChoice)
        self._set(car, gear=1)
        yield from self._move(car, 1, spaces, choice)
        self.info[car].next_gears = (1, 2) if restart else self.ruleset.super_start_next_gears

    def _turn_ask(
        self, car: str, gears: tuple[int, ...], boost_ok: bool = True
    ) -> TurnQuestion:
        state = self.cars[car]
        info = self.info[car]
        tyre = self.ruleset.tyre(state.tyre)
        effects = state.profile.effects_at(in_pit_lane=self._in_pit_lane(car))
        return TurnQuestion(
            car,
            gears=gears,
            gear=state.gear,
            boost=boost_ok and self.ruleset.engine_boost and state.wear[WearArea.ENGINE] > 1,
            soft_bonus=tyre.movement_bonus(self.weather.current, state.set_lap) > 0,
            launch_optional=info.launch_pending and effects.launch_optional,
            pit_plans=self._pit_reachable(car),
        )

    def _pit_reachable(self, car: str) -> bool:
        """Whether a Dresden pit announcement makes sense now: the pit is open to this car and
        its box could be reached this move (pit lane, or the straight before the entry)."""
        state = self.cars[car]
        pit = self.track.pit
        if self.ruleset.pit_system is not PitSystem.POINTS or pit is None or not state.box:
            return False
        if not self.ruleset.pit_lane_open(self.laps_done(car), self.laps):
            return False
        here = self.track.spaces[state.space]
        if here.kind is not SpaceKind.TRACK:
            return True
        limit = self.track.spaces[pit.entry_limit].height
        return 0 <= limit - here.height <= 40

    def _gear_turn(self, car: str, forced: tuple[int, ...]) -> Flow:
        """Masters 6-3 steps 1–4 and the rest of the move."""
        state = self.cars[car]
        max_gear = None
        if self.track.spaces[state.space].kind is not SpaceKind.TRACK:
            # Dresden Boxenstopp: at most 4th in the pit lane, the box included (a car that
            # left its box with 0 spaces still stands in it)
            max_gear = self.ruleset.pit_lane_max_gear
        gears = forced or legal_gears(self.ruleset, state.gear, state.wear, max_gear)
        choice = yield self._turn_ask(car, gears)
        assert isinstance(choice, TurnChoice)
        if choice.pit is not None:
            self.info[car].pit_plan = choice.pit
            self._emit(EventKind.PIT_ANNOUNCE, car, plan=plan_to_data(choice.pit))
        gear = choice.gear
        skipped = 0 if forced else gears_skipped(state.gear, gear)
        if skipped:
            cost = skip_cost(self.ruleset, state.gear, gear)
            wear = state.wear
            for area, points in cost.items():
                wear = wear.spend(area, points)
            self._set(car, wear=wear)
            self._emit(
                EventKind.SKIP_COST,
                car,
                skipped=skipped,
                cost={a.value: p for a, p in cost.items()},
            )
            if skipped >= 3 and self.ruleset.skip_three_marks_danger:
                self._mark(state.space, Cause.THREE_GEARS_SKIPPED)
        self._set(car, gear=gear)
        if skipped and self.cars[car].wear[WearArea.ENGINE] == 0:
            # Masters 16-0-3-1: the engine goes after the shift, so the car is judged in the
            # gear it shifted into ("over-revving with loss of the last engine": no inertia
            # from 4th or lower); Dresden Ausfälle: it rolls out from the next gear below that.
            self._engine_failed(car)
            return
        result = self._gear_roll(car, gear)
        yield from self._move(car, gear, result, choice)
        if self.ruleset.is_engine_trigger(gear, result):
            yield from self._engine_tests()

    def _gear_roll(self, car: str, gear: int) -> int:
        """Roll the gear's die; a 20 in 5th or 30 in 6th asks for a weather roll at the end of
        the round (Masters 3-2-4, Dresden "Wetter"), whoever rolled it, rolling out included."""
        result = self.dice.gear(gear, car=car).result
        self._emit(EventKind.ROLL, car, gear=gear, result=result)
        if (gear, result) in self.ruleset.weather_reroll_trigger:
            if self.ruleset.weather_reroll_at_once:
                self._weather_roll(car)  # Dresden Open Wetter: right away, before the move
            else:
                self._weather_rolls_due += 1
        return result

    # --- moving -------------------------------------------------------------------------

    def _launch_extra(self, car: str, use: bool) -> int:
        """Theoretiker −1 / Praktiker +1 (optional) at the start, out of the box and after a
        spin (Dresden "Fahrerprofile")."""
        info = self.info[car]
        if not info.launch_pending:
            return 0
        info.launch_pending = False
        effects = self.cars[car].profile.effects_at(in_pit_lane=self._in_pit_lane(car))
        if effects.launch_optional and not use:
            return 0
        return effects.launch

    def _options(self, car: str, roll: int, choices: Choices) -> list[MoveOption]:
        """The generator's options; the request is kept so that a person's answer may take
        any other path the rules allow (``_move_option``)."""
        request = request_for(self.to_position(car), car, roll, choices)
        self._requests = (request,)
        return generate_moves(self.track, request)

    def _move(self, car: str, gear: int, roll: int, choice: TurnChoice) -> Flow:
        extra = self._launch_extra(car, choice.launch)
        options = self._options(
            car,
            roll,
            Choices(gear=gear, boost=choice.boost, soft_bonus=choice.soft_bonus, extra=extra),
        )
        if choice.boost:
            state = self.cars[car]
            self._set(car, wear=state.wear.spend(WearArea.ENGINE, 1))
            self._emit(EventKind.BOOST, car, gear=gear)
            self._mark(state.space, Cause.ENGINE_BOOST)
        option = yield from self._choose(car, options, roll)
        if option is not None:
            yield from self._apply_option(car, option)

    def _choose(
        self, car: str, options: list[MoveOption], roll: int
    ) -> Generator[Question | tuple[Question, ...], Answer, MoveOption | None]:
        if not options:
            self._emit(EventKind.NO_MOVE, car, space=self._name(self.cars[car].space))
            return None
        if len(options) == 1:
            return options[0]
        occupants = tuple(
            (s.space, c) for c, s in reversed(self.cars.items()) if s.status.on_track
        )
        choice = yield MoveQuestion(
            car, tuple(options), roll, self.track, occupants, self.ruleset.fuel_per_lap
        )
        assert isinstance(choice, MoveChoice) and self._chosen is not None
        chosen, self._chosen = self._chosen, None
        return chosen

    def _record_passes(self, car: str, option: MoveOption) -> None:
        state = self.cars[car]
        track = self.track
        made = state.corner_stops if track.spaces[state.space].corner else 0
        crossings = self.info[car].crossings
        here = option.start
        for nxt in option.path:
            if (here, nxt) in track.line_edges:
                crossings += 1
            corner = track.spaces[here].corner
            if corner and track.spaces[nxt].corner != corner:
                required = track.corners[corner - 1].stops
                self.info[car].passes.append(
                    CornerPass(
                        lap=max(crossings - self._offset, 0),
                        corner=corner,
                        made=made,
                        required=required,
                        penalty=made < required and option.overshoot > 0,
                        eliminated=option.eliminated is not None,
                    )
                )
            if track.spaces[nxt].corner != corner:
                made = 0
            here = nxt

    def _apply_option(self, car: str, option: MoveOption) -> Flow:
        """Masters 6-3 steps 5–13 for the chosen move."""
        info = self.info[car]
        before = self.cars[car]
        self._record_passes(car, option)
        old_laps = self.laps_done(car)
        info.crossings += option.laps
        new_laps = self.laps_done(car)
        self._seq += 1
        info.arrived = self._seq
        wear = before.wear
        self._set(
            car,
            space=option.end,
            corner_stops=option.corner_stops,
            laps=new_laps,
            tyre_laps=before.tyre_laps + self._tyre_age(car, new_laps - old_laps, option.end),
        )
        self._emit(
            EventKind.MOVE,
            car,
            spaces=option.spaces_moved,
            end=self._name(option.end),
            path=[self._name(s) for s in option.path],
            brakes=option.brakes,
            overshoot=option.overshoot,
            stop_corner=option.stop_corner,
            blocked=option.blocked,
            pit=bool(option.pit),
        )
        if option.slipstreams:
            self._emit(EventKind.SLIPSTREAM, car, count=option.slipstreams)
        if option.eliminated is not None:
            reason = FROM_ELIMINATION[option.eliminated]
            self._retire(car, reason)
            other = self._car_at(option.body_loss) if option.body_loss >= 0 else None
            if other is not None and self.cars[other].status in RACING:
                # Dresden Blockierte Spur, Masters 12-1-1: the car in front loses
                # ``blocked_out_body_ahead`` body points (the last one retires it)
                for _ in range(self.ruleset.blocked_out_body_ahead):
                    if self.cars[other].status in RACING:
                        self._lose(car=other, area=WearArea.BODY, cause=Cause.REAR_HIT)
                if self.ruleset.blocked_out_body_ahead:
                    self._mark(option.body_loss, Cause.BLOCKING)
            if reason is Retirement.BLOCKED and self.cars[car].status is CarStatus.WRECK:
                # Masters 12-1-2, 12-1-5, 20-2-2; Dresden Ausfälle: the cars touching the wreck
                # roll an aggravated collision test, except the one that lost its point already
                touching = tuple(s for s in option.contacts if s != option.body_loss)
                yield from self._collisions(car, touching)
            return
        if option.brakes:
            wear = wear.spend(WearArea.BRAKES, option.brakes)
            self._wear_event(car, WearArea.BRAKES, option.brakes, wear, Cause.BRAKING)
        if option.tyres:
            paid = min(option.tyres, wear[WearArea.TYRES])
            wear = wear.spend(WearArea.TYRES, paid)
            self._wear_event(car, WearArea.TYRES, paid, wear, Cause.OVERSHOOTING)
        fuel_due = option.fuel * self.ruleset.fuel_per_lap
        if fuel_due:
            paid = min(fuel_due, wear[WearArea.FUEL])
            wear = wear.spend(WearArea.FUEL, paid)
            self._wear_event(car, WearArea.FUEL, paid, wear, Cause.LAP)
            if paid < fuel_due and info.rolling_out is None:
                info.rolling_out = Retirement.FUEL  # Dresden Verschleiß: rolls out from now on
        self._set(car, wear=wear)
        for lap in range(old_laps + 1, new_laps + 1):
            self._emit(EventKind.LAP, car, lap=lap)
        for _space in option.dangerous:
            lost = yield from self._check(
                car, RollPurpose.ROAD_HOLDING, self.ruleset.road_holding_limit(self._rain())
            )
            if lost:
                self._lose(car, WearArea.ROAD_HOLDING, Cause.ROAD_HOLDING)
                if self.info[car].retirement is not None:
                    return
        for _ in range(option.wall_tests):
            lost = yield from self._check(
                car, RollPurpose.WALL, self.ruleset.collision_limit(self._rain(), False)
            )
            if lost:
                self._lose(car, WearArea.BODY, Cause.WALL)
                if self.info[car].retirement is not None:
                    return
        rolled_over = (  # our decision (docs/formula_de/race.md): Dresden roll-out over the line
            info.rolling_out is Retirement.ENGINE
            and self.ruleset.engine_failure is EngineFailure.ROLL_OUT
        )
        # rule decision "The end of the race for lapped cars" (Dresden Rennen; Masters 21-1-3):
        # once the winner is home, a car finishes the next time it crosses the line
        home = new_laps >= self.laps or (bool(self.finish_order) and option.laps > 0)
        if home and (info.retirement is None or rolled_over):
            if rolled_over:  # classified as a finisher, as Masters 16-0-6 lets a car roll home
                info.retirement = None
                info.rolling_out = None
            self._finish(car)  # after the tests of the move (Masters 6-3 step 9), before contacts
            return
        if option.spin:
            self._set(car, status=CarStatus.SPUN)
            info.needs_start = True
            info.launch_pending = True
            info.next_gears = ()
            self._emit(EventKind.SPIN, car)
        if option.pit:
            yield from self._pit_arrival(car, option.leftover)
            return
        if option.contacts and self.cars[car].status in RACING:
            yield from self._collisions(car, option.contacts)

    def _tyre_age(self, car: str, crossed: int, end: int) -> int:
        """Laps the tyres age in a move that crossed the line ``crossed`` times. Masters 8-4-1
        (Dresden "Reifen" counts laps of the same set): a set fitted in a box before the line
        starts its first lap when the car crosses the line in the pit lane, so that crossing
        does not age it; a set fitted after the line is on its first lap already."""
        info = self.info[car]
        aged = crossed - 1 if info.fresh_tyres and crossed else crossed
        if crossed or self.track.spaces[end].kind is SpaceKind.TRACK:
            info.fresh_tyres = False
        return aged

    def _wear_event(self, car: str, area: WearArea, points: int, wear: Wear, cause: Cause) -> None:
        if points:
            self._emit(
                EventKind.WEAR,
                car,
                points=points,
                area=area.value,
                reason=cause.value,
                left=wear[area],
            )

    # --- tests with the black die ----------------------------------------------------------

    def _check(self, car: str, purpose: str, limit: int, aggravated: bool = False) -> Check:
        """One black-die test: lost when the modified result is at most ``limit`` (rule
        decision "Check modifiers"); a natural 20 earns karma and a failed test may be saved
        with karma (Dresden "Karmapool")."""
        rules = self.ruleset
        info = self.info[car]
        modifier = (
            self.cars[car].profile.effects_at(in_pit_lane=self._in_pit_lane(car)).check_modifier
        )
        result = self._black(purpose, car)
        bonus = 0
        fresh = True
        while True:
            total = result + modifier + bonus
            lost = total <= limit
            if fresh and result == 20 and rules.karma and rules.karma_per_natural_twenty:
                info.karma += rules.karma_per_natural_twenty
                self._karma(car, rules.karma_per_natural_twenty, KarmaReason.NATURAL_TWENTY)
            fresh = False
            mod = modifier + bonus
            self._emit(
                EventKind.TEST,
                car,
                purpose=purpose,
                result=result,
                modifier=mod,
                limit=limit,
                lost=lost,
            )
            if not lost or not rules.karma or purpose not in _KARMA_TESTS or car in self.halted:
                return lost
            actions = []
            if info.karma >= rules.karma_plus_one_cost and total + 1 > limit:
                actions.append(KarmaAction.PLUS_ONE)
            if info.karma >= rules.karma_reroll_cost:
                actions.append(KarmaAction.REROLL)
            if not actions:
                return lost
            choice = yield KarmaQuestion(
                car,
                karma_actions=(KarmaAction.NONE, *actions),
                test=purpose,
                result=result,
                limit=limit,
                total=total,
                karma=info.karma,
                costs=(
                    (KarmaAction.PLUS_ONE, rules.karma_plus_one_cost),
                    (KarmaAction.REROLL, rules.karma_reroll_cost),
                ),
            )
            assert isinstance(choice, KarmaChoice)
            if choice.action is KarmaAction.NONE:
                return lost
            cost, reason = {
                KarmaAction.PLUS_ONE: (rules.karma_plus_one_cost, KarmaReason.PLUS_ONE),
                KarmaAction.REROLL: (rules.karma_reroll_cost, KarmaReason.REROLL),
            }[choice.action]
            info.karma -= cost
            self._karma(car, -cost, reason)
            if choice.action is KarmaAction.PLUS_ONE:
                bonus += 1
            else:
                result = self._black(RollPurpose.KARMA_REROLL, car)
                fresh = True

    def _collisions(self, causer: str, contacts: tuple[int, ...]) -> Flow:
        """Dresden Verschleiß, Masters 14: the others roll first, the causing car last, once per
        car involved; for every car this check eliminated it loses a body point unrolled."""
        rules = self.ruleset
        partners = [
            c
            for c in (self._car_at(s) for s in contacts)
            if c is not None and not self._in_pit_lane(c)  # Masters 19-5-3: neutral zone
        ]
        eliminated: set[str] = set()
        aggravating = rules.collision_aggravated_by

        def aggravated(a: str, b: str) -> bool:
            return self.cars[a].status in aggravating or self.cars[b].status in aggravating

        for other in partners:
            if self.cars[other].status not in RACING:
                continue
            limit = rules.collision_limit(self._rain(), aggravated(causer, other))
            lost = yield from self._check(other, RollPurpose.COLLISION, limit)
            if lost:
                space = self.cars[other].space
                self._lose(other, WearArea.BODY, Cause.COLLISION)
                self._mark(space, Cause.COLLISION)
                if self.info[other].retirement is not None:
                    eliminated.add(other)
        for other in partners:
            if self.cars[causer].status not in RACING:
                return  # a wreck rolls nothing; a car rolling on after its engine blew does
                # (Masters 14-4, 16-0-4)
            space = self.cars[causer].space
            if other in eliminated:
                self._lose(causer, WearArea.BODY, Cause.CAUSED_RETIREMENT)
                self._mark(space, Cause.COLLISION)
                continue
            limit = rules.collision_limit(self._rain(), aggravated(causer, other))
            lost = yield from self._check(causer, RollPurpose.COLLISION, limit)
            if lost:
                self._lose(causer, WearArea.BODY, Cause.COLLISION)
                self._mark(space, Cause.COLLISION)

    def _engine_tests(self) -> Flow:
        """Dresden Verschleiß, Masters 16-0-1: every car in 5th or 6th on the track tests its
        engine, in track order; the pit lane is exempt (19-1-4). Dresden Verschleiß: "alle sich
        im 5. oder 6. Gang befindlichen Fahrer", so a car rolling out without fuel tests too (its
        engine still runs); a car rolling on after its engine failed has no engine to test."""
        order = order_of_play(self.track, self._order_items())
        testing = (CarStatus.RUNNING, CarStatus.SPUN, CarStatus.ROLLING_OUT)
        for car in order:
            state = self.cars[car]
            if state.gear < 5 or state.status not in testing:
                continue
            if self._in_pit_lane(car) or self.info[car].rolling_out is Retirement.ENGINE:
                continue
            limit = self.ruleset.engine_limit(self._rain())
            lost = yield from self._check(car, RollPurpose.ENGINE, limit)
            if lost:
                space = state.space
                self._lose(car, WearArea.ENGINE, Cause.ENGINE_TEST)
                self._mark(space, Cause.ENGINE)

    def _lose(self, car: str, area: WearArea, cause: Cause) -> None:
        """One point lost in a test; the last body, engine or road-holding point retires the
        car (Dresden Verschleiß; Masters 14-2, 16-0-3, 20-5)."""
        state = self.cars[car]
        have = state.wear[area]
        wear = state.wear.spend(area, min(1, have))
        self._set(car, wear=wear)
        self._wear_event(car, area, min(1, have), wear, cause)
        if wear[area] > 0:
            return
        if area is WearArea.ENGINE:
            self._engine_failed(car)
        elif area is WearArea.BODY:
            self._retire(car, Retirement.BODY)
        elif area is WearArea.ROAD_HOLDING:
            self._retire(car, Retirement.ROAD_HOLDING)

    # --- retirements --------------------------------------------------------------------

    def _retire(self, car: str, reason: Retirement, wreck: bool | None = None) -> None:
        info = self.info[car]
        if info.retirement is None:
            info.retirement = reason
            info.retired_laps = self.laps_done(car)
            info.final_progress = self.progress_of(car)
            rule = rule_of(reason, self.ruleset.blocking_cites_masters)
            self._emit(EventKind.RETIRED, car, reason=reason.cause.value, rule=rule)
        info.t_car_pending = self._t_car_allowed(car)
        # Dresden Ausfälle: "Alle ausgefallenen Autos bleiben ... auf der Strecke", whatever
        # retired them; Masters removes some at once (20-1, 20-5-2: LEAVES_WRECK)
        stays = (LEAVES_WRECK[reason] or self._wrecks_stay) if wreck is None else wreck
        if MARKS_DANGER[reason]:
            self._mark(self.cars[car].space, reason.cause)
        if stays and not self._in_pit_lane(car):
            self._set(car, status=CarStatus.WRECK)
        else:
            self._set(car, status=CarStatus.OUT)  # Dresden: out of the pit lane at once

    def _engine_failed(self, car: str) -> None:
        """Dresden Ausfälle: roll out one gear lower each round down to 1st; Masters 16-0-3:
        one inertia move in 4th from 5th or 6th, none from 4th or lower; Masters 16-0-6: past
        the corner before last on the last lap the car rolls on, one gear lower each round, and
        may still reach the flag (the retirement is recorded only if it does not).

        The car is judged by the gear it is in now: after a downshift that costs the last engine
        point that is the new, lower gear (Masters 16-0-3-1: "over-revving with loss of the last
        engine" in 4th or less gives no inertia; Dresden Ausfälle: it rolls out from the next
        gear below the new one, and a car already in 1st has nothing left to roll)."""
        state = self.cars[car]
        info = self.info[car]
        rules = self.ruleset
        if rules.engine_failure is EngineFailure.INERTIA and self._extended_inertia(car):
            info.rolling_out = Retirement.ENGINE
            info.inertia = False
            self._mark(state.space, Cause.ENGINE_FAILURE)
            self._just_blew(car)
            self._emit(
                EventKind.ROLLING_OUT,
                car,
                gear=max(state.gear - 1, 1),
                reason=Cause.ENGINE_TO_FLAG.value,
            )
            return
        info.retirement = None
        self._retire_marked(car)
        if rules.engine_failure is EngineFailure.ROLL_OUT:
            rolls = state.gear > 1
        else:
            rolls = state.gear > rules.inertia_gear and state.status is not CarStatus.SPUN
            info.inertia = rolls
        if rolls and not self._in_pit_lane(car):
            info.rolling_out = Retirement.ENGINE
            self._just_blew(car)
        else:
            self._retire(car, Retirement.ENGINE)

    def _just_blew(self, car: str) -> None:
        """Masters 16-0-5, 18-1-8: a car whose engine just blew is still a car to slipstream
        until its roll-out move, so it keeps its status until then (``_rollout_turn``); a spun
        car never was one (10-4-4) and rolls out from now on."""
        if self.cars[car].status is CarStatus.SPUN:
            self._set(car, status=CarStatus.ROLLING_OUT)

    def _extended_inertia(self, car: str) -> bool:
        """Masters 16-0-6, 16-0-7: on the last lap, past (not in) the corner before last."""
        corners = self.track.corners
        if len(corners) < 2 or self.laps_done(car) != self.laps - 1:
            return False
        if self.track.spaces[self.cars[car].space].corner == len(corners) - 1:
            return False
        lap = self.laps - 1
        return any(p.lap == lap and p.corner == len(corners) - 1 for p in self.info[car].passes)

    def _retire_marked(self, car: str) -> None:
        """Record the engine retirement now (the car may still roll on)."""
        info = self.info[car]
        info.retirement = Retirement.ENGINE
        info.retired_laps = self.laps_done(car)
        info.final_progress = self.progress_of(car)
        self._emit(
            EventKind.RETIRED,
            car,
            reason=Retirement.ENGINE.cause.value,
            rule=Retirement.ENGINE.rule,
        )
        self._mark(self.cars[car].space, Cause.ENGINE_FAILURE)

    def _rollout_turn(self, car: str) -> Flow:
        """A car without fuel (driver steers, may reach box or flag) or with a failed engine
        (straight ahead where possible) rolls on one gear lower each round."""
        info = self.info[car]
        state = self.cars[car]
        reason = info.rolling_out
        assert reason is not None
        gear = self.ruleset.inertia_gear if info.inertia else max(1, state.gear - 1)
        self._emit(
            EventKind.ROLLING_OUT,
            car,
            gear=gear,
            reason=reason.cause.value,
        )
        engine = reason is Retirement.ENGINE
        self._set(car, gear=gear, status=CarStatus.ROLLING_OUT if engine else state.status)
        result = self._gear_roll(car, gear)
        options = self._options(car, result, Choices(gear=gear, pit_open=not engine))
        if engine:
            # Masters 16-0-5, 18-1-7: a car in inertia takes no slipstream
            unslipped = [o for o in options if not o.slipstreams]
            if self.ruleset.engine_failure is EngineFailure.INERTIA:
                option = _farthest(self.track, unslipped)
            else:
                option = _straightest(unslipped)
        else:
            option = yield from self._choose(car, options, result)
        if option is not None:
            yield from self._apply_option(car, option)
        if self.ruleset.is_engine_trigger(gear, result):
            # Dresden Verschleiß: "Wirft ein Fahrer eine 20 (5. Gang)": a car rolling out in 5th
            # rolls that die too, and every car in 5th or 6th tests its engine
            yield from self._engine_tests()
        state = self.cars[car]
        if engine:
            if state.status is CarStatus.FINISHED:
                info.rolling_out = None  # Masters 16-0-6: reached the flag
                return
            if state.status.on_track:
                self._mark(state.space, Cause.ROLLING_OUT)
            if gear == 1 or info.inertia:
                info.rolling_out = None
                self._retire(car, Retirement.ENGINE)
            return
        if info.rolling_out is None or state.status not in RACING:
            return
        if state.status is CarStatus.IN_PIT:
            return
        if gear == 1:
            info.rolling_out = None
            self._retire(car, Retirement.FUEL)
        else:
            self._set(car, status=CarStatus.ROLLING_OUT)

    def _remove_wreck(self, car: str) -> None:
        space = self.cars[car].space
        self._set(car, status=CarStatus.OUT)
        self._emit(EventKind.WRECK_REMOVED, car, space=self._name(space))

    def _finish(self, car: str) -> None:
        self.finish_order.append(car)
        self._set(car, status=CarStatus.FINISHED)
        self._emit(EventKind.FINISHED, car, place=len(self.finish_order))

    # --- pit stops ----------------------------------------------------------------------

    def _pit_arrival(self, car: str, leftover: int) -> Flow:
        info = self.info[car]
        rules = self.ruleset
        state = self.cars[car]
        plan = info.pit_plan
        announced = plan is not None
        if plan is None:
            choice = yield self._pit_question(car)
            assert isinstance(choice, PitChoice)
            plan = choice.plan
        else:
            plan = clamp_plan(rules, state, info.start_wear, plan)
        info.pit_plan = None
        state = do_work(state, info.start_wear, plan)
        if plan.tyre is not None:
            info.fresh_tyres = True  # Masters 8-4-1: see _tyre_age
        self.cars[car] = replace(state, status=CarStatus.IN_PIT, corner_stops=0)
        if plan.fuel and info.rolling_out is Retirement.FUEL:
            info.rolling_out = None
        planned = plan_to_data(plan)
        if rules.pit_system is PitSystem.POINTS:
            points = plan_points(rules, plan, announced) - leftover
            self._set(car, gear=rules.pit_work_gear)
            self._emit(
                EventKind.PIT_IN, car, box=state.box, plan=planned, points=max(points, 0)
            )
            if points <= 0:
                yield from self._pit_exit(car, -points, rules.pit_work_gear)
            else:
                info.pit_points = points
            return
        self._emit(EventKind.PIT_IN, car, box=state.box, plan=planned, points=0)
        self._set(car, gear=0)  # leaves later in any gear up to 4th, no skip costs (19-3-4)
        if plan.long:
            return  # Masters 19-4-2: leaves at its next turn (``_pit_turn``)
        result = self._black(RollPurpose.QUICK_STOP, car)
        # Masters 19-3: the black-die roll of a quick stop is an event like every roll
        self._emit(EventKind.QUICK_STOP, car, result=result, limit=rules.quick_stop_success_max)
        if result <= rules.quick_stop_success_max:
            yield from self._pit_exit(car, math.ceil(result / 2), rules.pit_exit_max_gear)
        # else Masters 19-3-4: it leaves at its next turn (``_pit_turn``)

    def _pit_question(self, car: str) -> PitQuestion:
        rules = self.ruleset
        state = self.cars[car]
        start = self.info[car].start_wear
        masters = rules.pit_system is PitSystem.QUICK_LONG
        allowed = MASTERS_REPAIRABLE if masters else REPAIRABLE
        return PitQuestion(
            car,
            box=state.box,
            fuel_max=0 if masters else max(start[WearArea.FUEL] - state.wear.fuel, 0),
            repairs_max=max_repairs(rules, state.wear),
            repairable=tuple(a for a in allowed if state.wear[a] < start[a]),
            long_stop=masters,
            tyre_required=masters,
        )

    def _pit_turn(self, car: str) -> Flow:
        info = self.info[car]
        rules = self.ruleset
        if rules.pit_system is PitSystem.POINTS:
            result = self.dice.gear(rules.pit_work_gear, car=car).result
            info.pit_points -= result
            self._emit(EventKind.PIT_WORK, car, result=result, left=max(info.pit_points, 0))
            if info.pit_points <= 0:
                spaces, info.pit_points = -info.pit_points, 0
                yield from self._pit_exit(car, spaces, rules.pit_work_gear)
            return
        self._set(car, status=CarStatus.RUNNING)
        info.launch_pending = True
        gears = tuple(range(1, rules.pit_exit_max_gear + 1))
        yield from self._gear_turn(car, gears)

    def _pit_exit(self, car: str, spaces: int, gear: int) -> Flow:
        """Out of the box at once with the spaces left over (Dresden) or half the quick-stop
        roll (Masters 19-3-3), in 4th gear; the profile's launch applies. Dresden
        Fahrerprofile: the Praktiker's extra space "beim Start nach dem Boxenstopp" is one "den
        er benutzen darf", so the moves offered are those with and those without it (the same
        path at its lower cost): driving out only the spaces left over costs no brake point.
        ``pit_out`` names the most he may drive."""
        self._set(car, status=CarStatus.RUNNING, gear=gear)
        info = self.info[car]
        info.launch_pending = True
        effects = self.cars[car].profile.effects_at(in_pit_lane=self._in_pit_lane(car))
        extra = self._launch_extra(car, True)
        optional = effects.launch_optional and extra > 0
        self._emit(EventKind.PIT_OUT, car, spaces=max(spaces + extra, 0), gear=gear)
        if spaces + extra <= 0:
            return
        options = self._options(car, spaces, Choices(gear=gear, extra=extra, pit_open=False))
        if optional:
            using = self._requests
            without = self._options(car, spaces, Choices(gear=gear, pit_open=False))
            options = _launch_declinable(options, without)
            self._requests = (*self._requests, *using)  # declining first: it costs less
        option = yield from self._choose(car, options, spaces)
        if option is None or (optional and _stands_still(option)):
            return  # the Praktiker declined the space and nothing is left to drive
        yield from self._apply_option(car, option)

    # --- end of round and race ----------------------------------------------------------

    def _end_of_round(self) -> Flow:
        for car in self.grid_order:
            if self.info[car].t_car_pending and self._t_car_left(car):
                yield from self._t_car(car)
        self._weather_rolls()
        for car, state in self.cars.items():
            if state.status is CarStatus.SPUN and self.info[car].needs_start:
                self._set(car, gear=0)  # Masters 10-4-1: turned round, restart roll next
        if self._wrecks_stay:
            self._clear_passed_wrecks()
        racing = [c for c, s in self.cars.items() if s.status in RACING]
        if racing:
            leader = max(racing, key=self.progress_of)
            led = self.info[leader].led
            lap = self.laps_done(leader)
            led[lap] = led.get(lap, 0) + 1

    def _weather_rolls(self) -> None:
        """Masters 3-2-4, 3-2-5: "Every time a driver get a 20 in 5th gear or a 30 in 6th, he
        will roll the black die at the end of the table round"; Dresden Wetter: changeable
        weather is rolled again "nach jedem Wurf einer 20 (5. Gang) oder 30 (6.Gang) am Ende
        der Spielrunde". One roll per such result, in turn, until the weather is settled (two
        equal results in a row, Masters 3-2-6)."""
        for _ in range(self._weather_rolls_due):
            if self.weather.settled:
                break
            self._weather_roll(next(iter(order_of_play(self.track, self._order_items())), ""))
        self._weather_rolls_due = 0

    def _weather_roll(self, car: str) -> None:
        """One roll of changeable weather by ``car`` (nothing once the weather is settled)."""
        if self.weather.settled:
            return
        result = self._black(RollPurpose.WEATHER, car)
        roll = self.track.weather.weather_for(result)
        self.weather = self.weather.after_roll(roll, self.ruleset.weather_settles_after)
        self._emit_weather(result, roll, car)

    def _clear_passed_wrecks(self) -> None:
        """Dresden Ausfälle: a wreck stays until every running car has passed it."""
        racing = [self.progress_of(c) for c, s in self.cars.items() if s.status in RACING]
        for car, state in self.cars.items():
            passed = not racing or min(racing) > self.progress_of(car)
            if state.status is CarStatus.WRECK and passed:
                self._remove_wreck(car)

    def _end_of_race(self) -> None:
        rules = self.ruleset
        for car, state in self.cars.items():
            if state.status is CarStatus.WRECK:
                self._remove_wreck(car)
        if rules.karma:
            self._karma_income()
        self._emit(EventKind.END, seed="-")

    def _karma_income(self) -> None:
        """Dresden Karmapool at the end of the race: points, places gained, most rounds led
        in a lap (rule decision "meiste Führungsrunden"; figures in ``karma_income``)."""
        placings = {p.car: p for p in self.classification()}
        most_led = laps_most_led({c: self.info[c].led for c in self.cars})
        for car in self.grid_order:
            placing = placings[car]
            income = end_of_race_karma(self.ruleset, placing.points, placing.grid,
                                       placing.position, placing.status == "finished",
                                       most_led.get(car, 0)).total
            if income:
                self.info[car].karma += income
                self._karma(car, income, KarmaReason.END_OF_RACE)


_KARMA_TESTS = frozenset(
    {RollPurpose.ROAD_HOLDING, RollPurpose.COLLISION, RollPurpose.WALL, RollPurpose.ENGINE}
)
"""Dresden Karmapool: body (collision and wall), engine and road-holding checks may be changed
with karma."""


def _launch_declinable(using: list[MoveOption], declining: list[MoveOption]) -> list[MoveOption]:
    """The moves of an optional launch bonus (Dresden Fahrerprofile, Praktiker): every move with
    the extra space and every move without it; a path reachable both ways is offered once, at
    the cost without the extra space (one space less to brake), in the place it had."""
    merged = {o.path: o for o in using}
    for option in declining:
        merged[option.path] = option
    return list(merged.values())


def _stands_still(option: MoveOption) -> bool:
    """A move that leaves the car where it is and costs nothing."""
    return (
        not option.path
        and not option.brakes
        and not option.tyres
        and not option.blocked
        and option.eliminated is None
    )


def _farthest(track: Track, options: list[MoveOption]) -> MoveOption | None:
    """Masters 16-0-3, 20-4-2: the inertia move goes as far as possible (12-1-3: the most
    spaces, then the end that would play first next round), round the cars ahead rather than
    braking to keep its lane, without being eliminated if it can, paying as little as it can."""
    if not options:
        return None
    return min(
        options,
        key=lambda o: (
            o.eliminated is not None,
            -o.spaces_moved,
            -o.laps,
            -track.spaces[o.end].height,
            o.tyres + o.brakes,
            o.lane_changes,
            o.path,
        ),
    )


def _straightest(options: list[MoveOption]) -> MoveOption | None:
    """Dresden Ausfälle: a car with a failed engine rolls straight ahead where possible ("falls
    möglich geradeaus"), as far as it can without being eliminated."""
    if not options:
        return None
    return min(
        options,
        key=lambda o: (
            o.eliminated is not None,
            o.lane_changes,
            o.tyres + o.brakes,
            -o.spaces_moved,
            o.path,
        ),
    )
