"""Constructors' championship, the Open (×100, qualifying points) and the city ranking."""

from __future__ import annotations

import random
from fractions import Fraction

from league_builders import league_with, race, roster
from test_league_drivers_championship import full_season

from rennleitung.league.city_standings import city_standings
from rennleitung.league.constructor_standings import constructor_standings
from rennleitung.league.driver_standings import driver_standings
from rennleitung.league.formats import DRESDEN_OPEN, DRESDEN_SEASON_2006
from rennleitung.league.grid import build_qualifying
from rennleitung.league.profiles import DriverProfile
from rennleitung.league.qualifying import QualifyingLap
from rennleitung.league.season import League


def test_constructors_count_every_point_without_drops() -> None:
    table = constructor_standings(full_season())
    # Rot = Anna 86 + Ben 82 gross; Blau = Clara 72 gross; drops do not apply to teams.
    assert [(t.rank, t.team, t.points) for t in table] == [(1, "Rot", 168), (2, "Blau", 72)]
    rot = table[0]
    assert dict(rot.points_by_race)[1] == 10 + 8


def test_constructors_countback() -> None:
    teams = roster(
        DRESDEN_SEASON_2006, {"Eins": ["A1", "A2"], "Zwei": ["B1", "B2"], "Drei": ["C1"]}
    )
    league = league_with(teams, [race(1, ["B1", "A1", "A2", "C1", "B2"])])
    # Eins 8+6 = 14, Zwei 10+4 = 14 (Zwei has the win), Drei 5.
    assert [(t.rank, t.team, t.points) for t in constructor_standings(league)] == [
        (1, "Zwei", 14), (2, "Eins", 14), (3, "Drei", 5)
    ]


def open_league() -> League:
    teams = roster(
        DRESDEN_OPEN,
        {"Elbe": ["Anna", "Ben"], "Pleisse": ["Clara"], "Solo": ["Dora"]},
        profiles={"Ben": DriverProfile.THEORIST, "Clara": DriverProfile.PRACTITIONER},
        cities={"Anna": "Dresden", "Ben": "Dresden", "Clara": "Leipzig", "Dora": "Leipzig"},
    )
    laps = [
        # 40 + 2 + 3 whole minutes = 45
        QualifyingLap("Anna", rolls=40, penalty_points=2, lap_time_ms=190_000),
        # 44 + 0 + 2 - 1 (Theoretiker) = 45, faster than Anna: pole
        QualifyingLap("Ben", rolls=44, penalty_points=0, lap_time_ms=125_000),
        # 41 + 1 + 4 + 1 (Praktiker) = 47
        QualifyingLap("Clara", rolls=41, penalty_points=1, lap_time_ms=299_000),
    ]
    qualifying = build_qualifying(1, laps, ["Anna", "Ben", "Clara", "Dora"], teams,
                                  random.Random(7))
    league = League("Open", teams).with_qualifying(qualifying)
    return league.with_race(
        race(1, ["Clara", "Anna", "Dora", "Ben"], grid=["Ben", "Anna", "Clara", "Dora"],
             retired={"Ben": 1})
    )


def test_open_points_times_hundred_plus_qualifying_points() -> None:
    table = [(line.driver, line.points) for line in driver_standings(open_league())]
    # Clara 1000 + 98, Anna 800 + 99, Dora 600 + 0 (drawn), Ben 0 (one lap) + 100 (pole)
    assert table == [("Clara", 1098), ("Anna", 899), ("Dora", 600), ("Ben", 100)]


def test_open_has_no_drops() -> None:
    league = open_league()
    assert all(not r.dropped for line in driver_standings(league) for r in line.races)


def test_city_ranking_is_the_average_per_driver() -> None:
    table = city_standings(open_league())
    assert [(c.rank, c.city, c.total_points, c.score) for c in table] == [
        (1, "Leipzig", 1698, Fraction(1698, 2)),
        (2, "Dresden", 999, Fraction(999, 2)),
    ]


def test_city_tie_goes_to_the_city_with_the_better_best_driver() -> None:
    teams = roster(
        DRESDEN_OPEN, {"T1": ["Anna", "Ben"], "T2": ["Clara"]},
        cities={"Anna": "Dresden", "Ben": "Dresden", "Clara": "Leipzig"},
    )
    # Anna 1000, Ben 600 -> Dresden 800 per driver; Clara 800 -> Leipzig 800.
    league = league_with(teams, [race(1, ["Anna", "Clara", "Ben"])])
    table = city_standings(league)
    assert [(c.rank, c.city, c.score) for c in table] == [
        (1, "Dresden", Fraction(800)), (2, "Leipzig", Fraction(800))
    ]
