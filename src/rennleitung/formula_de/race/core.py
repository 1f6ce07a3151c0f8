"""What every phase of a race shares: its state, the small steps all of them take, and the
steps one phase asks of another.

A race is one class (``Race`` in ``__init__.py``) put together from one mixin per phase of the
race (setup, round, turn, tests, pit, restart, finish) and the answering side. ``RaceCore`` is
their common base: it declares the race's state (filled in by ``Race.__init__``), holds the
helpers every phase uses (events, karma, dice, the order of play, the position notation), and
names as abstract methods the steps a phase calls in another one, so each module is checked on
its own and no phase module imports another (``Race`` fails to build if a step is missing).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Generator
from dataclasses import replace

from rennleitung.formula_de.car import CarStatus, Wear, WearArea, Weather, WeatherRoll, WeatherState
from rennleitung.formula_de.dice import Dice, RollWanted
from rennleitung.formula_de.events import Cause, Event, EventKind, JsonValue, make_event
from rennleitung.formula_de.movement import MoveOption, MoveRequest
from rennleitung.formula_de.moves import Choices
from rennleitung.formula_de.position import CarState, Position
from rennleitung.formula_de.race_decisions import Decision, RollEntry, TakeBack
from rennleitung.formula_de.race_ledger import KarmaReason
from rennleitung.formula_de.race_log import Log
from rennleitung.formula_de.race_order import OrderItem, progress
from rennleitung.formula_de.race_questions import Question
from rennleitung.formula_de.race_retirement import Retirement
from rennleitung.formula_de.race_setup import Entry, RaceConfig
from rennleitung.formula_de.race_state import CarInfo, RaceState
from rennleitung.formula_de.ruleset import Ruleset
from rennleitung.formula_de.track import SpaceKind, Track

Answer = Decision | dict[str, Decision]
"""What the flow receives: the decision of a single question, or the answers of a batch of
simultaneous questions by car (a car halted meanwhile has none)."""
Flow = Generator[Question | tuple[Question, ...], Answer, None]
"""A stretch of the race's flow: it yields the questions a person must answer."""
Check = Generator[Question | tuple[Question, ...], Answer, bool]
"""The flow of one black-die test: it returns whether the test was lost."""
Pick = Generator[Question | tuple[Question, ...], Answer, MoveOption | None]
"""The flow of choosing a move: it returns the option taken (None: no move)."""

RACING = frozenset(
    {CarStatus.RUNNING, CarStatus.SPUN, CarStatus.STALLED, CarStatus.IN_PIT, CarStatus.ROLLING_OUT}
)


class TurnCut(Exception):
    """Thrown into the flow by ``Race.halt`` to end the halted car's turn at once."""


class RaceCore(ABC):
    """The state of a race and the steps every phase shares. The attributes are set by
    ``Race.__init__`` (and by a resumed race's flow, ``round.py``)."""

    config: RaceConfig
    track: Track
    ruleset: Ruleset
    laps: int
    dice: Dice
    commitment: str
    entries: dict[str, Entry]
    cars: dict[str, CarState]
    info: dict[str, CarInfo]
    grid_order: list[str]
    finish_order: list[str]
    dangerous: set[int]
    weather: WeatherState
    round: int
    stopped: bool
    halted: set[str]
    turns: int
    turn_car: str
    rules: list[tuple[int, int]]
    keep_boundaries: bool
    _wrecks_stay: bool
    _grid: tuple[int, ...]
    _events: Log[Event]
    _decisions: Log[tuple[str, Decision]]
    _seq: int
    _weather_rolls_due: int
    _restart_round: int
    _t_cars_used: set[str]
    _cuts: dict[frozenset[int], bool]
    _offset: int
    _requests: tuple[MoveRequest, ...]
    _chosen: MoveOption | None
    _answers: dict[str, Decision]
    _boundaries: list[RaceState]
    _base: RaceState | None  # a table race: the last round boundary, rebuilt from (table.py)
    _prev_base: RaceState | None  # ... and the one before it (None: the start), for a take-back
    _prev_known: bool  # ... across the last boundary: known only when passed here
    _rewound: tuple[int, tuple[int, int]] | None  # where such a take-back went, for the store
    _replaying: int  # a table race: entries of a replay still to log, their numbers fed ahead
    _after: list[tuple[str, Decision]]  # ... to log right after the next decision
    _proc: Flow
    _open: tuple[Question, ...]
    _batch: bool

    @property
    def version(self) -> int:
        """The number of decisions applied so far (halts and answers of an open batch
        included): an answer made against another version is stale (``StaleVersion``)."""
        return len(self._decisions)

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

    def laps_done(self, car: str) -> int:
        """Laps completed (the first crossing from a grid behind the line is the start)."""
        return max(self.info[car].crossings - self._offset, 0)

    def progress_of(self, car: str) -> float:
        """Distance along the race in rows: completed laps and the height of the car's space,
        a car in the pit lane over the line on its new lap (the order of play places pit-lane
        cars by their entry instead, ``race_order``; Masters 19-5)."""
        state = self.cars[car]
        return progress(self.track, state.space, self.info[car].crossings - self._offset)

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

    # --- the steps one phase asks of another (each in its phase's module) ---

    # table.py and answers.py
    @abstractmethod
    def _roll_wanted(self, wanted: RollWanted) -> None: ...
    @abstractmethod
    def check_roll(self, entry: RollEntry) -> None: ...
    @abstractmethod
    def _check_take_back(self) -> str: ...
    @abstractmethod
    def _take_back_target(self) -> tuple[str, bool]: ...
    @abstractmethod
    def _table_entry(self, car: str | None, entry: RollEntry | TakeBack) -> None: ...
    @abstractmethod
    def _apply_entry(self, car: str, decision: Decision) -> None: ...
    @abstractmethod
    def _log_entry(self, car: str, entry: Decision) -> None: ...

    # setup.py
    @abstractmethod
    def _t_car_left(self, car: str) -> bool: ...
    @abstractmethod
    def _t_car_allowed(self, car: str) -> bool: ...
    @abstractmethod
    def _t_car(self, car: str, grid_slot: int | None = None) -> Flow: ...

    # round.py
    @abstractmethod
    def _rounds(self, resumed: bool = False) -> Flow: ...
    @abstractmethod
    def _weather_roll(self, car: str) -> None: ...

    # turn.py
    @abstractmethod
    def _turn(self, car: str) -> Flow: ...
    @abstractmethod
    def _gear_turn(self, car: str, forced: tuple[int, ...]) -> Flow: ...
    @abstractmethod
    def _gear_roll(self, car: str, gear: int) -> int: ...
    @abstractmethod
    def _launch_extra(self, car: str, use: bool) -> int: ...
    @abstractmethod
    def _options(self, car: str, roll: int, choices: Choices) -> list[MoveOption]: ...
    @abstractmethod
    def _choose(self, car: str, options: list[MoveOption], roll: int) -> Pick: ...
    @abstractmethod
    def _apply_option(self, car: str, option: MoveOption) -> Flow: ...

    # tests.py
    @abstractmethod
    def _check(self, car: str, purpose: str, limit: int, aggravated: bool = False) -> Check: ...
    @abstractmethod
    def _collisions(self, causer: str, contacts: tuple[int, ...]) -> Flow: ...
    @abstractmethod
    def _engine_tests(self) -> Flow: ...
    @abstractmethod
    def _lose(self, car: str, area: WearArea, cause: Cause) -> None: ...

    # pit.py
    @abstractmethod
    def _pit_reachable(self, car: str) -> bool: ...
    @abstractmethod
    def _pit_arrival(self, car: str, leftover: int) -> Flow: ...
    @abstractmethod
    def _pit_turn(self, car: str) -> Flow: ...

    # restart.py
    @abstractmethod
    def _blocked(self) -> bool: ...
    @abstractmethod
    def _restart(self) -> Flow: ...

    # finish.py
    @abstractmethod
    def _retire(self, car: str, reason: Retirement, wreck: bool | None = None) -> None: ...
    @abstractmethod
    def _engine_failed(self, car: str) -> None: ...
    @abstractmethod
    def _rollout_turn(self, car: str) -> Flow: ...
    @abstractmethod
    def _remove_wreck(self, car: str) -> None: ...
    @abstractmethod
    def _finish(self, car: str) -> None: ...
    @abstractmethod
    def _end_of_race(self) -> None: ...
