"""Pit-lane scenarios (Dresden "Boxenstopp", Masters 19), one rule deciding each.

Scenery: test_movement_support.py (track ``T``): the pit lane P1–P5 on the right of the last
straight, entered from C22 (into P1) or C23 (into P2); BOX1 is reached from P2, BOX2 from P3.
Cars here have no brake points unless braking matters, so every option is a real choice.
The scenarios that are ends and costs (own box, stopping at the box, no passing, a team mate in
the box, leaving the box, no collision tests) are data: ``positions/pit-*.json``.
"""

from __future__ import annotations

import pytest

from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.car import CarStatus
from rennleitung.formula_de.moves import Choices, check_path
from tests.formula_de.test_movement_support import T, car, end, moves, path, position

PIT = frozenset(T.pit.lane) | frozenset(T.boxes) if T.pit else frozenset()


def enters_pit(options) -> bool:  # type: ignore[no-untyped-def]
    return any(set(o.path) & PIT for o in options)


def test_entering_the_pit_lane_is_a_lane_change() -> None:
    pos = position(car("x", "C21", brakes=0, box=1))
    by_end = {end(pos, o): o for o in moves(pos, "x", 2)}
    assert path(pos, by_end["P1"]) == ("C22", "P1")
    assert by_end["P1"].lane_changes == 1
    assert by_end["C23"].lane_changes == 0


def test_a_car_reaches_its_box_with_any_roll_that_is_long_enough() -> None:
    # Masters 19-2-2: the roll need not be exact; what is left over is kept (leftover)
    pos = position(car("x", "C21", brakes=0, box=1))
    (boxed,) = [o for o in moves(pos, "x", 6) if o.pit]  # by P1 or by C23: the same cost
    assert path(pos, boxed)[-2:] == ("P2", "BOX1")
    assert (boxed.leftover, boxed.lane_changes) == (2, 1)
    for route in (["C22", "P1", "P2", "BOX1"], ["C22", "C23", "P2", "BOX1"]):
        assert [o.leftover for o in check_path(pos, "x", 6, route)] == [2]


@pytest.mark.parametrize(
    ("laps", "gear", "ruleset", "choices", "open_"),
    [
        (1, 4, "dresden-2006", Choices(), True),
        (2, 4, "dresden-2006", Choices(), False),  # last lap of three (Masters 19-1-7)
        (0, 4, "dresden-2006", Choices(), False),  # before a full lap (Masters 19-2-4)
        (1, 5, "dresden-2006", Choices(), False),  # Dresden: at most 4th gear into the pit lane
        (1, 5, "masters-2002", Choices(), True),  # Masters 19-1-6: no gear limit
        (1, 4, "dresden-2006", Choices(pit_open=False), False),  # closed by the race (start)
    ],
)
def test_when_the_pit_lane_is_open(
    laps: int, gear: int, ruleset: str, choices: Choices, open_: bool
) -> None:
    pos = position(car("x", "C21", gear=gear, brakes=0, box=1, laps=laps), ruleset=ruleset)
    options = moves(pos, "x", 2, choices)
    assert options
    assert enters_pit(options) is open_


def test_a_car_without_a_box_cannot_enter() -> None:
    pos = position(car("x", "C21", brakes=0, box=0))
    assert not enters_pit(moves(pos, "x", 2))


@pytest.mark.parametrize("brakes", [3, 0])
def test_waiting_before_the_own_box_while_the_team_mate_is_in_it_costs_nothing(
    brakes: int,
) -> None:
    """Dresden "Boxenstopp" ("Ein zweiter Fahrer muß vor der Box warten"), Masters 19-1-5, and
    the decision "Waiting in the pit lane" (docs/formula_de/movement.md): Monaco, the team-mate
    in BOX1, the second car on C151 in 4th rolls 6. It may turn into the pit lane and stop on
    P3 before the box, three spaces of the roll unused, at no brake or tyre cost, with 0 brakes
    too (it used to pay a brake point for each, so with 0 brakes P3 was not offered)."""
    monaco = builtin_track("monaco")
    mate = car("mate", "BOX1", track=monaco, box=1, team="red", status=CarStatus.IN_PIT)
    x = car("x", "C151", track=monaco, gear=4, brakes=brakes, box=1, team="red")
    pos = position(x, mate, track=monaco)
    options = moves(pos, "x", 6)
    waiting = [o for o in options if end(pos, o) == "P3"]
    assert [(o.brakes, o.tyres, o.blocked, o.eliminated) for o in waiting] == [(0, 0, 3, None)]
    checked = check_path(pos, "x", 6, ["P1", "P2", "P3"])
    assert [(o.brakes, o.tyres, o.blocked) for o in checked] == [(0, 0, 3)]
    # braking to stop short of P3 in the pit lane still costs brakes like anywhere else
    assert all(o.brakes == 6 - o.spaces_moved for o in options if end(pos, o) in {"P1", "P2"})


@pytest.mark.parametrize("brakes", [3, 0])
def test_waiting_behind_any_car_in_the_pit_lane_costs_nothing(brakes: int) -> None:
    """Masters 19-1-5 (no passing in the pit lane) and the decision "Waiting in the pit lane":
    a car of another team stands on P3 of Monaco; x on C151 (box 1) rolls 6 and may stop on P2
    behind it at no cost, whatever its brakes."""
    monaco = builtin_track("monaco")
    other = car("y", "P3", track=monaco, box=2, team="blue")
    x = car("x", "C151", track=monaco, gear=4, brakes=brakes, box=1, team="red")
    pos = position(x, other, track=monaco)
    waiting = [o for o in moves(pos, "x", 6) if end(pos, o) == "P2"]
    assert [(o.brakes, o.tyres, o.blocked) for o in waiting] == [(0, 0, 4)]


def test_a_slipstream_in_the_pit_lane_may_carry_the_car_into_its_own_box() -> None:
    """Masters 19-1-3 (the slipstream rules apply in the pit lane), 19-2-2 (the box needs no
    exact roll) and the decision "Slipstream in the pit lane into the own box": Monaco, x (box 1,
    4th) rolls 4 from C148 to C152, directly behind y (4th) on C153, and slipstreams P2, P3,
    BOX1. It reaches its box with nothing left over and pays no brake point; the slipstream used
    to stop on P3 (one brake point for the space not driven)."""
    monaco = builtin_track("monaco")
    x = car("x", "C148", track=monaco, gear=4, brakes=0, box=1)
    pos = position(x, car("y", "C153", track=monaco, gear=4), track=monaco)
    boxed = [o for o in moves(pos, "x", 4) if o.pit and o.slipstreams]
    assert [(path(pos, o)[-4:], o.brakes, o.leftover) for o in boxed] == [
        (("C152", "P2", "P3", "BOX1"), 0, 0)
    ]
    route = ["C149", "C150", "C151", "C152", "P2", "P3", "BOX1"]
    assert [o.pit for o in check_path(pos, "x", 4, route)] == [True]
