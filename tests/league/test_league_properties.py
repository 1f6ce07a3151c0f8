"""Properties of the tables over random seasons (hypothesis): what must hold for any results."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from league_builders import race, roster

from rennleitung.league.constructor_standings import constructor_standings
from rennleitung.league.driver_standings import driver_standings
from rennleitung.league.formats import DRESDEN_SEASON_2006
from rennleitung.league.karma import karma_ledger
from rennleitung.league.race_result import RaceResult
from rennleitung.league.season import League

NAMES = ["A", "B", "C", "D", "E", "F", "G", "H", "I"]
TEAMS = {"T1": ["A", "B"], "T2": ["C", "D"], "T3": ["E", "F"], "T4": ["G", "H"], "T5": ["I"]}


@st.composite
def seasons(draw: st.DrawFn) -> League:
    count = draw(st.integers(min_value=1, max_value=10))
    races: list[RaceResult] = []
    for number in range(1, count + 1):
        starters = draw(st.lists(st.sampled_from(NAMES), min_size=1, unique=True))
        finish = draw(st.permutations(starters))
        grid = draw(st.permutations(starters))
        retirements = draw(st.integers(min_value=0, max_value=len(finish)))
        laps = sorted(draw(st.lists(st.integers(0, 2), min_size=retirements,
                                    max_size=retirements)), reverse=True)
        retired = dict(zip(finish[len(finish) - retirements:], laps, strict=True))
        races.append(race(number, finish, grid=grid, retired=retired))
    league = League("p", roster(DRESDEN_SEASON_2006, TEAMS))
    for result in races:
        league = league.with_race(result)
    return league


@settings(max_examples=60, deadline=None)
@given(seasons())
def test_tables_are_consistent(league: League) -> None:
    drivers = driver_standings(league)
    teams = constructor_standings(league)
    held = len(league.races)
    # Constructors count every point, so they add up to the drivers' gross points.
    assert sum(t.points for t in teams) == sum(d.gross_points for d in drivers)
    for line in drivers:
        dropped = [r for r in line.races if r.dropped]
        assert len(dropped) == max(0, held - 8)
        assert line.points == line.gross_points - sum(r.points for r in dropped)
        kept = [r.points for r in line.races if not r.dropped]
        assert all(d.points <= min(kept, default=d.points) for d in dropped)
    ranks = [line.rank for line in drivers]
    assert ranks == sorted(ranks) and ranks[0] == 1
    points = [line.points for line in drivers]
    assert points == sorted(points, reverse=True)
    # Per race, points never exceed the table and go only to cars with two laps.
    for result in league.races:
        assert sum(
            r.points for line in drivers for r in line.races if r.race == result.race
        ) <= sum(DRESDEN_SEASON_2006.race_points)


@settings(max_examples=40, deadline=None)
@given(seasons())
def test_karma_balances_follow_the_movements(league: League) -> None:
    balances: dict[str, int] = {}
    for entry in karma_ledger(league):
        balances[entry.driver] = balances.get(entry.driver, 0) + entry.amount
        assert entry.balance == balances[entry.driver]
        assert entry.amount != 0
