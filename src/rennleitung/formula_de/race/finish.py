"""How a car's race ends, and the race's: the flag (Masters 21), retirements and the wrecks they
leave (Dresden "Ausfälle"; Masters 20), a failed engine or an empty tank rolling out (Masters
16-0), the classification, and the karma paid at the flag (Dresden "Karmapool").
"""

from __future__ import annotations

from dataclasses import dataclass

from rennleitung.formula_de.car import CarStatus
from rennleitung.formula_de.events import Cause, EventKind
from rennleitung.formula_de.karma_income import end_of_race_karma, laps_most_led
from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.moves import Choices
from rennleitung.formula_de.race.core import RACING, Flow, RaceCore
from rennleitung.formula_de.race_ledger import KarmaReason
from rennleitung.formula_de.race_retirement import LEAVES_WRECK, MARKS_DANGER, Retirement, rule_of
from rennleitung.formula_de.ruleset import EngineFailure
from rennleitung.formula_de.track import Track


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


class FinishPhase(RaceCore):
    """Finishing, retiring, rolling out; the classification and the end of the race."""

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
