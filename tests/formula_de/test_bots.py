"""Bots: legal answers to every question, sensible gears before corners, room tables, pit plans."""

from __future__ import annotations

from dataclasses import replace
from typing import NoReturn

import pytest

from rennleitung.formula_de import movegen, moves
from rennleitung.formula_de.bots import BOTS, make_bot
from rennleitung.formula_de.bots.base import fuel_needed, pit_plan, wants_pit
from rennleitung.formula_de.bots.refuel import (
    DRY,
    box_distance,
    reach_odds,
    rollout_gears,
)
from rennleitung.formula_de.bots.simple import target_gear
from rennleitung.formula_de.bots.strong import StrongBot, fuel_penalty
from rennleitung.formula_de.bots.track_info import track_info
from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.car import BLITZ_SETUP, CarStatus, Tyre, Wear
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import (
    AskKind,
    MoveChoice,
    TurnChoice,
)
from rennleitung.formula_de.race_pit import check_plan
from rennleitung.formula_de.race_setup import Entry
from tests.formula_de.scene import scene

MONACO = builtin_track("monaco")
SETUP = Wear(tyres=5, brakes=4, fuel=4, body=3, engine=3, road_holding=2, box=1)


def test_room_before_a_stop_follows_the_lane_on_straights() -> None:
    info = track_info(MONACO)
    a5 = MONACO.space("A5")
    assert info.next_corner[a5] == 1
    # A6 … A8 in lane (no zig-zag on the straight), then the corner's arrows: A9, B10, C11 …
    assert info.room(a5, 1) == 7
    assert info.room(MONACO.space("A9"), 1) == 3
    assert info.room(MONACO.space("A11"), 1) == 0  # one more space leaves corner 1


def placed(
    space: str, gear: int, rolls: tuple[int, ...] = (), crossings: int = 1, **wear: int
) -> Race:
    """Car a alone on Monaco, under way on ``space`` in ``gear`` (``scene.py``)."""
    entries = (Entry("a"),)
    race = scene(("a",), [10, *rolls], board=MONACO, setup=SETUP, entries=entries)
    race.set("a", needs_start=False, crossings=crossings)
    race.set("a", space=MONACO.space(space), gear=gear, wear=replace(SETUP, **wear))
    return race.race()


def turn(race: Race, bot: str) -> TurnChoice:
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.TURN
    choice = make_bot(bot).decide(race, ask)
    assert isinstance(choice, TurnChoice)
    return choice


def test_strong_bot_slows_down_before_a_corner_and_speeds_up_on_a_straight() -> None:
    assert turn(placed("A4", gear=4), "strong").gear <= 3  # 8 in lane to the end of corner 1
    assert turn(placed("A12", gear=4), "strong").gear == 5  # 12 straight spaces ahead


def test_strong_bot_checks_its_best_gears_with_the_real_moves() -> None:
    # From A4 the sketch (in lane, 8 spaces to the end of corner 1) makes 4th look risky, but
    # the move generator finds ways through the corner's arrows (Masters 7-1-4) that end in
    # it after any roll of 4th gear without braking: the exact look keeps 4th, the sketch not.
    race = placed("A4", gear=4)
    ask = race.pending
    assert ask is not None
    assert turn(race, "strong").gear == 3
    exact = StrongBot(exact=2).decide(race, ask)
    assert isinstance(exact, TurnChoice) and exact.gear == 4


def test_strong_bot_weighs_the_top_face_where_the_mean_looks_safe() -> None:
    # Room 7 before the end of corner 1, no brakes, no tyres: 3rd gear's 8 would overshoot and
    # eliminate (Masters 10-3) though its mean (6) fits; only the strong bot sees that face.
    race = placed("A5", gear=4, brakes=0, tyres=0)
    assert turn(race, "steady").gear == 3
    assert turn(placed("A5", gear=4, brakes=0, tyres=0), "strong").gear == 2


def test_simple_gear_table() -> None:
    assert target_gear(60, 2) == 6  # 6th, and 5th still fits what is left after it
    assert target_gear(30, 2) == 5  # 6th's average roll would leave 4.5 spaces for 5th's 11+
    assert target_gear(8, 2) == 3  # 4th's mean (9.5) is beyond the room
    assert target_gear(0, 0) == 1


def test_simple_bot_reads_the_room_and_spares_the_fuel_it_needs() -> None:
    assert turn(placed("A4", gear=4), "simple").gear == 3  # 8 spaces to the end of corner 1
    assert turn(placed("A12", gear=4), "simple").gear == 4  # 19: 5th's 20 would overshoot
    race = placed("A4", gear=5)
    assert turn(race, "simple").gear == 3  # skipping 4th costs a fuel point it can spare
    tight = placed("A4", gear=5, fuel=fuel_needed(race, "a"))
    assert turn(tight, "simple").gear == 4  # no fuel to spare: the free downshift only


def test_simple_bot_does_not_generate_moves_to_pick_a_gear(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> NoReturn:
        raise AssertionError("the simple bot asked the move generator")

    race = placed("A12", gear=4)
    for module in (movegen, moves):
        for name in ("generate_moves", "generate_moves_for_rolls", "legal_moves"):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, refuse)
    assert turn(race, "simple").gear == 4


def test_simple_bot_moves_as_far_as_it_can_afford() -> None:
    race = placed("A12", gear=4, rolls=(12,))
    race.apply(TurnChoice(gear=4))
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.MOVE
    choice = make_bot("simple").decide(race, ask)
    assert isinstance(choice, MoveChoice)
    chosen = next(o for o in ask.moves if o.path == choice.path)
    free = [o for o in ask.moves if not (o.brakes or o.tyres or o.eliminated)]
    assert chosen in free
    farthest = max(MONACO.spaces[o.end].height for o in free)
    assert MONACO.spaces[chosen.end].height == farthest


def test_bots_pick_a_gear_that_is_offered() -> None:
    for bot in BOTS:
        race = placed("A40", gear=5, fuel=0)
        ask = race.pending
        assert ask is not None
        assert turn(race, bot).gear in ask.gears


def test_pit_plan_is_legal_and_wanted_when_tyres_are_gone() -> None:
    race = placed("C140", gear=3, tyres=1, fuel=1, crossings=2)
    assert wants_pit(race, "a")
    plan = pit_plan(race, "a")
    check_plan(race.ruleset, race.cars["a"], race.info["a"].start_wear, plan)
    assert plan.tyre is Tyre.HARD and plan.fuel >= 1


def test_no_pit_on_the_last_lap() -> None:
    race = placed("C140", gear=3, tyres=1, crossings=3)
    assert not wants_pit(race, "a")


def test_bots_answer_every_question_of_a_race() -> None:
    from rennleitung.formula_de.race_run import run_bot_race

    for bots in BOTS:
        race = run_bot_race("monaco", "dresden-2006", 6, 1, f"bots-{bots}", bots)
        assert race.finished
        kinds = {type(d).__name__ for _, d in race.decisions}
        assert {"SetupChoice", "BoxChoice", "TurnChoice", "MoveChoice"} <= kinds
        assert all(s.status is not CarStatus.RUNNING for s in race.cars.values())


def blitz(space: str, gear: int, crossings: int, fuel: int, stops: int = 0) -> Race:
    """An FD Blitz race (one fuel point, Dresden "FD Blitz") with car a on ``space``; car b is
    home already."""
    entries = (Entry("a", "A", karma=0), Entry("b", "B", karma=0))
    race = scene(("a", "b"), [10], ruleset="fd-blitz", board=MONACO, setup=BLITZ_SETUP,
                 entries=entries)
    race.place("b", "A100", status=CarStatus.FINISHED)
    race.place("a", space, crossings=crossings, gear=gear, corner_stops=stops,
               wear=replace(BLITZ_SETUP, fuel=fuel))
    return race.race()


def test_the_blitz_fuel_point_must_last_lap_one() -> None:
    race = blitz("A60", gear=4, crossings=1, fuel=1)
    assert race.laps_done("a") == 0
    assert fuel_penalty(race, "a", 0) == DRY  # no box after lap 1 (Masters 19-2-4)
    race = blitz("A60", gear=4, crossings=2, fuel=1)
    assert fuel_penalty(race, "a", 0) < DRY  # after lap 2 the box refuels


def test_the_odds_of_rolling_into_the_box() -> None:
    box = MONACO.boxes[0]
    dist = box_distance(MONACO, box)
    assert dist[MONACO.space("C153")] == 2  # C153 → P3 → BOX1
    assert dist[MONACO.space("C154")] > 100  # past the last pit entry: a lap round
    assert rollout_gears(4) == (3, 2, 1)
    assert reach_odds(0, ()) == 1.0 and reach_odds(7, (2, 1)) == 0.0
    assert reach_odds(9, (4, 3, 2, 1)) == pytest.approx(1.0)
    assert 0.6 < reach_odds(11, (3, 2, 1)) < 0.7


def test_a_dry_blitz_car_leaves_the_last_corner_fast_enough_for_its_box() -> None:
    """End of lap 2, no fuel, the stop in corner 10 made: 4th at most in the pit lane
    (Dresden "Boxenstopp"), announced before the roll, refuelled for the last lap."""
    race = blitz("C145", gear=3, crossings=2, fuel=0, stops=1)
    ask = race.pending
    assert ask is not None and ask.pit_plans and ask.gears == (2, 3, 4)
    choice = turn(race, "strong")
    assert choice.gear == 4 and not choice.boost
    assert choice.pit is not None and choice.pit.fuel >= 1
