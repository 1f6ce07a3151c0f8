"""Driving rules of issue 3 whose scenarios are more than ends and costs: tables over tyres and
weather, lanes of the ends, a parsed position. The ends-and-costs scenarios (corners,
overshooting, straights, cars and wrecks, braking, blocking, collisions, laps, fuel, checking a
path) are data: ``positions/*.json``, run by test_positions.py.

Scenery and helpers: test_movement_support.py (track ``T``, see its docstring). Sources: Dresden
"Fahrregeln", "Verschleiß", "Blockierte Spur", "Reifen"; Masters 2002 ch. 7, 10, 11, 12, 14, 15,
17; decisions in ``design/formula-de-rules.md``.
"""

from __future__ import annotations

import json

import pytest

from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.car import Tyre, Weather
from rennleitung.formula_de.movecheck import IllegalMove
from rennleitung.formula_de.moves import check_path, legal_moves, request_for
from rennleitung.formula_de.position import parse_position
from tests.formula_de.test_movement_support import (
    car,
    end,
    ends,
    lane_of,
    moves,
    path,
    position,
)

OVAL = builtin_track("oval")


def rule_of(error: pytest.ExceptionInfo[IllegalMove]) -> str:
    """The ``where`` of an IllegalMove: rule number and step."""
    return error.value.where


# --- overshooting (Masters 10, 11-0-2; Dresden "Reifen", "Verschleiß") ------------------------


@pytest.mark.parametrize(
    ("ruleset", "tyre", "weather", "tyre_laps", "factor"),
    [
        ("dresden-2006", Tyre.HARD, Weather.SUN, 0, 1),
        ("dresden-2006", Tyre.HARD, Weather.RAIN, 2, 1),
        ("dresden-2006", Tyre.SOFT, Weather.SUN, 0, 2),
        ("dresden-2006", Tyre.SOFT, Weather.SUN, 1, 2),
        ("dresden-2006", Tyre.SOFT, Weather.SUN, 2, 3),
        ("dresden-2006", Tyre.SOFT, Weather.RAIN, 0, 2),
        ("dresden-2006", Tyre.SOFT, Weather.RAIN, 2, 3),
        ("dresden-2006", Tyre.RAIN, Weather.RAIN, 0, 1),
        ("dresden-2006", Tyre.RAIN, Weather.RAIN, 2, 1),
        ("dresden-2006", Tyre.RAIN, Weather.SUN, 0, 2),
        # Dresden "Regenreifen: 1/2 VP je Feld (Regen / Sonne)": no third-lap step in sunshine
        ("dresden-2006", Tyre.RAIN, Weather.SUN, 2, 2),
        ("masters-2002", Tyre.RAIN, Weather.SUN, 2, 3),
        ("masters-2002", Tyre.SOFT, Weather.SUN, 2, 3),
    ],
)
def test_overshoot_costs_tyre_points_per_space_by_tyre_weather_and_set_lap(
    ruleset: str, tyre: Tyre, weather: Weather, tyre_laps: int, factor: int
) -> None:
    pos = position(
        car("x", "A6", brakes=0, tyres=20, tyre=tyre, tyre_laps=tyre_laps),
        weather=weather,
        ruleset=ruleset,
    )
    request = request_for(pos, "x", 4)
    assert request.overshoot_factor == factor
    roll = 4 + (4 - request.distance)  # cancel the soft tyres' third-lap -1 (Dresden)
    straight_on = [o for o in moves(pos, "x", roll) if path(pos, o) == ("A7", "A8", "A9", "A10")]
    assert len(straight_on) == 1
    assert (straight_on[0].overshoot, straight_on[0].tyres) == (2, 2 * factor)


def test_brakes_shorten_the_overshoot() -> None:
    pos = position(car("x", "A6", brakes=3, tyres=6))
    in_lane_a = {
        (end(pos, o), o.brakes, o.tyres)
        for o in moves(pos, "x", 4)
        if all(lane_of(s) == "A" for s in path(pos, o))
    }
    assert in_lane_a == {("A10", 0, 2), ("A9", 1, 1), ("A8", 2, 0), ("A7", 3, 0)}


# --- straights (Masters 7-2, 7-3; decision "Straights, exactly") -----------------------------


def test_at_most_two_lanes_over_on_a_four_lane_straight() -> None:
    pos = position(car("x", "A1", track=OVAL, brakes=0), track=OVAL)
    lanes = {lane_of(e) for e in ends(pos, moves(pos, "x", 6))}
    assert lanes == {"A", "B", "C"}
    with pytest.raises(IllegalMove) as error:
        check_path(pos, "x", 6, ["B1", "C2", "D2", "D3", "D4", "D5"])
    assert "7-2-1" in rule_of(error)


def test_no_zig_zag_without_a_car_to_pass() -> None:
    """Masters 7-2-3, 7-2-4: the zig-zag that passes a car (positions/straight-zig-zag-to-pass-a-
    car.json) is refused on a free straight, and A4 is then out of reach of a 4."""
    passing = ["A2", "B2", "B3", "A4"]
    free = position(car("x", "A1", brakes=0))
    with pytest.raises(IllegalMove) as error:
        check_path(free, "x", 4, passing)
    assert "7-2-3/7-2-4" in rule_of(error)
    assert "A4" not in ends(free, moves(free, "x", 4))


# --- checking a proposed path -------------------------------------------------------------------


def test_car_that_made_its_stop_leaves_without_overshoot_from_a_parsed_position() -> None:
    # corner 1 of the built-in "short" track needs one stop; a car standing on its last space in
    # lane A (A11) has made it: corner_stops = 1 = the flag (MoveOption.corner_stops after the
    # stop is 1 as well), and leaving costs nothing (Masters 7-1-1)
    text = json.dumps(
        {
            "format": "rennleitung-position/1",
            "track": "short",
            "cars": [
                {
                    "id": "x",
                    "space": "A11",
                    "gear": 2,
                    "corner_stops": 1,
                    "wear": {
                        "tyres": 6,
                        "brakes": 0,
                        "fuel": 3,
                        "body": 3,
                        "engine": 3,
                        "road_holding": 2,
                        "box": 2,
                    },
                }
            ],
        }
    )
    pos = parse_position(text)
    assert pos.track.corner_of(pos.track.space("A11")).stops == 1  # type: ignore[union-attr]
    options = legal_moves(pos, "x", 2)
    assert options
    assert {(o.overshoot, o.tyres) for o in options} == {(0, 0)}
