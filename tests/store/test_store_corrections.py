"""Corrections on SQLite and PostgreSQL: a race or qualifying replaced in place with every
later karma movement rebooked, names changed everywhere, mistakes removed, and every change in
the league's history with what was there before."""

from __future__ import annotations

from dataclasses import replace

import pytest
from store_fixtures import SEASON, build_season, karma_race, row_counts, simple_race

from rennleitung.errors import RennleitungError
from rennleitung.league.driver_standings import driver_standings
from rennleitung.league.enter_race import enter_race
from rennleitung.league.formats import LeagueKind
from rennleitung.league.karma import karma_balances, karma_ledger
from rennleitung.league.qualifying import QualifyingLap
from rennleitung.league.race_result import (
    InRaceKarma,
    InRaceKarmaKind,
    RaceResult,
)
from rennleitung.league.roster import Driver
from rennleitung.league.season import League
from rennleitung.store.league_store import LeagueStore

ORDER = ["Anna", "Ben", "Clara", "Dirk"]


def refused(store: LeagueStore, where: str, action: object) -> RennleitungError:
    before = row_counts(store)
    with pytest.raises(RennleitungError) as error:
        action()  # type: ignore[operator]
    assert error.value.where == where
    assert row_counts(store) == before
    return error.value


def typed_in_right(store: LeagueStore, races: list[RaceResult]) -> League:
    """The league as if every race had been typed in correctly from the start."""
    league = League(SEASON, store.load(SEASON).roster)
    for result in races:
        league, _ = enter_race(league, result)
    return league


def test_race_three_of_five_replaced_in_place_rebooks_every_later_karma(
    store: LeagueStore,
) -> None:
    build_season(store)
    races = [simple_race(n, ORDER) for n in range(1, 6)]
    # Dirk spends 20 in race 5: affordable only if race 3 paid him enough.
    races[4] = replace(races[4], drivers=tuple(
        replace(e, karma=(InRaceKarma(InRaceKarmaKind.PLUS_ONE),)) if e.driver == "Dirk" else e
        for e in races[4].drivers
    ))
    for result in races:
        store.enter_race(SEASON, result)
    corrected = simple_race(3, ["Dirk", "Clara", "Ben", "Anna"])
    booked = store.replace_race(SEASON, corrected, by="Orga")
    assert {(e.driver, e.amount) for e in booked if e.reason.value == "points"} == {
        ("Dirk", 10), ("Clara", 8), ("Ben", 6), ("Anna", 5)}
    right = typed_in_right(store, [*races[:2], corrected, *races[3:]])
    loaded = store.load(SEASON)
    assert loaded.races == right.races
    assert driver_standings(loaded) == driver_standings(right)
    stored = store.karma_ledger(SEASON)
    assert karma_balances(stored) == karma_balances(karma_ledger(right))
    for driver in ORDER:  # every movement rebooked, in race order, with the right balance
        assert [e for e in stored if e.driver == driver] == [
            e for e in karma_ledger(right) if e.driver == driver]
    (entry,) = store.history(SEASON)
    assert (entry.action, entry.by, entry.subject) == ("replace-race", "Orga", "race 3")
    assert [d["driver"] for d in entry.before["drivers"]] == ORDER
    assert [d["driver"] for d in entry.after["drivers"]] == ["Dirk", "Clara", "Ben", "Anna"]
    assert entry.at.endswith("+00:00")


def with_karma(result: RaceResult, driver: str, kind: InRaceKarmaKind) -> RaceResult:
    return replace(result, drivers=tuple(
        replace(e, karma=(InRaceKarma(kind),)) if e.driver == driver else e
        for e in result.drivers))


def test_a_correction_that_leaves_a_later_spending_uncovered_changes_nothing(
    store: LeagueStore,
) -> None:
    build_season(store)
    store.enter_race(SEASON, karma_race())  # Anna ends race 1 with 37 karma
    store.enter_race(SEASON, with_karma(simple_race(2, ORDER), "Anna", InRaceKarmaKind.PLUS_ONE))
    # Corrected: Anna spent 20 in race 1 too and came 4th from 4th: 30 - 20 + 5 = 15 < 20.
    corrected = with_karma(simple_race(1, ["Ben", "Clara", "Dirk", "Anna"]), "Anna",
                           InRaceKarmaKind.PLUS_ONE)
    ledger = store.karma_ledger(SEASON)
    error = refused(store, "race 2, Anna, karma", lambda: store.replace_race(SEASON, corrected))
    assert "15" in error.en
    assert store.karma_ledger(SEASON) == ledger
    assert store.history(SEASON) == ()


def test_qualifying_deleted_and_replaced_with_the_race_that_started_from_it(
    store: LeagueStore,
) -> None:
    build_season(store)
    laps = [QualifyingLap("Clara", 40, 0, 130_000), QualifyingLap("Ben", 44, 0, 140_000)]
    grid = store.enter_qualifying(SEASON, 1, laps, ORDER, seed=7).grid_order()
    assert grid[:2] == ("Clara", "Ben")
    store.enter_race(SEASON, simple_race(1, list(grid)))
    # The corrected laps put Ben on pole: the race started from the old grid, so the
    # qualifying alone is refused, and accepted together with the corrected race.
    fixed = [QualifyingLap("Clara", 40, 0, 130_000), QualifyingLap("Ben", 30, 0, 140_000)]
    refused(store, "race 1, grid", lambda: store.replace_qualifying(SEASON, 1, fixed, ORDER, 7))
    new_grid = ("Ben", "Clara", *grid[2:])
    store.replace_qualifying(SEASON, 1, fixed, ORDER, 7,
                             race_result=simple_race(1, list(new_grid)), by="Orga")
    loaded = store.load(SEASON)
    assert loaded.qualifying_of(1) is not None
    assert loaded.qualifying_of(1).grid_order() == new_grid  # type: ignore[union-attr]
    assert [e.driver for e in loaded.races[0].drivers] == list(new_grid)
    store.delete_qualifying(SEASON, 1, by="Orga")
    assert store.load(SEASON).qualifying == ()
    assert store.qualifying_seed(SEASON, 1) is None
    actions = [(c.action, c.subject) for c in store.history(SEASON)]
    assert actions == [("replace-qualifying", "qualifying 1"),
                       ("delete-qualifying", "qualifying 1")]
    first, second = store.history(SEASON)
    assert first.before["qualifying"]["grid"] == list(grid)
    assert first.after["qualifying"]["grid"] == list(new_grid)
    assert second.before["seed"] == 7
    refused(store, "race", lambda: store.delete_qualifying(SEASON, 1))


def test_a_qualified_driver_who_did_not_start(store: LeagueStore) -> None:
    build_season(store)
    laps = [QualifyingLap(name, 40 + 2 * n, 0, 130_000) for n, name in enumerate(ORDER)]
    store.enter_qualifying(SEASON, 1, laps, ORDER, seed=1)
    starters = ["Anna", "Clara", "Dirk"]
    result = replace(simple_race(1, starters), did_not_start=("Ben",))
    refused(store, "race 1, grid", lambda: store.enter_race(SEASON, simple_race(1, starters)))
    store.enter_race(SEASON, result)
    loaded = store.load(SEASON)
    assert loaded.races[0].did_not_start == ("Ben",)
    ben = next(line for line in driver_standings(loaded) if line.driver == "Ben")
    assert ben.points == 0 and ben.places == ()
    bogus = replace(simple_race(2, ORDER[:3]), did_not_start=("Dirk",))
    refused(store, "race 2, did_not_start", lambda: store.enter_race(SEASON, bogus))


def test_names_changed_everywhere_and_mistakes_removed(store: LeagueStore) -> None:
    build_season(store)
    laps = [QualifyingLap(name, 40 + 2 * n, 0, 130_000) for n, name in enumerate(ORDER)]
    store.enter_qualifying(SEASON, 1, laps, ORDER, seed=1)
    first = simple_race(1, ORDER[:3])
    store.enter_race(SEASON, replace(
        first, did_not_start=("Dirk",),
        drivers=tuple(replace(e, driven_by="Anna") if e.driver == "Ben" else e
                      for e in first.drivers)))
    store.rename_driver(SEASON, "Anna", "Anna-Lena", by="Orga")
    store.rename_driver(SEASON, "Dirk", "Dirk Müller, jr.", by="Orga")
    store.rename_team(SEASON, "Rot", "Scuderia Elbe", by="Orga")
    store.rename_league(SEASON, "Dresden 2006 (korrigiert)", by="Orga")
    name = "Dresden 2006 (korrigiert)"
    loaded = store.load(name)
    assert [d.name for d in loaded.roster.drivers] == ["Anna-Lena", "Ben", "Clara",
                                                       "Dirk Müller, jr."]
    assert loaded.roster.teams == ("Scuderia Elbe", "Blau")
    ben = loaded.races[0].result_of("Ben")
    assert ben is not None and ben.driven_by == "Anna-Lena"
    assert loaded.races[0].did_not_start == ("Dirk Müller, jr.",)
    quali = loaded.qualifying_of(1)
    assert quali is not None and "Anna-Lena" in quali.starters
    assert quali.grid_order()[0] == "Anna-Lena"
    assert store.karma_ledger(name) == karma_ledger(loaded)
    refused(store, "driver", lambda: store.rename_driver(name, "Ben", "Clara"))
    refused(store, "league", lambda: store.rename_league(name, "   "))
    # Removing: only what has nothing entered.
    refused(store, "driver", lambda: store.remove_driver(name, "Ben"))
    refused(store, "team", lambda: store.remove_team(name, "Blau"))
    store.add_team(name, "Tippfehler")
    store.add_driver(name, Driver("Zoe", "Tippfehler"))
    store.remove_driver(name, "Zoe", by="Orga")
    store.remove_team(name, "Tippfehler", by="Orga")
    assert "Zoe" not in karma_balances(store.karma_ledger(name))
    assert store.load(name).roster.teams == ("Scuderia Elbe", "Blau")
    actions = [c.action for c in store.history(name)]
    assert actions == ["rename-driver", "rename-driver", "rename-team", "rename-league",
                       "remove-driver", "remove-team"]
    assert store.history(name)[3].before == {"name": SEASON}


def test_a_league_deleted_takes_everything_and_leaves_others(store: LeagueStore) -> None:
    build_season(store, "A")
    build_season(store, "B")
    store.enter_race("A", karma_race())
    store.replace_race("A", karma_race())
    store.delete_league("A")
    assert [name for name, _ in store.leagues()] == ["B"]
    counts = row_counts(store)
    assert counts["league_races"] == 0 and counts["league_corrections"] == 0
    assert counts["league_drivers"] == 4
    refused(store, "league", lambda: store.delete_league("A"))
    store.create_league("A", LeagueKind.OPEN)


def test_unknown_race_cannot_be_replaced(store: LeagueStore) -> None:
    build_season(store)
    refused(store, "race", lambda: store.replace_race(SEASON, simple_race(1, ORDER)))
