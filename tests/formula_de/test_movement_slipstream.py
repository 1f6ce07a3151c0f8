"""Slipstream scenarios (Dresden "Fahrregeln: Windschatten", Masters 18), each decided by one
condition: the gear table, the three spaces, chaining, the late-braking point, no slipstream
after braking, behind spun or rolling-out cars or while overshooting, free lane changes.

Scenery: test_movement_support.py (track ``T``).
"""

from __future__ import annotations

import pytest

from rennleitung.formula_de.car import CarStatus, Tyre, Weather
from rennleitung.formula_de.movecheck import IllegalMove
from rennleitung.formula_de.moves import Choices, check_path
from tests.formula_de.test_movement_support import car, end, moves, position

SOFT = Choices(soft_bonus=True)


def slips(options):  # type: ignore[no-untyped-def]
    """The options that use at least one slipstream."""
    return [o for o in options if o.slipstreams]


@pytest.mark.parametrize("behind", range(1, 7))
@pytest.mark.parametrize("ahead", range(1, 7))
def test_slipstream_gear_table(behind: int, ahead: int) -> None:
    # Masters 18-4 / 18-1-1, Dresden: both at least in 4th, the car behind not in a lower gear
    pos = position(car("x", "A1", gear=behind), car("y", "A4", gear=ahead))
    allowed = behind >= 4 and 4 <= ahead <= behind
    assert bool(slips(moves(pos, "x", 2))) is allowed


def test_the_three_slipstream_spaces_are_used_unless_braked() -> None:
    # x ends on A3 behind y on A4: +3 spaces, each one not used costs a brake point (18-1-2)
    pos = position(car("x", "A1", brakes=3), car("y", "A4"))
    assert {(o.spaces_moved, o.brakes) for o in slips(moves(pos, "x", 2))} == {
        (3, 2),
        (4, 1),
        (5, 0),
    }
    no_brakes = position(car("x", "A1", brakes=0), car("y", "A4"))
    assert {o.spaces_moved for o in slips(moves(no_brakes, "x", 2))} == {5}


def test_slipstreams_chain() -> None:
    # on the last straight: y on A24, z on B26; A23 -> three spaces to B25 behind z -> again
    pos = position(car("x", "A21", brakes=0), car("y", "A24"), car("z", "B26"))
    options = slips(moves(pos, "x", 2))
    assert {o.slipstreams for o in options} == {1, 2}
    assert {o.spaces_moved for o in options if o.slipstreams == 2} == {8}
    single = position(car("x", "A21", brakes=0), car("y", "A24"))
    assert {o.slipstreams for o in slips(moves(single, "x", 2))} == {1}


def test_slipstream_into_a_corner_costs_a_brake_point() -> None:
    # Masters 18-1-4, Dresden "ein VP Bremsen": x on A5 behind y on A6, corner 1 starts on A7
    pos = position(car("x", "A3", brakes=3), car("y", "A6"))
    full = {(end(pos, o), o.brakes) for o in slips(moves(pos, "x", 2)) if o.spaces_moved == 5}
    # into the corner: one brake point; B6 (by B5, C6: free lane changes) stays outside: none
    assert full == {("A7", 1), ("B7", 1), ("C7", 1), ("B6", 0)}
    without_brakes = position(car("x", "A3", brakes=0), car("y", "A6"))
    # without a brake point to pay, the slipstream cannot carry the car into the corner
    assert {end(without_brakes, o) for o in slips(moves(without_brakes, "x", 2))} == {"B6"}


def test_slipstream_inside_a_corner_costs_no_brake_point() -> None:
    # Masters 18-2-3: x makes its second stop of corner 2 on A16 behind y on A17
    pos = position(car("x", "A15", brakes=0, corner_stops=1), car("y", "A17"))
    options = slips(moves(pos, "x", 1))
    assert options
    assert {(o.brakes, o.spaces_moved, o.stop_corner) for o in options} == {(0, 4, 2)}


def test_no_slipstream_from_a_braked_move() -> None:
    # roll 3 would need a brake point to end on A3 behind y (Masters 18-1-6)
    pos = position(car("x", "A1", brakes=3), car("y", "A4"))
    assert slips(moves(pos, "x", 2))
    assert slips(moves(pos, "x", 3)) == []


@pytest.mark.parametrize(
    ("ruleset", "status", "allowed"),
    [
        ("dresden-2006", CarStatus.RUNNING, True),
        ("dresden-2006", CarStatus.SPUN, False),
        ("dresden-2006", CarStatus.ROLLING_OUT, True),
        ("dresden-open", CarStatus.ROLLING_OUT, True),
        ("masters-2002", CarStatus.RUNNING, True),
        ("masters-2002", CarStatus.SPUN, False),
        ("masters-2002", CarStatus.ROLLING_OUT, False),
    ],
)
def test_slipstream_behind_a_car_rolling_out_in_dresden_never_behind_a_spun_car(
    ruleset: str, status: CarStatus, allowed: bool
) -> None:
    """Masters 10-4-4, 18-1-7: no slipstream behind a spun car or one in inertia. Dresden
    "Fahrregeln" asks only for a car ahead in at least 4th gear, so in the Dresden presets a car
    rolling out (no fuel or a failed engine) in 4th gives slipstream like any other (decision
    "Slipstream behind a car rolling out", issue 22; it used to give none)."""
    pos = position(car("x", "A1"), car("y", "A4", status=status), ruleset=ruleset)
    assert bool(slips(moves(pos, "x", 2))) is allowed


def test_no_slipstream_while_overshooting() -> None:
    # Masters 18-5-7: x leaves corner 1 without its stop and may not change lane any more
    pos = position(car("x", "A8", brakes=0, tyres=10), car("y", "A11"))
    assert slips(moves(pos, "x", 2)) == []
    stopped = position(car("x", "A8", brakes=0, corner_stops=1), car("y", "A11"))
    assert slips(moves(stopped, "x", 2))


def test_slipstream_lane_changes_are_no_zig_zag() -> None:
    # Masters 18-3-2, Dresden "unabhängig vom bisherigen Zug": A3 behind y, then B3, C4, B4
    pos = position(car("x", "A1", brakes=0), car("y", "A4"))
    (option,) = check_path(pos, "x", 2, ["A2", "A3", "B3", "C4", "B4"])
    assert option.slipstreams == 1
    # the same spaces rolled as a 5 are a zig-zag without reason
    with pytest.raises(IllegalMove) as error:
        check_path(pos, "x", 5, ["A2", "A3", "B3", "C4", "B4"])
    assert "7-2-3/7-2-4" in error.value.where


def test_a_slipstream_that_ends_as_a_corner_stop_in_the_rain_slides() -> None:
    # Masters 18-5-3 (slipstream into the corner, then the slide, once per move) and decision
    # "Rain sliding": the move ends as a required stop of corner 2, so hard tyres slide 3 more.
    # x: A11 -> A13 behind y on A14, slipstream B13, B14, B15 (one brake point, 18-1-4).
    pos = position(car("x", "A11", brakes=3), car("y", "A14"), weather=Weather.RAIN)
    stops = [o for o in slips(moves(pos, "x", 2)) if o.stop_corner]
    assert stops
    assert {(o.spaces_moved, o.brakes, o.stop_corner) for o in stops} == {(8, 1, 2)}
    dry = position(car("x", "A11", brakes=3), car("y", "A14"))
    dry_stops = [o for o in slips(moves(dry, "x", 2)) if o.stop_corner]
    assert {(o.spaces_moved, o.brakes, o.stop_corner) for o in dry_stops} == {(5, 1, 2)}


def test_the_soft_tyre_bonus_between_two_slipstreams() -> None:
    """Masters 18-3-1 and the worked example 18-5-1 (issue 11 item 16): x on soft tyres rolls 2
    to A23 behind y (A24), slipstreams past it, spends its +1 to land behind z (A27) and
    slipstreams again: 2 + 3 + 1 + 3 = 9 spaces without a brake point. Spent before the
    slipstream (the only way offered before the fix), the +1 puts x beside y, out of its wake:
    3 spaces."""
    pos = position(car("x", "A21", brakes=0, tyre=Tyre.SOFT), car("y", "A24"), car("z", "A27"))
    options = [o for o in moves(pos, "x", 2, SOFT) if o.eliminated is None]
    assert max(o.spaces_moved for o in options) == 9
    double = {(end(pos, o), o.slipstreams, o.brakes) for o in options if o.spaces_moved == 9}
    assert double == {("A28", 2, 0), ("B27", 2, 0), ("B28", 2, 0), ("C28", 2, 0)}
    route = ("A22", "A23", "B23", "B24", "B25", "A26", "B26", "B27", "A28")
    (option,) = check_path(pos, "x", 2, route, SOFT)
    assert (option.slipstreams, option.brakes) == (2, 0)
    # without the bonus x slipstreams once, and the second wake is out of reach
    plain = [o for o in moves(pos, "x", 2) if o.eliminated is None]
    assert max(o.spaces_moved for o in plain) == 5


def test_the_soft_tyre_bonus_after_a_slipstream_into_a_corner_costs_a_brake_point() -> None:
    """Masters 18-3-2 and 18-5-5: x rolls 2 to A4 behind y (A5), slipstreams to B6 and its +1
    takes it into corner 1: a brake point, as if the slipstream had. With no brake point left
    the +1 cannot carry it in; unspent, the +1 costs a brake point like any space not driven
    (Masters 11)."""
    pos = position(car("x", "A2", brakes=1, tyre=Tyre.SOFT), car("y", "A5"))
    into = {
        (end(pos, o), o.brakes)
        for o in slips(moves(pos, "x", 2, SOFT))
        if o.eliminated is None and o.path[-2] == pos.track.space("B6")
    }
    assert into == {("A7", 1), ("B7", 1), ("C7", 1)}
    (unspent,) = check_path(pos, "x", 2, ("A3", "A4", "B4", "B5", "B6"), SOFT)
    assert unspent.brakes == 1
    broke = position(car("x", "A2", brakes=0, tyre=Tyre.SOFT), car("y", "A5"))
    corner = {
        end(broke, o) for o in slips(moves(broke, "x", 2, SOFT)) if broke.track.spaces[o.end].corner
    }
    assert corner == set()
    with pytest.raises(IllegalMove):
        check_path(broke, "x", 2, ("A3", "A4", "B4", "B5", "B6", "B7"), SOFT)
