"""The questions the texts leave open (issue 11), each decided in docs/formula_de/race.md
("Decisions where the sources are silent") and tested here."""

from __future__ import annotations

from dataclasses import replace

from rennleitung.formula_de.car import CarStatus, Weather
from rennleitung.formula_de.events import EventKind
from rennleitung.formula_de.movement import Elimination
from rennleitung.formula_de.race_decisions import AskKind, BidChoice, TurnChoice
from rennleitung.formula_de.race_retirement import Retirement

from .test_movement_support import alive, car, moves, path, position
from .test_race_rules import MONACO, SETUP, SUN, go, pick, place, start


def test_an_engine_that_fails_before_the_cars_own_turn_rolls_out_in_that_turn() -> None:
    """a's 20 in 5th makes b (5th, last engine point) fail its engine test before b has played
    this round: b's turn of this same round is its first roll-out move, in 4th (Dresden
    Ausfälle: "rollt in den darauffolgenden ... Gängen aus"; the car's next move)."""
    race = start([SUN, 20, 15, 1, 8, *([10] * 4)], cars=("a", "b"))
    place(race, "a", "A60", gear=4, wear=replace(SETUP, brakes=9))
    place(race, "b", "A20", gear=5, wear=replace(SETUP, engine=1))
    race = go(race)
    race.apply(TurnChoice(5))
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        pick(race, lambda o: o.eliminated is None)
    assert race.info["b"].retirement is Retirement.ENGINE
    rolling = [(e.round, e.get("gear")) for e in race.events if e.kind is EventKind.ROLLING_OUT]
    assert rolling[0] == (1, 4)


def test_a_dresden_car_rolling_out_over_the_line_on_the_last_lap_is_classified() -> None:
    """Dresden is silent; as Masters 16-0-6 lets a car roll home, a car rolling out after an
    engine failure that crosses the line on its last lap finishes."""
    race = start([SUN, 8, *([10] * 4)], cars=("a",))
    place(race, "a", "C160", gear=5, crossings=3)
    race.set("a", rolling_out=Retirement.ENGINE, retirement=Retirement.ENGINE)
    race = go(race)
    assert race.finished
    (placing,) = race.classification()
    assert (placing.status, placing.laps) == ("finished", race.laps)


def test_brakes_shorten_the_move_before_a_rain_slide_never_the_slide() -> None:
    """Masters 6-3 lists the brakes after the slide, 8-5-1 makes the slide mandatory: a car
    that stops in the corner always slides all of its 3 spaces, however many brakes it has."""
    pos = position(car("x", "A1", brakes=3), weather=Weather.RAIN)
    slid = [path(pos, o) for o in alive(moves(pos, "x", 6)) if "A7" in path(pos, o)]
    assert slid
    assert all(len(steps) - steps.index("A7") - 1 == 3 for steps in slid)


def test_leaving_a_second_corner_while_overshooting_eliminates() -> None:
    """Masters 10-1, 10-2-2: x overshoots corner 3 of Monaco (one stop) and runs on through
    corner 4 (one stop) without a stop there either: out with missed stops."""
    pos = position(car("x", "A38", track=MONACO, gear=5, brakes=0, tyres=30), track=MONACO, laps=3)
    options = moves(pos, "x", 20)
    assert options and {o.eliminated for o in options} == {Elimination.MISSED_STOPS}
    short = alive(moves(pos, "x", 11))  # overshooting corner 3 only
    assert short and all(o.overshoot for o in short)


def test_three_level_cars_bid_at_once_then_gear_orders_equal_bids() -> None:
    """Dresden "Kopf an Kopf" with three cars level (A10, B10, C11 of Monaco): each bids in
    secret; equal bids (a and b, 2 each) keep the order of the gears (b in 3rd before a in
    2nd), the lower bid (c, 0) plays after them despite its 4th gear."""
    race = start([SUN], cars=("a", "b", "c"))
    for name, space, gear in (("a", "A10", 2), ("b", "B10", 3), ("c", "C11", 4)):
        place(race, name, space, gear=gear, corner_stops=1)
    race = go(race)
    for bid in (2, 2, 0):
        ask = race.pending
        assert ask is not None and ask.kind is AskKind.BID and len(ask.rivals) == 2
        race.apply(BidChoice(bid))
    order = next(e for e in race.events if e.kind is EventKind.ROUND)
    assert order.get("order") == ["b", "a", "c"]
    assert race.info["a"].karma == race.info["b"].karma == 28
    assert race.cars["c"].status is CarStatus.RUNNING
