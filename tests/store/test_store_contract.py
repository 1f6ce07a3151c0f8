"""Storage contract: the same behaviour on SQLite and PostgreSQL (see conftest.py)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import IntegrityError
from store_fixtures import SEASON, build_season, karma_race, row_counts, simple_race

from rennleitung.errors import RennleitungError
from rennleitung.league.driver_standings import driver_standings
from rennleitung.league.enter_race import enter_race
from rennleitung.league.formats import LeagueKind
from rennleitung.league.grid import build_qualifying
from rennleitung.league.karma import KarmaReason, karma_balances, karma_ledger
from rennleitung.league.profiles import DriverProfile
from rennleitung.league.qualifying import QualifyingLap
from rennleitung.league.qualifying_weather import Weather
from rennleitung.league.race_result import InRaceKarma, InRaceKarmaKind, RaceSource, RoundOrder
from rennleitung.league.roster import Driver
from rennleitung.league.season import League
from rennleitung.store.database import MIGRATIONS
from rennleitung.store.league_store import LeagueStore
from rennleitung.store.models import Base


def test_migrations_create_exactly_the_model_schema(store: LeagueStore) -> None:
    with store.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert differences == []
    assert set(Base.metadata.tables) <= set(inspect(store.engine).get_table_names())


def test_reopening_keeps_the_data(store: LeagueStore, database_url: str) -> None:
    build_season(store)
    again = LeagueStore.open(database_url)
    try:
        assert again.load(SEASON).roster == store.load(SEASON).roster
        assert again.leagues() == [(SEASON, LeagueKind.SEASON)]
    finally:
        again.engine.dispose()


def test_roster_round_trip(store: LeagueStore) -> None:
    build_season(store)
    roster = store.load(SEASON).roster
    assert roster.teams == ("Rot", "Blau")
    assert [(d.name, d.team, d.profile, d.city) for d in roster.drivers] == [
        ("Anna", "Rot", DriverProfile.NORMAL, "Dresden"),
        ("Ben", "Rot", DriverProfile.THEORIST, "Dresden"),
        ("Clara", "Blau", DriverProfile.NORMAL, "Dresden"),
        ("Dirk", "Blau", DriverProfile.NORMAL, "Dresden"),
    ]


def test_season_standings_from_the_database_equal_the_engine(store: LeagueStore) -> None:
    build_season(store)
    orders = [["Anna", "Ben", "Clara", "Dirk"], ["Dirk", "Clara", "Ben", "Anna"],
              ["Ben", "Anna", "Dirk", "Clara"]]
    in_memory = League(SEASON, store.load(SEASON).roster)
    for number, order in enumerate(orders, start=1):
        store.enter_race(SEASON, simple_race(number, order))
        in_memory, _ = enter_race(in_memory, simple_race(number, order))
    store.name_drops(SEASON, "Anna", [3])
    in_memory = in_memory.with_named_drops("Anna", (3,))
    loaded = store.load(SEASON)
    assert loaded == in_memory
    table = [(line.driver, line.points) for line in driver_standings(loaded)]
    # Anna 10+5(+6 dropped); Ben 8+6+10; Clara 6+8+5; Dirk 5+10+6
    assert table == [("Ben", 24), ("Dirk", 21), ("Clara", 19), ("Anna", 15)]


def test_karma_ledger_is_booked_as_the_engine_computes_it(store: LeagueStore) -> None:
    build_season(store)
    booked = store.enter_race(SEASON, karma_race())
    assert [(e.driver, e.amount, e.reason) for e in booked] == [
        ("Anna", 1, KarmaReason.TWENTY_ROLLED),
        ("Anna", -20, KarmaReason.PLUS_ONE),
        ("Anna", 1, KarmaReason.TWENTY_ROLLED),
        ("Anna", 10, KarmaReason.CHAMPIONSHIP_POINTS),
        ("Anna", 9, KarmaReason.PLACES_GAINED),
        ("Anna", 6, KarmaReason.LAPS_MOST_LED),
        ("Ben", 8, KarmaReason.CHAMPIONSHIP_POINTS),
        ("Ben", 3, KarmaReason.LAPS_MOST_LED),
        ("Clara", 6, KarmaReason.CHAMPIONSHIP_POINTS),
    ]
    stored = store.karma_ledger(SEASON)
    assert karma_balances(stored) == {"Anna": 37, "Ben": 41, "Clara": 36, "Dirk": 30}
    computed = karma_ledger(store.load(SEASON))
    for driver in ("Anna", "Ben", "Clara", "Dirk"):
        assert [e for e in stored if e.driver == driver] == [
            e for e in computed if e.driver == driver
        ]
    ben = store.load(SEASON).races[0].result_of("Ben")
    assert ben is not None and ben.driven_by == "Anna"


def test_qualifying_round_trip_and_the_race_must_use_its_grid(store: LeagueStore) -> None:
    build_season(store)
    laps = [QualifyingLap("Clara", 40, 1, 130_000), QualifyingLap("Ben", 40, 1, 140_000)]
    starters = ["Anna", "Ben", "Clara", "Dirk"]
    stored = store.enter_qualifying(SEASON, 1, laps, starters, seed=99)
    expected = build_qualifying(1, laps, starters, store.load(SEASON).roster, random.Random(99))
    assert stored == expected
    loaded = store.load(SEASON).qualifying
    assert loaded == (expected,)
    # Everything needed to re-run the draw is stored: laps, starters in order, the seed.
    seed = store.qualifying_seed(SEASON, 1)
    rerun = build_qualifying(1, loaded[0].laps, loaded[0].starters, store.load(SEASON).roster,
                             random.Random(seed))
    assert rerun == expected
    assert stored.grid_order()[0] == "Ben"  # Theoretiker: 40 + 1 + 2 - 1 = 42 beats 43
    before = row_counts(store)
    with pytest.raises(RennleitungError) as error:
        store.enter_race(SEASON, simple_race(1, ["Anna", "Ben", "Clara", "Dirk"]))
    assert error.value.where == "race 1, grid"
    assert row_counts(store) == before
    store.enter_race(SEASON, simple_race(1, list(stored.grid_order())))
    assert store.load(SEASON).held_races() == (1,)


def refused(store: LeagueStore, where: str, action: object) -> RennleitungError:
    """Run ``action``; it must be refused naming ``where`` and leave every table unchanged."""
    before = row_counts(store)
    with pytest.raises(RennleitungError) as error:
        action()  # type: ignore[operator]
    assert error.value.where == where
    assert error.value.de != error.value.en
    assert row_counts(store) == before
    return error.value


def test_bad_input_is_refused_and_nothing_is_half_written(store: LeagueStore) -> None:
    build_season(store)
    store.enter_race(SEASON, simple_race(1, ["Anna", "Ben", "Clara", "Dirk"]))
    refused(store, "league", lambda: store.create_league(SEASON, LeagueKind.OPEN))
    refused(store, "league", lambda: store.create_league("  ", LeagueKind.OPEN))
    refused(store, "league", lambda: store.add_team("Nirgendwo", "Rot"))
    refused(store, "team", lambda: store.add_team(SEASON, "Rot"))
    error = refused(store, "team", lambda: store.add_driver(SEASON, Driver("Emil", "Rot")))
    assert "Anna" in error.en and "Ben" in error.en
    refused(store, "team", lambda: store.add_driver(SEASON, Driver("Emil", "Gelb")))
    refused(store, "driver", lambda: store.add_driver(SEASON, Driver("Anna", "Blau")))
    refused(store, "race", lambda: store.enter_race(SEASON, simple_race(1, ["Ben", "Anna"])))
    refused(store, "race 2, driver",
            lambda: store.enter_race(SEASON, simple_race(2, ["Anna", "Zoe"])))
    refused(store, "drops, driver", lambda: store.name_drops(SEASON, "Zoe", [1]))
    refused(store, "drops", lambda: store.name_drops(SEASON, "Anna", [1, 2, 3]))
    refused(store, "driver", lambda: store.add_driver(SEASON, Driver("X" * 101, "Blau")))
    refused(store, "league", lambda: store.create_league("L" * 101, LeagueKind.OPEN))
    refused(store, "seed", lambda: store.enter_qualifying(SEASON, 2, [], ["Anna"], 2**31))
    long_track = replace(simple_race(2, ["Anna"]), track="T" * 101)
    refused(store, "race 2, track", lambda: store.enter_race(SEASON, long_track))
    huge_lap = QualifyingLap("Anna", 40, 0, 2**40)
    refused(store, "qualifying, Anna, lap_time",
            lambda: store.enter_qualifying(SEASON, 2, [huge_lap], ["Anna"], 1))
    refused(store, "race 2, laps",
            lambda: store.enter_race(SEASON, replace(simple_race(2, ["Anna"]), laps=2**40)))
    refused(store, "qualifying, driver",
            lambda: store.enter_qualifying(SEASON, 2, [QualifyingLap("Zoe", 1, 0, 1)],
                                           ["Anna"], 1))


def test_a_race_refused_late_for_karma_writes_nothing(store: LeagueStore) -> None:
    build_season(store)
    broke = simple_race(1, ["Anna", "Ben", "Clara", "Dirk"])
    last = broke.drivers[-1]
    greedy = replace(
        broke,
        drivers=(*broke.drivers[:-1],
                 replace(last, karma=(InRaceKarma(InRaceKarmaKind.REROLL),))),
    )
    refused(store, "race 1, Dirk, karma", lambda: store.enter_race(SEASON, greedy))
    assert store.load(SEASON).races == ()


def test_open_league_with_cities_and_qualifying_points(store: LeagueStore) -> None:
    store.create_league("Open 2006", LeagueKind.OPEN)
    store.add_team("Open 2006", "Elbe")
    refused(store, "city", lambda: store.add_driver("Open 2006", Driver("Anna", "Elbe")))
    store.add_driver("Open 2006", Driver("Anna", "Elbe", city="Dresden"))
    store.add_driver("Open 2006", Driver("Ben", "Elbe", city="Leipzig"))
    laps = [QualifyingLap("Ben", 30, 0, 60_000, run=2), QualifyingLap("Anna", 35, 0, 60_000)]
    store.enter_qualifying("Open 2006", 1, laps, ["Anna", "Ben"], seed=1,
                           rolled_weather=[Weather.CHANGEABLE, Weather.CHANGEABLE])
    qualifying = store.load("Open 2006").qualifying_of(1)
    assert qualifying is not None and qualifying.weather == (Weather.SUN, Weather.SUN)
    store.enter_race("Open 2006", simple_race(1, ["Ben", "Anna"]))
    table = [(line.driver, line.points) for line in driver_standings(store.load("Open 2006"))]
    assert table == [("Ben", 1000 + 100), ("Anna", 800 + 99)]


def test_leagues_are_kept_apart(store: LeagueStore) -> None:
    build_season(store, "A")
    build_season(store, "B")
    store.enter_race("A", simple_race(1, ["Anna", "Ben"]))
    assert store.load("B").races == ()
    assert len(store.karma_ledger("B")) == 4
    assert [name for name, _ in store.leagues()] == ["A", "B"]


def test_only_the_last_race_can_be_deleted_and_it_leaves_no_trace(store: LeagueStore) -> None:
    build_season(store)
    store.enter_race(SEASON, karma_race())
    after_first = row_counts(store)
    ledger_after_first = store.karma_ledger(SEASON)
    store.enter_race(SEASON, simple_race(2, ["Dirk", "Clara", "Ben", "Anna"]))
    refused(store, "race", lambda: store.delete_race(SEASON, 1))
    refused(store, "race", lambda: store.delete_race(SEASON, 3))
    store.delete_race(SEASON, 2, by="Orga")
    history = store.history(SEASON)
    assert [(c.action, c.by, c.before["race"]) for c in history] == [("delete-race", "Orga", 2)]
    after_first["league_corrections"] += 1
    assert row_counts(store) == after_first
    assert store.karma_ledger(SEASON) == ledger_after_first
    assert store.load(SEASON).held_races() == (1,)
    store.enter_race(SEASON, simple_race(2, ["Anna", "Ben", "Clara", "Dirk"]))
    assert store.load(SEASON).held_races() == (1, 2)


def test_upgrade_from_the_first_revision_keeps_old_rows(database_url: str) -> None:
    engine = create_engine(database_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(text("INSERT INTO leagues (id, name, kind) VALUES (1, 'Alt', 'open')"))
        connection.execute(text(
            "INSERT INTO league_qualifyings (id, league_id, race_number, seed) VALUES (1, 1, 1, 5)"
        ))
    engine.dispose()
    store = LeagueStore.open(database_url)
    try:
        qualifying = store.load("Alt").qualifying_of(1)
        assert qualifying is not None and qualifying.weather == ()
    finally:
        store.engine.dispose()


def test_lap_chart_rounds_round_trip(store: LeagueStore) -> None:
    build_season(store)
    base = simple_race(1, ["Anna", "Ben", "Clara", "Dirk"])
    rounds = (RoundOrder(1, ("Ben", "Anna", "Clara", "Dirk")),
              RoundOrder(2, ("Anna", "Ben", "Clara", "Dirk")),
              RoundOrder(3, ("Anna", "Ben", "Clara", "Dirk")))
    drivers = tuple(
        replace(e, laps_most_led={"Anna": 2, "Ben": 1}.get(e.driver, 0)) for e in base.drivers
    )
    result = replace(base, drivers=drivers, rounds=rounds, source=RaceSource.ENGINE)
    store.enter_race(SEASON, result)
    assert store.load(SEASON).races == (result,)



@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO league_races (league_id, number, laps, track, source, rounds) "
        "SELECT id, 1, 3, '', 'table', '[]' FROM leagues",
        "INSERT INTO league_drivers (league_id, team_id, name, profile, city) "
        "SELECT league_id, id, 'Anna', 'normalo', '' FROM league_teams WHERE name = 'Blau'",
        "INSERT INTO league_teams (league_id, name) SELECT id, 'Rot' FROM leagues",
    ],
)
def test_the_schema_itself_guards_against_doubles(store: LeagueStore, statement: str) -> None:
    """Even a writer that bypasses the engine (or two organisers at once) cannot enter a race,
    a driver or a team twice: the database refuses on both kinds."""
    build_season(store)
    store.enter_race(SEASON, simple_race(1, ["Anna", "Ben"]))
    before = row_counts(store)
    with pytest.raises(IntegrityError), store.engine.begin() as connection:
        connection.execute(text(statement))
    assert row_counts(store) == before
