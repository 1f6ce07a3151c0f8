"""FD Blitz on one fuel point over three laps (Dresden "FD Blitz": "1 VP Verbrauch", "Ansonsten
gelten alle normalen Regeln"; Dresden "Verschleiß": one fuel point per lap on leaving the last
corner, none left: rolling out, saved only by the box or the flag).

The first lap spends the only point, so leaving the last corner of lap 2 the car runs dry: it
rolls out and retires a lap short of the flag, unless it reaches its box and refuels (4 points,
Dresden "Boxenstopp"). Monaco: corner 10 (one stop) is C144–C147, the pit entry limit C153.
"""

from __future__ import annotations

from dataclasses import replace

from rennleitung.formula_de.car import BLITZ_SETUP, CarStatus, WearArea
from rennleitung.formula_de.events import EventKind
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import (
    AskKind,
    MoveChoice,
    PitPlan,
    TurnChoice,
)
from rennleitung.formula_de.race_retirement import Retirement
from rennleitung.formula_de.race_setup import Entry
from rennleitung.formula_de.ruleset import FD_BLITZ, PitSystem

from .scene import scene
from .test_race_rules import MONACO, SUN, go, place, sp


def test_the_blitz_preset_keeps_three_laps_one_fuel_point_and_pit_stops() -> None:
    assert FD_BLITZ.laps == 3 and FD_BLITZ.fuel_per_lap == 1
    assert FD_BLITZ.fixed_setup is not None and FD_BLITZ.fixed_setup.fuel == 1
    assert FD_BLITZ.pit_system is PitSystem.POINTS and FD_BLITZ.pit_refuel_points == 4


def on_lap_two_in_the_last_corner(rolls: list[int]) -> Race:
    """Car a has spent its fuel point on lap 1 and stands in the last corner of lap 2; car b is
    out of the way (already home)."""
    entries = (Entry("a", "A", karma=0), Entry("b", "B", karma=0))
    race = scene(
        ("a", "b"), [SUN, *rolls], ruleset="fd-blitz", board=MONACO, setup=BLITZ_SETUP,
        entries=entries,
    )
    place(race, "b", "A100", status=CarStatus.FINISHED)
    place(race, "a", "C146", gear=4, crossings=2, corner_stops=1, wear=replace(BLITZ_SETUP, fuel=0))
    race = go(race)
    return race


def move_to(race: Race, space: str) -> None:
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.MOVE
    race.apply(MoveChoice(next(o.path for o in ask.moves if o.end == sp(space))))


def test_without_a_stop_the_blitz_car_rolls_out_a_lap_short_of_the_flag() -> None:
    race = on_lap_two_in_the_last_corner([7, 4, 2, 1])
    race.apply(TurnChoice(4))
    move_to(race, "C153")  # past the last corner: no fuel left, rolling out from now on
    move_to(race, "C157")  # 3rd: past the pit entry
    move_to(race, "C159")  # 2nd
    while race.pending is not None and race.pending.kind is AskKind.MOVE:
        race.apply(MoveChoice(race.pending.moves[0].path))  # 1st
    assert race.info["a"].retirement is Retirement.FUEL
    assert race.laps_done("a") == 1
    gears = [e.get("gear") for e in race.events if e.kind is EventKind.ROLLING_OUT]
    assert gears == [3, 2, 1]


def test_a_refuelling_stop_at_the_end_of_lap_two_saves_the_blitz_car() -> None:
    race = on_lap_two_in_the_last_corner([7, 4, 8])
    race.apply(TurnChoice(4, pit=PitPlan(fuel=1)))  # announced before the roll: 4 points
    move_to(race, "C153")
    move_to(race, "BOX1")  # rolling out in 3rd, into the box: 2 spaces left over
    pit_in = next(e for e in race.events if e.kind is EventKind.PIT_IN)
    assert pit_in.get("points") == 2
    car = race.cars["a"]
    assert car.wear[WearArea.FUEL] == 1 and race.info["a"].rolling_out is None
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        race.apply(MoveChoice(race.pending.moves[0].path))  # out of the box with 8 − 2 spaces
    assert race.cars["a"].status is CarStatus.RUNNING
    assert race.info["a"].retirement is None
