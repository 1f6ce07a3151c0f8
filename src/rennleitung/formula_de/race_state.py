"""The race at a round boundary as a plain value: what ``Race.resume`` continues from.

Between two rounds of play nothing is half done: no question is open inside a turn, no bid
waits, the weather rolls of the round are rolled. So everything the rest of the race depends
on is data there: the cars (``CarState``), each car's bookkeeping (``CarInfo``), the weather,
the counters, the orders and the position in the dice stream (the generator's state). A
``RaceState`` holds exactly that, plus how long the race's three logs (decisions, events,
rolls) were at that moment; the logs themselves are kept by whoever keeps the race (a record,
the store), so a state stays small. Its JSON form is ``race_state_json.py``
(``docs/formula_de/state.md``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rennleitung.formula_de.car import Wear, WeatherState
from rennleitung.formula_de.position import CarState
from rennleitung.formula_de.race_decisions import PitPlan
from rennleitung.formula_de.race_retirement import Retirement
from rennleitung.formula_de.race_setup import RaceConfig

STANDARD_SETUP = Wear(tyres=5, brakes=4, fuel=4, body=3, engine=3, road_holding=2, box=1)
"""The setup offered in ``legal_decisions()`` (any valid split of the 22 points is accepted)."""


@dataclass(frozen=True, slots=True)
class CornerPass:
    """A car leaving a corner: lap (0-based completed laps), corner, stops made and required,
    whether it paid the overshoot penalty, whether the move eliminated it, and whether a
    restart carried the car past it (invariant: stops made, a penalty, out, or neutral)."""

    lap: int
    corner: int
    made: int
    required: int
    penalty: bool
    eliminated: bool = False
    neutral: bool = False


@dataclass(slots=True)
class CarInfo:
    """Race bookkeeping of one car beyond its ``CarState``: grid slot, line crossings, karma,
    the order it arrived in (ties of the order of play), its retirement, the start and launch
    still due, forced gears next turn, rolling out, the pit stop under way, the setup it
    started with, the corners passed, the rounds led per lap, a T-car due, fresh tyres."""

    grid: int = 0
    crossings: int = 0
    karma: int = 0
    arrived: int = 0
    retirement: Retirement | None = None
    retired_laps: int = 0
    final_progress: float = 0.0
    needs_start: bool = True
    launch_pending: bool = True
    next_gears: tuple[int, ...] = ()
    rolling_out: Retirement | None = None
    inertia: bool = False
    pit_points: int = 0
    pit_plan: PitPlan | None = None
    start_wear: Wear = STANDARD_SETUP
    passes: list[CornerPass] = field(default_factory=list)
    led: dict[int, int] = field(default_factory=dict)
    t_car_pending: bool = False
    fresh_tyres: bool = False

    def copy(self) -> CarInfo:
        """An independent copy (the race goes on changing its own)."""
        return CarInfo(
            self.grid,
            self.crossings,
            self.karma,
            self.arrived,
            self.retirement,
            self.retired_laps,
            self.final_progress,
            self.needs_start,
            self.launch_pending,
            self.next_gears,
            self.rolling_out,
            self.inertia,
            self.pit_points,
            self.pit_plan,
            self.start_wear,
            list(self.passes),
            dict(self.led),
            self.t_car_pending,
            self.fresh_tyres,
        )


RngState = tuple[int, tuple[int, ...], float | None]
"""``random.Random.getstate()``: the position in the dice stream."""


@dataclass(frozen=True)
class RaceState:
    """A race after ``round`` rounds of play (0: the grid, weather, setups and boxes done),
    before the next one begins. ``version``, ``events`` and ``rolls`` are the lengths of the
    decision, event and roll logs at that moment; ``rules`` says from which round on the race
    was played under which rules version (``rules_version.py``), oldest first."""

    config: RaceConfig
    commitment: str
    round: int
    version: int
    events: int
    rolls: int
    rng: RngState
    weather: WeatherState
    cars: tuple[CarState, ...]
    """In grid order."""
    info: tuple[CarInfo, ...]
    """In grid order, one per car."""
    finish_order: tuple[str, ...] = ()
    dangerous: frozenset[int] = frozenset()
    halted: frozenset[str] = frozenset()
    stopped: bool = False
    turns: int = 0
    arrivals: int = 0
    """The arrival counter behind ``CarInfo.arrived``."""
    t_cars_used: frozenset[str] = frozenset()
    """Teams that have used their T-car (Dresden "Ausfälle")."""
    restart_round: int = 0
    """The round after a restart, played in race order without bids (Dresden "Neustart")."""
    rules: tuple[tuple[int, int], ...] = ()
    """(first round, rules version) pairs: the rules each stretch of rounds was played under."""

    @property
    def grid_order(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cars)

    @property
    def rules_version(self) -> int:
        """The rules version the race was played under last."""
        return self.rules[-1][1] if self.rules else 1
