"""Modifiers that ``request_for`` adds to a roll, each shown deciding a move: soft-tyre bonus and
malus (Dresden "Reifen"), rain sliding by tyre and profile, the profiles' corner-stop step in
sunshine (Dresden "Fahrerprofile"; decision "Rain sliding"), Leichter Flitzer / Schwerer
Tourer, engine boost (Dresden "Verschleiß").

Scenery: test_movement_support.py (track ``T``; corner 2 starts on A15, six spaces long).
"""

from __future__ import annotations

import pytest

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import DriverProfile, Tyre, Weather
from rennleitung.formula_de.moves import Choices, request_for
from tests.formula_de.test_movement_support import car, moves, position

# --- soft tyres ---------------------------------------------------------------------------------


def test_soft_bonus_adds_one_space_on_the_first_lap_of_the_set_in_sunshine() -> None:
    pos = position(car("x", "A1", brakes=0, tyre=Tyre.SOFT, tyre_laps=0))
    assert request_for(pos, "x", 3, Choices(soft_bonus=True)).distance == 4
    assert {o.spaces_moved for o in moves(pos, "x", 3, Choices(soft_bonus=True))} == {4}
    # the bonus is optional (Masters 8-5-1)
    assert {o.spaces_moved for o in moves(pos, "x", 3)} == {3}


@pytest.mark.parametrize(
    ("tyre", "tyre_laps", "weather"),
    [
        (Tyre.SOFT, 1, Weather.SUN),  # second lap of the set
        (Tyre.SOFT, 0, Weather.RAIN),  # only in sunshine
        (Tyre.HARD, 0, Weather.SUN),  # only soft tyres
        (Tyre.RAIN, 0, Weather.SUN),
    ],
)
def test_soft_bonus_is_refused_otherwise(tyre: Tyre, tyre_laps: int, weather: Weather) -> None:
    pos = position(car("x", "A1", tyre=tyre, tyre_laps=tyre_laps), weather=weather)
    with pytest.raises(RennleitungError) as error:
        request_for(pos, "x", 3, Choices(soft_bonus=True))
    assert error.value.where == "Dresden Reifen"


@pytest.mark.parametrize(
    ("ruleset", "tyre_laps", "distance"),
    [
        ("dresden-2006", 0, 4),
        ("dresden-2006", 1, 4),
        ("dresden-2006", 2, 3),  # third lap of the set: -1 per move, compulsory
        ("masters-2002", 2, 4),  # Masters 2002 has no malus (annex 3)
    ],
)
def test_soft_malus_on_the_third_lap_of_the_set(
    ruleset: str, tyre_laps: int, distance: int
) -> None:
    pos = position(car("x", "A1", brakes=0, tyre=Tyre.SOFT, tyre_laps=tyre_laps), ruleset=ruleset)
    assert request_for(pos, "x", 4).distance == distance
    assert {o.spaces_moved for o in moves(pos, "x", 4)} == {distance}


# --- rain sliding and the weather profiles --------------------------------------------------------


@pytest.mark.parametrize(
    ("tyre", "profile", "slide"),
    [
        (Tyre.HARD, DriverProfile.NORMAL, 3),
        (Tyre.SOFT, DriverProfile.NORMAL, 3),
        (Tyre.RAIN, DriverProfile.NORMAL, 1),
        (Tyre.HARD, DriverProfile.FAIR_WEATHER, 4),  # slides one more
        (Tyre.RAIN, DriverProfile.FAIR_WEATHER, 2),
        (Tyre.HARD, DriverProfile.RAIN_GOD, 2),  # slides one less
        (Tyre.RAIN, DriverProfile.RAIN_GOD, 0),
        (Tyre.HARD, DriverProfile.LIGHT_SPRINTER, 3),
    ],
)
def test_rain_slide_after_a_required_corner_stop(
    tyre: Tyre, profile: DriverProfile, slide: int
) -> None:
    # roll 2 from A13 ends on A15, the first space of corner 2: a required stop, then the slide
    pos = position(car("x", "A13", brakes=0, tyre=tyre, profile=profile), weather=Weather.RAIN)
    assert request_for(pos, "x", 2).slide == slide
    roll = 2 - (1 if profile is DriverProfile.LIGHT_SPRINTER else 0)
    stops = [o for o in moves(pos, "x", roll) if o.stop_corner]
    assert stops
    assert {(o.spaces_moved, o.stop_corner, o.corner_stops) for o in stops} == {(2 + slide, 2, 1)}


def test_no_slide_in_sunshine() -> None:
    pos = position(car("x", "A13", brakes=0))
    assert {(o.spaces_moved, o.stop_corner) for o in moves(pos, "x", 2) if o.stop_corner} == {
        (2, 2)
    }


@pytest.mark.parametrize(
    ("profile", "spaces"),
    [
        (DriverProfile.NORMAL, 4),
        (DriverProfile.FAIR_WEATHER, 3),  # one space less at a corner stop in sunshine
        (DriverProfile.RAIN_GOD, 5),  # one space more
    ],
)
def test_weather_profiles_at_a_corner_stop_in_sunshine(profile: DriverProfile, spaces: int) -> None:
    # roll 4 from A13: every way ends inside corner 2 (a required stop). The Schönwetterfahrer's
    # shorter stop stays inside the corner here, so "falls möglich" is not in question.
    pos = position(car("x", "A13", brakes=0, profile=profile))
    assert {(o.spaces_moved, o.stop_corner) for o in moves(pos, "x", 4)} == {(spaces, 2)}


# --- Leichter Flitzer, Schwerer Tourer ------------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "spaces"),
    [
        (DriverProfile.NORMAL, 3),
        (DriverProfile.LIGHT_SPRINTER, 4),
        (DriverProfile.HEAVY_TOURER, 2),
        (DriverProfile.FAIR_WEATHER, 3),
    ],
)
def test_profiles_change_every_move(profile: DriverProfile, spaces: int) -> None:
    pos = position(car("x", "A1", brakes=0, profile=profile))
    assert {o.spaces_moved for o in moves(pos, "x", 3)} == {spaces}


def test_profiles_do_not_apply_in_the_pit_lane() -> None:
    # Dresden "Boxenstopp": only Theoretiker and Praktiker keep their profile in the pit lane
    pos = position(car("x", "P1", brakes=0, box=2, profile=DriverProfile.LIGHT_SPRINTER))
    assert request_for(pos, "x", 2).distance == 2
    assert {o.spaces_moved for o in moves(pos, "x", 2)} == {2}


# --- engine boost ----------------------------------------------------------------------------


@pytest.mark.parametrize("gear", [3, 4, 5])
def test_engine_boost_adds_the_gear_number(gear: int) -> None:
    pos = position(car("x", "A21", gear=gear, brakes=0))
    boost = Choices(boost=True)
    assert request_for(pos, "x", 2, boost).distance == 2 + gear
    assert {o.spaces_moved for o in moves(pos, "x", 2, boost)} == {2 + gear}


def test_engine_boost_uses_the_announced_gear() -> None:
    pos = position(car("x", "A21", gear=3, brakes=0))
    assert request_for(pos, "x", 2, Choices(gear=5, boost=True)).distance == 7


@pytest.mark.parametrize(("ruleset", "engine"), [("dresden-2006", 1), ("masters-2002", 3)])
def test_engine_boost_refused_with_the_last_engine_point_or_outside_dresden(
    ruleset: str, engine: int
) -> None:
    pos = position(car("x", "A21", engine=engine), ruleset=ruleset)
    with pytest.raises(RennleitungError) as error:
        request_for(pos, "x", 2, Choices(boost=True))
    assert error.value.where == "Dresden Verschleiß"
    assert request_for(pos, "x", 2).distance == 2
