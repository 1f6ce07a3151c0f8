"""Round after round (Masters 6-2, 19-5): the round boundary where the race is its
``RaceState`` (and where a resumed race goes on), the secret head-to-head bids before a round
(Dresden "Kopf an Kopf"), the sweep of one round of play with its lapped cars (Masters 6-2-6),
and what happens at the end of a round: T-cars, weather rolls (Dresden "Wetter"), spun cars,
passed wrecks, the rounds led.
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator

from rennleitung.formula_de import rules_version
from rennleitung.formula_de.car import CarStatus
from rennleitung.formula_de.dice import RollPurpose
from rennleitung.formula_de.events import Event, EventKind
from rennleitung.formula_de.race.core import RACING, Answer, Flow, RaceCore, TurnCut
from rennleitung.formula_de.race_decisions import BidChoice, Decision, DecisionError
from rennleitung.formula_de.race_ledger import KarmaReason
from rennleitung.formula_de.race_log import Earlier, Log
from rennleitung.formula_de.race_order import (
    coordinate,
    laps_behind,
    level_groups,
    order_key,
    order_of_play,
    round_order,
    sweep_key,
)
from rennleitung.formula_de.race_questions import BidQuestion, Question
from rennleitung.formula_de.race_state import RaceState


class RoundPhase(RaceCore):
    """The rounds of the race, from one round boundary to the next."""

    def _rounds(self, resumed: bool = False) -> Flow:
        """Round after round until no car is left moving: the top of this loop is a round
        boundary, where the whole race is its ``RaceState`` (a race ``resumed`` there does not
        hand out the boundary it came from again)."""
        cfg = self.config
        while True:
            if not resumed and (self.keep_boundaries or self.config.table):
                boundary = self._boundary()
                if self.keep_boundaries:
                    self._boundaries.append(boundary)
                if self.config.table:  # the boundary before, for a take-back across this one
                    self._prev_base, self._prev_known = self._base, True
                self._base = boundary  # a table race rebuilds from here (race/table.py)
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
            with contextlib.suppress(TurnCut):  # Race.halt: the turn ends where it is
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
