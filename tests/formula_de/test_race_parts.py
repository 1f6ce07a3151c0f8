"""The race's small tables and functions: gears, order of play, grid draw, pit plans, events."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.car import Tyre, Wear, WearArea
from rennleitung.formula_de.event_text import TEMPLATES, render
from rennleitung.formula_de.events import EventKind, make_event
from rennleitung.formula_de.position import CarState
from rennleitung.formula_de.race_decisions import (
    BoxChoice,
    DecisionError,
    KarmaAction,
    KarmaChoice,
    MoveChoice,
    PitChoice,
    PitPlan,
    SetupChoice,
    TurnChoice,
    decision_from_data,
    decision_to_data,
)
from rennleitung.formula_de.race_gears import legal_gears
from rennleitung.formula_de.race_order import OrderItem, order_of_play
from rennleitung.formula_de.race_pit import all_plans, check_plan, plan_points
from rennleitung.formula_de.race_setup import draw_grid
from rennleitung.formula_de.ruleset import DRESDEN_2006, MASTERS_2002

MONACO = builtin_track("monaco")
WEAR = Wear(tyres=5, brakes=4, fuel=4, body=3, engine=3, road_holding=2, box=1)


def test_one_up_one_down_free_more_down_costs_and_never_sixth_to_first() -> None:
    assert legal_gears(DRESDEN_2006, 3, WEAR) == (1, 2, 3, 4)
    assert legal_gears(DRESDEN_2006, 6, WEAR) == (2, 3, 4, 5, 6)
    assert legal_gears(DRESDEN_2006, 0, WEAR) == (1,)


def test_no_skipping_without_fuel_or_the_points_to_pay() -> None:
    assert legal_gears(DRESDEN_2006, 5, replace(WEAR, fuel=0)) == (4, 5, 6)
    assert legal_gears(DRESDEN_2006, 5, replace(WEAR, brakes=0)) == (3, 4, 5, 6)


def test_pit_lane_caps_the_gear() -> None:
    assert legal_gears(DRESDEN_2006, 4, WEAR, max_gear=4) == (1, 2, 3, 4)


def item(car: str, space: str, gear: int = 3, arrived: int = 0, laps: int = 0) -> OrderItem:
    return OrderItem(car, MONACO.space(space), laps, gear, arrived)


def test_leader_first_then_higher_gear_then_first_arrived() -> None:
    name = "C22"
    assert MONACO.same_height(MONACO.space("A20"), MONACO.space(name))
    items = [
        item("slow", "A20", gear=2, arrived=1),
        item("fast", name, gear=4, arrived=2),
        item("lead", "A40"),
        item("back", "A5"),
    ]
    assert order_of_play(MONACO, items) == ["lead", "fast", "slow", "back"]
    tie = [item("second", "A20", gear=3, arrived=5), item("first", name, gear=3, arrived=4)]
    assert order_of_play(MONACO, tie) == ["first", "second"]


def test_a_lap_ahead_plays_first() -> None:
    items = [item("front", "A100"), item("lapper", "A10", laps=1)]
    assert order_of_play(MONACO, items) == ["lapper", "front"]


def test_pit_lane_cars_play_between_the_cars_past_the_entry_and_those_before() -> None:
    items = [item("before", "C140"), item("pit", "P5"), item("past", "C157")]
    assert order_of_play(MONACO, items) == ["past", "pit", "before"]


def test_grid_draw_higher_roll_first_and_ties_roll_again() -> None:
    rolls = iter([5, 12, 5, 3, 9])  # a 5, b 12, c 5; a and c tie and roll again: a 3, c 9
    order = draw_grid(["q"], ["a", "b", "c"], lambda car: next(rolls))
    assert order == ["q", "b", "c", "a"]


def test_dresden_pit_points_take_the_dearest_job() -> None:
    assert plan_points(DRESDEN_2006, PitPlan(tyre=Tyre.HARD, fuel=2), True) == 8
    assert plan_points(DRESDEN_2006, PitPlan(repairs=(WearArea.BODY,)), False) == 15


def test_pit_plans_respect_the_box_reserve_and_the_start_values() -> None:
    car = CarState(id="a", space=0, wear=replace(WEAR, body=1, fuel=2))
    check_plan(DRESDEN_2006, car, WEAR, PitPlan(fuel=2, repairs=(WearArea.BODY,)))
    with pytest.raises(DecisionError):
        check_plan(DRESDEN_2006, car, WEAR, PitPlan(repairs=(WearArea.BODY, WearArea.BODY)))
    with pytest.raises(DecisionError):
        check_plan(DRESDEN_2006, car, WEAR, PitPlan(fuel=3))
    with pytest.raises(DecisionError):
        check_plan(MASTERS_2002, car, WEAR, PitPlan(tyre=None))
    plans = all_plans(DRESDEN_2006, car, WEAR)
    assert PitPlan(tyre=Tyre.RAIN, fuel=2, repairs=(WearArea.BODY,)) in plans
    for plan in plans:
        check_plan(DRESDEN_2006, car, WEAR, plan)


@pytest.mark.parametrize(
    "decision",
    [
        SetupChoice(WEAR, Tyre.SOFT),
        BoxChoice(3),
        TurnChoice(4, boost=True, soft_bonus=True, launch=False, pit=PitPlan(Tyre.HARD, 1)),
        MoveChoice((MONACO.space("A1"), MONACO.space("B2"))),
        PitChoice(PitPlan(Tyre.RAIN, 0, (WearArea.BRAKES,), long=True)),
        KarmaChoice(KarmaAction.REROLL),
    ],
)
def test_decisions_round_trip_through_json(decision: object) -> None:
    data = decision_to_data(MONACO, decision)  # type: ignore[arg-type]
    assert decision_from_data(MONACO, data) == decision


def test_bad_decision_data_names_the_field() -> None:
    with pytest.raises(DecisionError) as error:
        decision_from_data(MONACO, {"kind": "move", "path": ["Z99"]}, "decisions[3]")
    assert error.value.where == "decisions[3].path[0]"


def test_every_event_kind_has_both_texts() -> None:
    assert set(TEMPLATES) == set(EventKind)
    event = make_event(1, 12, EventKind.ROLL, "a", {"driver": "Alonso", "gear": 5, "result": 17})
    assert render(event, "de") == "Spielrunde 12: Alonso schaltet in den 5. Gang und würfelt 17"
    assert render(event, "en") == "Round 12: Alonso shifts into gear 5 and rolls 17"
