"""Drivers' championship of the Dresden season against hand-computed tables."""

from __future__ import annotations

from league_builders import league_with, race, roster

from rennleitung.league.driver_standings import driver_standings
from rennleitung.league.formats import DRESDEN_SEASON_2006
from rennleitung.league.progression import points_after_each_race
from rennleitung.league.season import League

# Ten races, three drivers; points 10-8-6. Hand-computed on paper:
#   Anna 10,10, 8, 8,10, 6,10, 6,10, 8 = 86, drops r6 and r8 (6, 6)      -> 74
#   Ben   8, 8,10, 6, 6,10, 8, 8, 8,10 = 82, drops r4 and r5 (6, 6)      -> 70
#   Clara 6, 6, 6,10, 8, 8, 6,10, 6, 6 = 72, drops r1 and r2 (earliest) -> 60
ORDERS = ["ABC", "ABC", "BAC", "CAB", "ACB", "BCA", "ABC", "CBA", "ABC", "BAC"]
NAMES = {"A": "Anna", "B": "Ben", "C": "Clara"}


def full_season() -> League:
    teams = roster(DRESDEN_SEASON_2006, {"Rot": ["Anna", "Ben"], "Blau": ["Clara"]})
    races = [race(n, [NAMES[c] for c in order]) for n, order in enumerate(ORDERS, start=1)]
    return league_with(teams, races)


def test_two_lowest_results_are_dropped_at_season_end() -> None:
    table = {line.driver: line for line in driver_standings(full_season())}
    assert [(line.driver, line.points, line.gross_points) for line in table.values()] == [
        ("Anna", 74, 86), ("Ben", 70, 82), ("Clara", 60, 72)
    ]
    dropped = {name: {r.race for r in line.races if r.dropped} for name, line in table.items()}
    assert dropped == {"Anna": {6, 8}, "Ben": {4, 5}, "Clara": {1, 2}}


def test_named_drops_replace_the_default() -> None:
    league = full_season().with_named_drops("Ben", (1, 2))
    table = {line.driver: line for line in driver_standings(league)}
    assert table["Ben"].points == 82 - 8 - 8
    assert {r.race for r in table["Ben"].races if r.dropped} == {1, 2}


def test_one_named_drop_and_one_lowest() -> None:
    league = full_season().with_named_drops("Anna", (3,))
    anna = next(line for line in driver_standings(league) if line.driver == "Anna")
    # named race 3 (8 points) plus the lowest of the rest, race 6 (6 points)
    assert {r.race for r in anna.races if r.dropped} == {3, 6}
    assert anna.points == 86 - 8 - 6


def test_drops_take_effect_only_late_in_the_season() -> None:
    steps = dict(points_after_each_race(full_season()))
    # After 8 races the best 8 of 8 count; after 9 races the best 8 of 9.
    assert steps[8]["Anna"] == 10 + 10 + 8 + 8 + 10 + 6 + 10 + 6
    assert steps[9]["Anna"] == 10 + 10 + 8 + 8 + 10 + 6 + 10 + 6 + 10 - 6
    assert steps[10]["Anna"] == 74
    assert steps[1] == {"Anna": 10, "Ben": 8, "Clara": 6}


def test_two_laps_rule() -> None:
    teams = roster(DRESDEN_SEASON_2006, {"Rot": ["Anna", "Ben"], "Blau": ["Clara", "Dirk"]})
    league = league_with(
        teams,
        [race(1, ["Anna", "Ben", "Clara", "Dirk"], retired={"Clara": 2, "Dirk": 1})],
    )
    points = {line.driver: line.points for line in driver_standings(league)}
    assert points == {"Anna": 10, "Ben": 8, "Clara": 6, "Dirk": 0}


def test_countback_more_wins_first_then_shared_rank() -> None:
    teams = roster(
        DRESDEN_SEASON_2006,
        {"T1": ["Xaver", "Yvonne"], "T2": ["Zora", "Uwe"], "T3": ["Vera"]},
    )
    league = league_with(
        teams,
        [
            race(1, ["Xaver", "Yvonne", "Zora", "Uwe", "Vera"]),
            race(2, ["Zora", "Uwe", "Yvonne", "Vera", "Xaver"]),
        ],
    )
    # Xaver 10+4 = 14 (one win), Yvonne 8+6 = 14 (no win): Xaver ahead.
    # Zora 6+10 = 16; Uwe 5+8 = 13; Vera 4+5 = 9.
    table = [(line.rank, line.driver, line.points) for line in driver_standings(league)]
    assert table == [
        (1, "Zora", 16), (2, "Xaver", 14), (3, "Yvonne", 14), (4, "Uwe", 13), (5, "Vera", 9)
    ]


def test_complete_tie_shares_the_rank() -> None:
    teams = roster(DRESDEN_SEASON_2006, {"T1": ["Xaver", "Yvonne"], "T2": ["Zora"]})
    league = league_with(
        teams,
        [race(1, ["Xaver", "Zora", "Yvonne"]), race(2, ["Yvonne", "Zora", "Xaver"])],
    )
    # Xaver 10+6, Yvonne 6+10: 16 each, one win and one third each; Zora 8+8.
    table = [(line.rank, line.driver, line.points) for line in driver_standings(league)]
    assert table == [(1, "Xaver", 16), (1, "Yvonne", 16), (3, "Zora", 16)]


def test_absent_driver_scores_nothing_and_car_driven_by_team_mate_scores_for_its_driver() -> (
    None
):
    teams = roster(DRESDEN_SEASON_2006, {"Rot": ["Anna", "Ben"], "Blau": ["Clara", "Dirk"]})
    league = league_with(
        teams,
        [race(1, ["Ben", "Anna", "Clara"], driven_by={"Ben": "Anna"})],
    )
    table = {line.driver: line for line in driver_standings(league)}
    assert table["Ben"].points == 10
    assert table["Ben"].races[0].driven_by == "Anna"
    assert table["Dirk"].points == 0
    assert table["Dirk"].races[0].position is None
