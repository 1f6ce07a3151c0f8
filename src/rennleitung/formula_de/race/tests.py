"""The tests with the black die: road holding, wall, collision and engine (Dresden
"Verschleiß"; Masters 14, 16), karma to save a failed test (Dresden "Karmapool"), and the point a
lost test costs, the last of which retires the car.
"""

from __future__ import annotations

from rennleitung.formula_de.car import CarStatus, WearArea
from rennleitung.formula_de.dice import RollPurpose
from rennleitung.formula_de.events import Cause, EventKind
from rennleitung.formula_de.race.core import RACING, Check, Flow, RaceCore
from rennleitung.formula_de.race_decisions import KarmaAction, KarmaChoice
from rennleitung.formula_de.race_ledger import KarmaReason
from rennleitung.formula_de.race_order import order_of_play
from rennleitung.formula_de.race_questions import KarmaQuestion
from rennleitung.formula_de.race_retirement import Retirement

_KARMA_TESTS = frozenset(
    {RollPurpose.ROAD_HOLDING, RollPurpose.COLLISION, RollPurpose.WALL, RollPurpose.ENGINE}
)
"""Dresden Karmapool: body (collision and wall), engine and road-holding checks may be changed
with karma."""


class ChecksPhase(RaceCore):
    """Black-die tests and what a lost one costs."""

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
