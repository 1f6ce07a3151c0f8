"""The karma ledger against a hand-computed race."""

from __future__ import annotations

import pytest
from league_builders import league_with, race, roster

from rennleitung.errors import RennleitungError
from rennleitung.league.enter_race import enter_race
from rennleitung.league.formats import DRESDEN_OPEN, DRESDEN_SEASON_2006
from rennleitung.league.karma import KarmaReason, karma_balances, karma_ledger
from rennleitung.league.lap_leaders import laps_most_led
from rennleitung.league.race_result import InRaceKarma, InRaceKarmaKind, RaceResult
from rennleitung.league.roster import Roster
from rennleitung.league.season import League

TWENTY = InRaceKarma(InRaceKarmaKind.TWENTY_ROLLED)
PLUS_ONE = InRaceKarma(InRaceKarmaKind.PLUS_ONE)
REROLL = InRaceKarma(InRaceKarmaKind.REROLL)


def season_roster() -> Roster:
    return roster(DRESDEN_SEASON_2006, {"Rot": ["Anna", "Ben"], "Blau": ["Clara"]})


def hand_race() -> RaceResult:
    return race(
        1,
        ["Anna", "Ben", "Clara"],
        grid=["Ben", "Clara", "Anna"],
        retired={"Clara": 1},
        laps_most_led={"Anna": 2, "Ben": 1},
        karma={
            "Anna": [TWENTY, PLUS_ONE, TWENTY],
            "Ben": [InRaceKarma(InRaceKarmaKind.HEAD_TO_HEAD, 5)],
        },
    )


def test_ledger_of_a_hand_computed_race() -> None:
    league = League("s", season_roster())
    league, booked = enter_race(league, hand_race())
    rows = [(e.driver, e.amount, e.reason, e.balance) for e in booked]
    assert rows == [
        # Anna: 30 +1 -20 +1 = 12; 10 points -> 22; grid 3 -> 1: +6 -> 28; 2 laps led: +6 -> 34
        ("Anna", 1, KarmaReason.TWENTY_ROLLED, 31),
        ("Anna", -20, KarmaReason.PLUS_ONE, 11),
        ("Anna", 1, KarmaReason.TWENTY_ROLLED, 12),
        ("Anna", 10, KarmaReason.CHAMPIONSHIP_POINTS, 22),
        ("Anna", 6, KarmaReason.PLACES_GAINED, 28),
        ("Anna", 6, KarmaReason.LAPS_MOST_LED, 34),
        # Ben: bid 5 -> 25; 8 points -> 33; lost a place: nothing; 1 lap led: +3 -> 36
        ("Ben", -5, KarmaReason.HEAD_TO_HEAD, 25),
        ("Ben", 8, KarmaReason.CHAMPIONSHIP_POINTS, 33),
        ("Ben", 3, KarmaReason.LAPS_MOST_LED, 36),
        # Clara: one lap only, retired: no points and no places
    ]
    assert karma_balances(karma_ledger(league)) == {"Anna": 34, "Ben": 36, "Clara": 30}


def test_every_driver_starts_with_thirty() -> None:
    ledger = karma_ledger(League("s", season_roster()))
    assert [(e.driver, e.amount, e.reason) for e in ledger] == [
        (name, 30, KarmaReason.START) for name in ("Anna", "Ben", "Clara")
    ]


def test_spending_more_than_the_balance_is_refused_and_nothing_entered() -> None:
    league = League("s", season_roster())
    greedy = race(1, ["Anna", "Ben", "Clara"], karma={"Clara": [REROLL]})
    with pytest.raises(RennleitungError) as refused:
        enter_race(league, greedy)
    assert "Clara" in refused.value.en and "40" in refused.value.en
    assert "Karmapunkte" in refused.value.de
    assert league.races == ()


def test_open_karma_per_hundred_points() -> None:
    teams = roster(DRESDEN_OPEN, {"T": ["Anna", "Ben"]}, cities={"Anna": "D", "Ben": "L"})
    league = league_with(teams, [race(1, ["Anna", "Ben"], grid=["Anna", "Ben"])])
    points_rows = [
        (e.driver, e.amount) for e in karma_ledger(league)
        if e.reason is KarmaReason.CHAMPIONSHIP_POINTS
    ]
    assert points_rows == [("Anna", 10), ("Ben", 8)]


def test_laps_most_led_from_the_leader_after_each_round() -> None:
    leaders = [
        (1, "Anna"), (1, "Anna"), (1, "Ben"),  # lap 1: Anna 2 of 3
        (2, "Ben"), (2, "Anna"),  # lap 2: tie, both earn it
        (3, "Ben"), (3, "Ben"),  # lap 3: Ben
    ]
    assert laps_most_led(leaders) == {"Anna": 2, "Ben": 2}
