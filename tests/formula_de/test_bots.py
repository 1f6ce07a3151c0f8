"""Bots: legal answers to every question, sensible gears before corners, room tables, pit plans."""

from __future__ import annotations

from dataclasses import replace

from rennleitung.formula_de.bots import make_bot
from rennleitung.formula_de.bots.base import pit_plan, wants_pit
from rennleitung.formula_de.bots.track_info import track_info
from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.car import CarStatus, Tyre, Wear
from rennleitung.formula_de.dice import ScriptedDice
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import AskKind, BoxChoice, SetupChoice, TurnChoice
from rennleitung.formula_de.race_pit import check_plan
from rennleitung.formula_de.race_setup import Entry, RaceConfig

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


def placed(space: str, gear: int, **wear: int) -> Race:
    config = RaceConfig("monaco", "dresden-2006", (Entry("a"),), qualifying=("a",))
    race = Race(config, ScriptedDice([10]), track=MONACO)
    race.apply(SetupChoice(SETUP, Tyre.HARD))
    race.cars["a"] = replace(
        race.cars["a"], space=MONACO.space(space), gear=gear, wear=replace(SETUP, **wear)
    )
    race.info["a"].needs_start = False
    race.info["a"].crossings = 1
    race.apply(BoxChoice(1))
    return race


def turn(race: Race, bot: str) -> TurnChoice:
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.TURN
    choice = make_bot(bot).decide(race, ask)
    assert isinstance(choice, TurnChoice)
    return choice


def test_strong_bot_slows_down_before_a_corner_and_speeds_up_on_a_straight() -> None:
    assert turn(placed("A4", gear=4), "strong").gear <= 3  # 7 rooms to the end of corner 1
    assert turn(placed("A12", gear=4), "strong").gear == 5  # 12 straight spaces ahead


def test_bots_pick_a_gear_that_is_offered() -> None:
    for bot in ("simple", "strong"):
        race = placed("A40", gear=5, fuel=0)
        ask = race.pending
        assert ask is not None
        assert turn(race, bot).gear in ask.gears


def test_pit_plan_is_legal_and_wanted_when_tyres_are_gone() -> None:
    race = placed("C140", gear=3, tyres=1, fuel=1)
    race.info["a"].crossings = 2
    assert wants_pit(race, "a")
    plan = pit_plan(race, "a")
    check_plan(race.ruleset, race.cars["a"], race.info["a"].start_wear, plan)
    assert plan.tyre is Tyre.HARD and plan.fuel >= 1


def test_no_pit_on_the_last_lap() -> None:
    race = placed("C140", gear=3, tyres=1)
    race.info["a"].crossings = 3
    assert not wants_pit(race, "a")


def test_bots_answer_every_question_of_a_race() -> None:
    from rennleitung.formula_de.race_run import run_bot_race

    for bots in ("simple", "strong"):
        race = run_bot_race("monaco", "dresden-2006", 6, 1, f"bots-{bots}", bots)
        assert race.finished
        kinds = {type(d).__name__ for _, d in race.decisions}
        assert {"SetupChoice", "BoxChoice", "TurnChoice", "MoveChoice"} <= kinds
        assert all(s.status is not CarStatus.RUNNING for s in race.cars.values())
