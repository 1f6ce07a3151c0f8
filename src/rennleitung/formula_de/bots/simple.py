"""The simple bot: a plain driver who reads the room before the next stop and the dice's range.

Gear: the highest gear whose die fits the room before the stop that is due (its mean, and its
top face with a few brake points to spare), looked up in the per-track tables of
``track_info``; no move is generated to choose it. It never skips gears it needs the fuel for,
never boosts, and caps the gear at the pit lane's limit when it wants to pit (Dresden
"Boxenstopp"). Move: the farthest option it can afford under a fixed cost per wear point and
test. Setup, box, pit and karma come from ``base`` like every bot's.
"""

from __future__ import annotations

from dataclasses import dataclass

from rennleitung.formula_de.bots.base import common, fuel_needed, in_pit_lane, pit_plan, wants_pit
from rennleitung.formula_de.bots.track_info import track_info
from rennleitung.formula_de.car import WearArea
from rennleitung.formula_de.dice import GEAR_DICE
from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import Decision, MoveChoice, TurnChoice
from rennleitung.formula_de.race_gears import gears_skipped, skip_cost
from rennleitung.formula_de.race_questions import Ask, MoveQuestion, TurnQuestion
from rennleitung.formula_de.track import SpaceKind

REACH: tuple[tuple[int, float, int], ...] = tuple(
    (gear, float(die.mean), die.maximum) for gear, die in sorted(GEAR_DICE.items(), reverse=True)
)
"""(gear, mean roll, top face), highest gear first: the table the simple bot shifts by."""

SPARE_BRAKES = 2
"""Brake points the simple bot will spend on a top roll (Masters 11: braking shortens a move)."""

COST = {
    "brakes": 1.0,
    "tyres": 2.5,
    "test": 4.0,
    "spin": 25.0,
    "last_tyre": 60.0,
    "squeeze": 2.5,
}
"""What the simple bot's move rule charges, in spaces: per brake and tyre point, per black-die
test (road holding, collision, wall), a spin, running the tyres down to 0 (Masters 10-3: the
next overshoot eliminates), and per space by which the next free downshift's average roll
overruns the room before the next stop (Masters 6-2: one gear down is free)."""

MEAN = {gear: mean for gear, mean, _ in REACH}


TOP = {gear: top for gear, _, top in REACH}

IN_CORNER = 3
"""Room left after an average roll at which the car is taken to end in the corner itself."""


def target_gear(room: int, spare: int) -> int:
    """The highest gear whose mean fits ``room``, whose top face fits with ``spare`` brake
    points, and after whose average roll the next lower gear (the free downshift) still fits
    the room that is left, unless that roll already ends in the corner."""
    for gear, mean, top in REACH:
        left = room - mean
        if left < 0 or top > room + spare:
            continue
        if gear == 1 or left <= IN_CORNER or TOP[gear - 1] <= left + spare:
            return gear
    return 1


def move_cost(option: MoveOption, tyres: int) -> float:
    """Wear and tests of a move, in spaces (the simple bot's cost rule)."""
    tests = len(option.dangerous) + len(option.contacts) + option.wall_tests
    cost = option.brakes * COST["brakes"] + option.tyres * COST["tyres"] + tests * COST["test"]
    if option.spin:
        cost += COST["spin"]
    if option.tyres and option.tyres >= tyres:
        cost += COST["last_tyre"]
    return cost


@dataclass
class SimpleBot:
    """A rule-of-thumb driver: table gears, farthest affordable move."""

    name: str = "simple"

    def decide(self, race: Race, ask: Ask) -> Decision:
        found = common(race, ask)
        if found is not None:
            return found
        if isinstance(ask, TurnQuestion):
            return self.turn(race, ask)
        assert isinstance(ask, MoveQuestion)
        return MoveChoice(self.move(race, ask.car, ask.moves).path)

    def turn(self, race: Race, ask: TurnQuestion) -> TurnChoice:
        car = ask.car
        state = race.cars[car]
        info = track_info(race.track)
        space = race.track.spaces[state.space]
        owed = space.corner and state.corner_stops < race.track.corners[space.corner - 1].stops
        room = info.room_here[state.space] if owed else info.room_next[state.space]
        effects = state.profile.effects_at(in_pit_lane=in_pit_lane(race, car))
        room -= effects.movement + race.ruleset.tyre(state.tyre).movement_malus(state.set_lap)
        room -= 1 if ask.soft_bonus else 0
        brakes = state.wear[WearArea.BRAKES]
        target = target_gear(room, min(SPARE_BRAKES, max(brakes - 1, 0)))
        pitting = ask.pit_plans and wants_pit(race, car)
        cap = race.ruleset.pit_lane_max_gear if pitting else None
        if cap is not None:
            target = min(target, cap)
        spare_fuel = state.wear[WearArea.FUEL] - fuel_needed(race, car)
        gears = [
            g
            for g in ask.gears
            if not gears_skipped(state.gear, g)
            or skip_cost(race.ruleset, state.gear, g).get(WearArea.FUEL, 0) <= spare_fuel
        ] or list(ask.gears)
        fitting = [g for g in gears if g <= target]
        gear = max(fitting) if fitting else min(gears)
        plan = pit_plan(race, car) if pitting and race.info[car].pit_plan is None else None
        return TurnChoice(gear=gear, soft_bonus=ask.soft_bonus, pit=plan)

    def move(self, race: Race, car: str, moves: tuple[MoveOption, ...]) -> MoveOption:
        track = race.track
        info = track_info(track)
        state = race.cars[car]
        pitting = wants_pit(race, car)
        tyres = state.wear[WearArea.TYRES]
        on_track = track.spaces[state.space].kind is SpaceKind.TRACK
        next_roll = MEAN[max(state.gear - 1, 1)]

        def value(option: MoveOption) -> float:
            if option.eliminated is not None:
                return -1000.0
            end = track.spaces[option.end]
            gain = end.height + option.laps * track.lap_rows
            if option.pit or end.kind is not SpaceKind.TRACK:
                return gain + (15.0 if pitting else -200.0) if on_track else gain
            owed = end.corner and option.corner_stops < track.corners[end.corner - 1].stops
            room = info.room_here[option.end] if owed else info.room_next[option.end]
            squeeze = max(0.0, next_roll - room) * COST["squeeze"]
            return gain - move_cost(option, tyres) - squeeze

        return max(moves, key=lambda o: (value(o), o.path))
