"""Before the start (Dresden "Rennen", "Qualifizierung", "Wetter"; Masters 4, 5): the grid, the
race-start weather, the setups and the boxes; and the T-car, a second setup of a car already out
(Dresden "Ausfälle", "Neustart").
"""

from __future__ import annotations

from dataclasses import replace

from rennleitung.formula_de.car import CarStatus, Wear, WeatherState
from rennleitung.formula_de.dice import RollPurpose
from rennleitung.formula_de.events import EventKind
from rennleitung.formula_de.position import CarState
from rennleitung.formula_de.race.core import Flow, RaceCore
from rennleitung.formula_de.race_decisions import BoxChoice, SetupChoice
from rennleitung.formula_de.race_questions import BoxQuestion, SetupQuestion
from rennleitung.formula_de.race_setup import draw_grid
from rennleitung.formula_de.race_state import STANDARD_SETUP, CarInfo
from rennleitung.formula_de.ruleset import PreRaceOrder

T_CAR_SETUP = Wear(tyres=4, brakes=4, fuel=4, body=3, engine=3, road_holding=2, box=0)
"""The T-car setup offered: 20 points (Dresden "Ausfälle": the T-car has 2 points less)."""


class SetupPhase(RaceCore):
    """The race from its creation to the first round; the T-car."""

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
