"""Pit stops: the announcement a driver may make (Dresden "Boxenstopp"), the work on arrival
(work points rolled off in the box, Dresden; or the quick and long stops of Masters 19), and
driving out of the box.
"""

from __future__ import annotations

import math
from dataclasses import replace

from rennleitung.formula_de.car import CarStatus, WearArea
from rennleitung.formula_de.dice import RollPurpose
from rennleitung.formula_de.events import EventKind
from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.moves import Choices
from rennleitung.formula_de.race.core import Flow, RaceCore
from rennleitung.formula_de.race_decisions import PitChoice, plan_to_data
from rennleitung.formula_de.race_pit import (
    MASTERS_REPAIRABLE,
    REPAIRABLE,
    clamp_plan,
    do_work,
    max_repairs,
    plan_points,
)
from rennleitung.formula_de.race_questions import PitQuestion
from rennleitung.formula_de.race_retirement import Retirement
from rennleitung.formula_de.ruleset import PitSystem
from rennleitung.formula_de.track import SpaceKind


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


class PitPhase(RaceCore):
    """From the announcement to the pit exit."""

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
