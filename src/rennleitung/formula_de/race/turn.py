"""One car's turn in the Masters 6-3 sequence: the start roll (Dresden "Startwurf"; Masters
9), gear and skip costs, boost, the gear roll, the move (the movement layer's options, a
person's own path) and everything the chosen move brings: corners passed, laps, wear, the
road-holding and wall tests, the flag, a spin, the pit entry, contacts.
"""

from __future__ import annotations

from rennleitung.formula_de.car import CarStatus, WearArea
from rennleitung.formula_de.dice import RollPurpose
from rennleitung.formula_de.events import Cause, EventKind
from rennleitung.formula_de.movegen import generate_moves
from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.moves import Choices, request_for
from rennleitung.formula_de.race.core import RACING, Flow, Pick, RaceCore
from rennleitung.formula_de.race_decisions import MoveChoice, TurnChoice, plan_to_data
from rennleitung.formula_de.race_gears import gears_skipped, legal_gears, skip_cost
from rennleitung.formula_de.race_questions import MoveQuestion, TurnQuestion
from rennleitung.formula_de.race_retirement import FROM_ELIMINATION, Retirement
from rennleitung.formula_de.race_state import CornerPass
from rennleitung.formula_de.ruleset import EngineFailure, StartOutcome
from rennleitung.formula_de.track import SpaceKind


class TurnPhase(RaceCore):
    """One turn of one car, and the move it makes."""

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

    def _choose(self, car: str, options: list[MoveOption], roll: int) -> Pick:
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
