"""Qualifying scores, the grid, the black-die draw, weather and the box choice order."""

from __future__ import annotations

import random

import pytest
from league_builders import roster

from rennleitung.errors import RennleitungError
from rennleitung.league.black_die import black_die_order
from rennleitung.league.box_choice import box_choice_order
from rennleitung.league.formats import DRESDEN_OPEN, DRESDEN_SEASON_2006
from rennleitung.league.grid import build_qualifying
from rennleitung.league.profiles import DriverProfile
from rennleitung.league.qualifying import (
    QualifyingLap,
    format_lap_time,
    parse_lap_time,
    qualifying_score,
)
from rennleitung.league.qualifying_weather import Weather, qualifying_weather


def test_score_is_rolls_penalties_errors_and_whole_minutes() -> None:
    lap = QualifyingLap("A", rolls=52, penalty_points=3, lap_time_ms=4 * 60_000 + 59_999,
                        errors=2)
    assert qualifying_score(lap, DriverProfile.NORMAL) == 52 + 3 + 20 + 4
    assert qualifying_score(lap, DriverProfile.THEORIST) == 52 + 3 + 20 + 4 - 1
    assert qualifying_score(lap, DriverProfile.PRACTITIONER) == 52 + 3 + 20 + 4 + 1
    assert qualifying_score(lap, DriverProfile.RAIN_GOD) == 52 + 3 + 20 + 4


def test_lap_time_is_read_and_written() -> None:
    assert parse_lap_time("3:25.4") == 205_400
    assert parse_lap_time("95") == 95_000
    assert format_lap_time(205_400) == "3:25.400"
    for bad in ("", "abc", "3:75", "-5", "inf", "1e999", "nan", "0:inf", "99999999:00"):
        with pytest.raises(RennleitungError) as error:
            parse_lap_time(bad)
        assert error.value.where == "lap_time"


def test_time_breaks_ties_and_drivers_without_lap_are_drawn_behind() -> None:
    teams = roster(DRESDEN_SEASON_2006, {"R": ["A", "B"], "S": ["C", "D"], "T": ["E"]})
    laps = [
        QualifyingLap("A", 40, 0, 200_000),  # 43
        QualifyingLap("B", 40, 0, 190_000),  # 43, faster
        QualifyingLap("C", 38, 0, 170_000),  # 40
    ]
    result = build_qualifying(3, laps, ["A", "B", "C", "D", "E"], teams, random.Random(1))
    assert result.grid_order()[:3] == ("C", "B", "A")
    assert set(result.grid_order()[3:]) == {"D", "E"}
    drawn = result.grid[3:]
    assert all(slot.score is None and slot.draw_rolls for slot in drawn)
    assert drawn[0].draw_rolls > drawn[1].draw_rolls
    assert [slot.qualifying_points for slot in result.grid] == [0, 0, 0, 0, 0]


def test_open_qualifying_points_and_better_of_two_runs() -> None:
    teams = roster(DRESDEN_OPEN, {"R": ["A", "B"], "S": ["C"]},
                   cities={"A": "X", "B": "X", "C": "Y"})
    laps = [
        QualifyingLap("A", 50, 0, 100_000, run=1),  # 51
        QualifyingLap("A", 45, 0, 100_000, run=2),  # 46: counts
        QualifyingLap("B", 47, 0, 100_000, run=1),  # 48
        QualifyingLap("C", 40, 0, 100_000, run=2),  # 41
    ]
    result = build_qualifying(1, laps, ["A", "B", "C"], teams, random.Random(0))
    assert [(s.driver, s.score, s.qualifying_points) for s in result.grid] == [
        ("C", 41, 100), ("A", 46, 99), ("B", 48, 98)
    ]


def test_exact_tie_is_rolled_off_with_the_black_die() -> None:
    teams = roster(DRESDEN_SEASON_2006, {"R": ["A", "B"]})
    laps = [QualifyingLap("A", 40, 0, 100_000), QualifyingLap("B", 40, 0, 100_000)]
    result = build_qualifying(1, laps, ["A", "B"], teams, random.Random(3))
    first, second = result.grid
    assert first.draw_rolls > second.draw_rolls
    assert first.score == second.score == 41


def test_black_die_order_follows_the_rolls_and_rolls_off_ties() -> None:
    names = ["A", "B", "C", "D", "E", "F"]
    roll_offs = 0
    for seed in range(100):
        drawn = black_die_order(names, random.Random(seed))
        assert sorted(d.driver for d in drawn) == names
        assert all(1 <= roll <= 20 for d in drawn for roll in d.rolls)
        rolls = [d.rolls for d in drawn]
        assert rolls == sorted(rolls, reverse=True)
        roll_offs += any(len(r) > 1 for r in rolls)
    assert roll_offs > 0  # ties happened and were rolled off


def test_same_seed_same_draw() -> None:
    names = ["A", "B", "C", "D"]
    assert black_die_order(names, random.Random(42)) == black_die_order(names, random.Random(42))


def test_qualifying_weather() -> None:
    assert qualifying_weather(Weather.CHANGEABLE, 1) is Weather.SUN
    assert qualifying_weather(Weather.CHANGEABLE, 2, Weather.RAIN) is Weather.RAIN
    assert qualifying_weather(Weather.RAIN, 2, Weather.SUN) is Weather.RAIN
    with pytest.raises(RennleitungError):
        qualifying_weather(Weather.CHANGEABLE, 2)


def test_box_choice_by_team_in_season_and_by_driver_in_open() -> None:
    season = roster(DRESDEN_SEASON_2006, {"R": ["A", "B"], "S": ["C", "D"], "T": ["E"]})
    assert box_choice_order(["C", "A", "D", "E", "B"], season) == ("S", "R", "T")
    open_ = roster(DRESDEN_OPEN, {"R": ["A", "B"], "S": ["C"]},
                   cities={"A": "X", "B": "X", "C": "Y"})
    assert box_choice_order(["B", "C", "A"], open_) == ("B", "C", "A")


@pytest.mark.parametrize(
    ("lap", "starters", "field"),
    [
        (QualifyingLap("Nobody", 40, 0, 100_000), ["A"], "qualifying, driver"),
        (QualifyingLap("A", 0, 0, 100_000), ["A"], "qualifying, A, rolls"),
        (QualifyingLap("A", 40, -1, 100_000), ["A"], "qualifying, A, penalty_points"),
        (QualifyingLap("A", 40, 0, 100_000, errors=-1), ["A"], "qualifying, A, errors"),
        (QualifyingLap("A", 40, 0, 0), ["A"], "qualifying, A, lap_time"),
        (QualifyingLap("A", 40, 0, 100_000, run=2), ["A"], "qualifying, A, run"),
        (QualifyingLap("A", 40, 0, 100_000), ["B"], "qualifying, A"),
        (QualifyingLap("A", 40, 0, 100_000, driven_by="C"), ["A"], "qualifying, A, driven_by"),
        (QualifyingLap("A", 40, 0, 100_000), ["A", "A"], "qualifying, starters"),
        (QualifyingLap("A", 40, 0, 100_000), ["A", "Nobody"], "qualifying, starters"),
    ],
)
def test_bad_qualifying_is_refused_naming_the_field(
    lap: QualifyingLap, starters: list[str], field: str
) -> None:
    teams = roster(DRESDEN_SEASON_2006, {"R": ["A", "B"], "S": ["C"]})
    with pytest.raises(RennleitungError) as error:
        build_qualifying(1, [lap], starters, teams, random.Random(0))
    assert error.value.where == field
    assert error.value.de and error.value.en and error.value.de != error.value.en


def test_two_laps_in_one_run_are_refused() -> None:
    teams = roster(DRESDEN_SEASON_2006, {"R": ["A"]})
    laps = [QualifyingLap("A", 40, 0, 100_000), QualifyingLap("A", 39, 0, 100_000)]
    with pytest.raises(RennleitungError, match="same run"):
        build_qualifying(1, laps, ["A"], teams, random.Random(0))


def test_run_weather_is_recorded_and_feeds_a_changeable_race_start() -> None:
    teams = roster(DRESDEN_OPEN, {"R": ["A"]}, cities={"A": "X"})
    laps = [QualifyingLap("A", 40, 0, 100_000, run=1), QualifyingLap("A", 41, 0, 100_000, run=2)]
    result = build_qualifying(1, laps, ["A"], teams, random.Random(0),
                              [Weather.RAIN, Weather.CHANGEABLE])
    assert result.weather == (Weather.RAIN, Weather.RAIN)
    assert result.race_start_weather_if_changeable() is Weather.RAIN
    with pytest.raises(RennleitungError) as error:
        build_qualifying(1, laps, ["A"], teams, random.Random(0), [Weather.SUN])
    assert error.value.where == "qualifying, A, run"
    with pytest.raises(RennleitungError) as error:
        build_qualifying(1, laps, ["A"], teams, random.Random(0), [Weather.SUN] * 3)
    assert error.value.where == "qualifying, weather"
