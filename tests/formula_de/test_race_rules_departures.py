"""Issue 11: the departures from the Dresden and Masters texts, one scene each.

Every test puts cars where the rule decides the outcome and scripts the dice; each failed
before its fix. Helpers and Monaco facts as in ``test_race_rules`` (boxes BOX1–BOX11 lie
before the line, which the pit lane crosses between P15 and P16).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rennleitung.formula_de.car import CarStatus, Tyre
from rennleitung.formula_de.dice import RollPurpose, ScriptedDice
from rennleitung.formula_de.event_text import render
from rennleitung.formula_de.events import EventKind
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import (
    AskKind,
    BoxChoice,
    KarmaAction,
    KarmaChoice,
    PitChoice,
    PitPlan,
    SetupChoice,
    TurnChoice,
)
from rennleitung.formula_de.race_retirement import Retirement
from rennleitung.formula_de.race_run import run_bot_race
from rennleitung.formula_de.race_setup import Entry, RaceConfig
from rennleitung.formula_de.record import record_from_data, record_of
from rennleitung.formula_de.replay import verify

from .test_race_rules import (
    MONACO,
    SETUP,
    SUN,
    _wrecked,
    go,
    pick,
    place,
    retirement,
    sp,
    start,
)


def test_fresh_tyres_fitted_before_the_line_start_their_first_lap_at_the_line() -> None:
    """Masters 8-4-1: the box lies before the line, so the fresh soft set is on its first lap
    once the car has crossed the line in the pit lane, and keeps its +1 in the sun."""
    race = start([SUN, 4, 12, 10], ruleset="masters-2002")
    place(race, "a", "P1", gear=2, crossings=2, tyre=Tyre.HARD, tyre_laps=1)
    race = go(race)
    race.apply(TurnChoice(2))
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        pick(race, lambda o: o.pit)
    assert race.pending is not None and race.pending.kind is AskKind.PIT
    race.apply(PitChoice(PitPlan(tyre=Tyre.SOFT, long=True)))
    race.apply(TurnChoice(4))  # next round out of the box: 12 spaces, BOX1 to P16
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        pick(race, lambda o: o.spaces_moved == 12)
    car = race.cars["a"]
    assert car.space == sp("P16") and race.laps_done("a") == 2
    assert car.tyre is Tyre.SOFT and car.set_lap == 1
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.TURN and ask.soft_bonus


def test_the_cars_touching_a_car_eliminated_by_blocking_roll_an_aggravated_test() -> None:
    """Masters 12-1-2, 12-1-5, 20-2-2; Dresden "Ausfälle" (+1 with a wreck): m, blocked without
    brakes, is out on A3; f in front loses its body point without rolling, s beside the wreck
    rolls an aggravated collision test (lost on 1–2 in the sun) and loses a point on a 2."""
    race = start([SUN, 1, 1, 4, 2], cars=("m", "f", "s"))
    for car, space in (("f", "A4"), ("s", "B3")):
        place(race, car, space, gear=0, crossings=2, status=CarStatus.SPUN)
        race.set(car, needs_start=True)  # both stall again on their restart roll
    place(race, "m", "A3", gear=1, crossings=2, wear=replace(SETUP, brakes=0))
    race = go(race)
    race.apply(TurnChoice(2))
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.KARMA and ask.car == "s"
    race.apply(KarmaChoice(KarmaAction.NONE))
    assert retirement(race, "m") is Retirement.BLOCKED
    assert race.cars["f"].wear.body == 2  # the car in front, no roll
    tests = [e for e in race.events if e.kind is EventKind.TEST]
    assert [(e.car, e.get("limit")) for e in tests] == [("s", 2)]
    assert race.cars["s"].wear.body == 2


@pytest.mark.parametrize("ruleset", ["dresden-2006", "masters-2002"])
def test_a_car_whose_engine_just_blew_can_be_slipstreamed(ruleset: str) -> None:
    """Masters 16-0-5, 18-1-8: b rolls 20 in 5th to A129 and loses its last engine point in the
    engine test; before its roll-out move it is still a car to slipstream, so a, in 5th,
    ending on A128 directly behind it, may take the three spaces."""
    race = start([SUN, 20, 1, 20, 15], cars=("b", "a"), ruleset=ruleset)
    place(race, "b", "A109", gear=4, crossings=2, corner_stops=2, wear=replace(SETUP, engine=1))
    place(race, "a", "A108", gear=4, crossings=2, corner_stops=2, wear=replace(SETUP, brakes=9))
    race = go(race)
    race.apply(TurnChoice(5))
    pick(race, lambda o: o.end == sp("A129") and o.brakes == 0)
    assert race.info["b"].rolling_out is Retirement.ENGINE
    race.apply(TurnChoice(5))
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.MOVE
    assert any(o.slipstreams and o.path[len(o.path) - 4] == sp("A128") for o in ask.moves)


def test_masters_inertia_goes_round_the_car_ahead_and_rolls_its_own_collision_test() -> None:
    """Masters 16-0-3, 20-4-2 ("as far as possible", 12-1-3), 14-4 and 16-0-4: b, whose engine
    blew in 5th, rolls 7 in 4th from A121; c stands on A127. b goes all 7 spaces round c to
    B125 instead of braking behind it, and as the causing car rolls its own collision test
    after c's, at normal odds (lost on 1 only)."""
    race = start([SUN, 2, 7, 15, 15], cars=("c", "b"), ruleset="masters-2002")
    place(race, "c", "A125", gear=0, crossings=2, status=CarStatus.STALLED)
    place(race, "b", "A121", gear=5, crossings=2, corner_stops=2)
    race.set("b", rolling_out=Retirement.ENGINE, inertia=True, retirement=Retirement.ENGINE)
    race = go(race)
    race.apply(TurnChoice(1))  # c: stalled, moves off in 1st and rolls 2
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        pick(race, lambda o: o.end == sp("A127"))
    move = [e for e in race.events if e.kind is EventKind.MOVE and e.car == "b"][-1]
    assert (move.get("spaces"), move.get("end")) == (7, "B125")
    assert race.cars["b"].wear.brakes == SETUP.brakes
    tests = [e for e in race.events if e.kind is EventKind.TEST]
    assert [(e.car, e.get("limit")) for e in tests] == [("c", 1), ("b", 1)]


@pytest.mark.parametrize(
    ("ruleset", "status"), [("dresden-2006", CarStatus.WRECK), ("masters-2002", CarStatus.OUT)]
)
def test_a_car_out_on_road_holding_stays_as_a_wreck_in_dresden(
    ruleset: str, status: CarStatus
) -> None:
    """Dresden "Ausfälle": "Alle ausgefallenen Autos bleiben solange auf der Strecke, bis alle
    anderen Fahrer diese passiert haben", whatever retired them; Masters 20-5-2 removes a car
    out on road holding at once. a loses its last road-holding point on the dangerous A9 with b
    still behind it."""
    race = start([SUN, 4, 1], cars=("a", "b"), ruleset=ruleset)
    place(race, "a", "A5", gear=2, crossings=2, wear=replace(SETUP, road_holding=1))
    place(race, "b", "A2", gear=2, crossings=2)
    race.danger("A9")
    race = go(race)
    race.apply(TurnChoice(2))
    pick(race, lambda o: o.end == sp("A9"))
    assert retirement(race, "a") is Retirement.ROAD_HOLDING
    assert race.cars["a"].status is status and race.cars["a"].space == sp("A9")


def test_a_car_left_standing_in_its_box_is_offered_no_fifth_gear() -> None:
    """Dresden "Boxenstopp": "In die Boxengasse hinein und in der Boxengasse darf maximal mit
    dem 4.Gang gefahren werden". The last 4th-gear roll works off the pit points exactly, so
    the car leaves the box with 0 spaces and still stands in it next round: no 5th gear."""
    race = start([SUN, 7])
    place(race, "a", "BOX1", gear=4, crossings=2, status=CarStatus.IN_PIT)
    race.set("a", pit_points=7)
    race = go(race)
    assert race.cars["a"].space == sp("BOX1") and race.cars["a"].status is CarStatus.RUNNING
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.TURN and ask.car == "a"
    assert max(ask.gears) == 4


def test_a_missed_quick_stop_leaves_its_roll_in_the_log() -> None:
    """Masters 19-3 (quick stop: 1–10 out at once, 11–20 next round): the black-die roll is an
    event naming the car, so a missed quick stop (15) can be read in the log."""
    race = start([SUN, 4, 15], ruleset="masters-2002")
    place(race, "a", "C151", gear=3, crossings=2)
    race = go(race)
    race.apply(TurnChoice(3))
    pick(race, lambda o: o.pit)
    race.apply(PitChoice(PitPlan(tyre=Tyre.HARD)))
    (roll,) = [e for e in race.events if e.kind is EventKind.QUICK_STOP]
    assert (roll.car, roll.get("result"), roll.get("limit")) == ("a", 15, 10)
    assert "15" in render(roll, "en") and not any(e.kind is EventKind.PIT_OUT for e in race.events)


def test_every_roll_names_the_car_that_rolled_it() -> None:
    """Issue 11 item 13: the dice history, the record's rolls and the weather and grid events
    name the car; the pole sitter rolls the weather (Dresden "Rennen")."""
    race = run_bot_race("monaco", "dresden-2006", 3, 1, "who", "simple")
    assert all(roll.car in race.cars for roll in race.dice.history)
    rolls = record_of(race, "who")["summary"]["rolls"]
    assert all(len(r) == 4 and r[3] in race.cars for r in rolls)
    weather = next(e for e in race.events if e.kind is EventKind.WEATHER)
    assert weather.car == race.grid_order[0]
    drawn = [d for e in race.events if e.kind is EventKind.GRID for d in e.get("draws") or []]
    draw_rolls = [r.result for r in race.dice.history if r.purpose == RollPurpose.GRID_DRAW]
    assert draw_rolls and sorted(drawn) == sorted(draw_rolls)


def test_a_record_whose_rolls_do_not_name_the_car_still_verifies() -> None:
    """Records from before rules version 12 hold ``[die, purpose, result]``; they compare on
    those three."""
    race = run_bot_race("monaco", "dresden-2006", 2, 1, "old", "simple")
    data = record_of(race, "old")
    old_rolls = [r[:3] for r in data["summary"]["rolls"]]
    verdict = verify(record_from_data({**data, "summary": {**data["summary"], "rolls": old_rolls}}))
    assert verdict.honest, verdict.problems


def test_a_complete_restart_offers_t_cars_on_the_original_grid_slots() -> None:
    """Dresden "Neustart": before the leader reaches the fourth corner the race restarts from
    the grid, and "T-Cars dürfen auf die ursprüngliche Position der Fahrer gestellt werden":
    every driver whose car was wrecked before is offered one (one per team), on his grid slot,
    with a start roll like everyone."""
    race = _wrecked_before_the_fourth_corner()
    offered = []
    while race.pending is not None and race.pending.kind is AskKind.SETUP:
        ask = race.pending
        assert getattr(ask, "t_car", False)
        offered.append(ask.car)
        race.apply(SetupChoice(replace(SETUP, box=0, tyres=4), Tyre.HARD))
    assert offered == ["w1", "w2", "w3", "w4"]
    for car in offered:
        state = race.cars[car]
        assert state.status is CarStatus.RUNNING and retirement(race, car) is None
        assert state.space == MONACO.grid[race.info[car].grid - 1]
        assert race.info[car].needs_start


def _wrecked_before_the_fourth_corner() -> Race:
    """``test_race_rules._wrecked(0)``: four wrecks close the track in round 1, a first lap."""
    race = _wrecked(0)
    assert EventKind.RESTART in [e.kind for e in race.events]
    return race


@pytest.mark.parametrize(
    ("ruleset", "asked"), [("dresden-open", ["a", "b"]), ("dresden-2006", ["a"])]
)
def test_in_the_open_every_driver_chooses_his_own_box(ruleset: str, asked: list[str]) -> None:
    """Dresden Open "Rennen": "Jeder Fahrer wählt ... eine Box"; the 2006 season: "Jede
    Mannschaft wählt ... eine Box". a and b drive for one team."""
    config = RaceConfig(
        track="monaco",
        ruleset=ruleset,
        entries=(Entry(id="a", name="A", team="T"), Entry(id="b", name="B", team="T")),
        qualifying=("a", "b"),
    )
    race = Race(config, ScriptedDice([SUN, 10, 10]))
    while race.pending is not None and race.pending.kind is AskKind.SETUP:
        race.apply(SetupChoice(SETUP, Tyre.HARD))
    boxes = []
    while race.pending is not None and race.pending.kind is AskKind.BOX:
        boxes.append(race.pending.car)
        race.apply(BoxChoice(race.pending.boxes[0]))
    assert boxes == asked
    assert (race.cars["a"].box == race.cars["b"].box) is (len(asked) == 1)
