"""What every bot shares: the interface, the setup, the box, pit strategy and karma.

Both bots make the same strategic choices (when to pit and what to ask the crew for); they
differ in how they pick gears and moves, which is where the race is won.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from rennleitung.formula_de.car import CarStatus, Tyre, Wear, WearArea, Weather
from rennleitung.formula_de.race import T_CAR_SETUP, Race
from rennleitung.formula_de.race_decisions import (
    BidChoice,
    BoxChoice,
    Decision,
    KarmaAction,
    KarmaChoice,
    PitChoice,
    PitPlan,
    SetupChoice,
)
from rennleitung.formula_de.race_pit import MASTERS_REPAIRABLE, REPAIRABLE, max_repairs
from rennleitung.formula_de.race_questions import (
    Ask,
    BidQuestion,
    BoxQuestion,
    KarmaQuestion,
    PitQuestion,
    SetupQuestion,
)
from rennleitung.formula_de.ruleset import PitSystem
from rennleitung.formula_de.track import SpaceKind


class Bot(Protocol):
    """Answers any question a race asks."""

    name: str

    def decide(self, race: Race, ask: Ask) -> Decision: ...


BOT_SETUP = Wear(tyres=5, brakes=3, fuel=5, body=3, engine=3, road_holding=2, box=1)
"""Fuel for three laps and a few skipped gears, engine for the many engine tests of a field in
5th and 6th; tyres come back at the pit stop. Chosen by seeded trials (16 races, 10 bots)."""


@dataclass(frozen=True, slots=True)
class Strategy:
    """A bot's standing choices: the setup split where the ruleset leaves it free and burns
    fuel per lap, and the tyres it fits in sunshine (at the start and in the pit)."""

    split: Wear = BOT_SETUP
    dry: Tyre = Tyre.HARD


DEFAULT = Strategy()


def tyre_for(race: Race, strategy: Strategy) -> Tyre:
    """Rain tyres in rain, else the strategy's dry tyres (Dresden "Reifen")."""
    return Tyre.RAIN if race.weather.current is Weather.RAIN else strategy.dry


def setup_choice(race: Race, strategy: Strategy = DEFAULT) -> SetupChoice:
    """The bot's split (fixed in FD Blitz; without fuel per lap in masters-2002 the fuel
    only pays for skipped gears, so tyres and brakes get more) and its tyres."""
    wear: Wear = race.ruleset.fixed_setup or strategy.split
    if race.ruleset.fixed_setup is None and not race.ruleset.fuel_per_lap:
        wear = Wear(tyres=6, brakes=4, fuel=4, body=3, engine=2, road_holding=2, box=1)
    return SetupChoice(wear, tyre_for(race, strategy))


def box_choice(ask: BoxQuestion) -> BoxChoice:
    return BoxChoice(ask.boxes[0])


def karma_choice(ask: KarmaQuestion) -> KarmaChoice:
    """Spend karma whenever it can save the car a point: +1 first, it is cheaper."""
    for action in (KarmaAction.PLUS_ONE, KarmaAction.REROLL):
        if action in ask.karma_actions:
            return KarmaChoice(action)
    return KarmaChoice(KarmaAction.NONE)


def fuel_needed(race: Race, car: str) -> int:
    """Fuel still to pay at the last corner before the line (Dresden Verschleiß)."""
    return (race.laps - race.laps_done(car)) * race.ruleset.fuel_per_lap


def wants_pit(race: Race, car: str) -> bool:
    """Pit when the tyres are nearly gone, fuel will not last, or a vital area is at 1 with a
    repair in the box; never when the pit is closed to this car."""
    rules = race.ruleset
    state = race.cars[car]
    if race.track.pit is None or not state.box or state.status is CarStatus.IN_PIT:
        return False
    done = race.laps_done(car)
    if not rules.pit_lane_open(done, race.laps):
        return False
    wear = state.wear
    start = race.info[car].start_wear
    if wear[WearArea.TYRES] <= max(2, start[WearArea.TYRES] // 3):
        return True
    if wear[WearArea.FUEL] < fuel_needed(race, car):
        return True
    wrong_tyre = (race.weather.settled and race.weather.current is Weather.RAIN) != (
        state.tyre is Tyre.RAIN
    )
    if wrong_tyre and race.laps - done >= 2:
        return True
    vital = (WearArea.BODY, WearArea.ENGINE, WearArea.ROAD_HOLDING)
    return wear.box > 0 and any(wear[a] <= 1 < start[a] for a in vital)


def pit_plan(race: Race, car: str, strategy: Strategy = DEFAULT) -> PitPlan:
    """Fresh tyres for the weather, fuel up to what the remaining laps need, and repairs of
    the weakest areas the box reserve allows."""
    rules = race.ruleset
    state = race.cars[car]
    start = race.info[car].start_wear
    tyre = tyre_for(race, strategy)
    masters = rules.pit_system is PitSystem.QUICK_LONG
    fuel = 0
    if not masters:
        fuel = max(
            0, min(start.fuel - state.wear.fuel, fuel_needed(race, car) + 2 - state.wear.fuel)
        )
    allowed = MASTERS_REPAIRABLE if masters else REPAIRABLE
    repairs: list[WearArea] = []
    budget = max_repairs(rules, state.wear)
    for area in sorted(allowed, key=lambda a: (state.wear[a] - start[a], state.wear[a])):
        while len(repairs) < budget and state.wear[area] + repairs.count(area) < start[area]:
            if state.wear[area] + repairs.count(area) > 1 and not masters:
                break
            repairs.append(area)
    long = masters and bool(repairs)
    return PitPlan(tyre=tyre, fuel=fuel, repairs=tuple(repairs), long=long)


def common(race: Race, ask: Ask, strategy: Strategy = DEFAULT) -> Decision | None:
    """The decisions every bot takes alike, after its strategy (None for turn and move
    questions)."""
    if isinstance(ask, SetupQuestion):
        if ask.t_car:
            return SetupChoice(T_CAR_SETUP, tyre_for(race, strategy))
        return setup_choice(race, strategy)
    if isinstance(ask, BidQuestion):
        return BidChoice(max(0, min(5, ask.karma - race.ruleset.karma_reroll_cost)))
    if isinstance(ask, BoxQuestion):
        return box_choice(ask)
    if isinstance(ask, KarmaQuestion):
        return karma_choice(ask)
    if isinstance(ask, PitQuestion):
        return PitChoice(pit_plan(race, ask.car, strategy))
    return None


def in_pit_lane(race: Race, car: str) -> bool:
    return race.track.spaces[race.cars[car].space].kind is not SpaceKind.TRACK
