"""A league exported as JSON and imported again, also from SQLite into PostgreSQL."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from store_fixtures import SEASON, build_season, karma_race, row_counts, simple_race

from rennleitung.errors import RennleitungError
from rennleitung.league.qualifying import QualifyingLap
from rennleitung.league.qualifying_weather import Weather
from rennleitung.store.league_store import LeagueStore


def filled(store: LeagueStore) -> None:
    """A season with qualifying (weather, a draw), a race with karma, a second race, drops."""
    build_season(store)
    laps = [QualifyingLap("Clara", 40, 1, 130_000), QualifyingLap("Anna", 38, 0, 150_000)]
    grid = store.enter_qualifying(SEASON, 1, laps, ["Dirk", "Ben", "Anna", "Clara"], seed=7,
                                  rolled_weather=[Weather.CHANGEABLE])
    race = karma_race()
    order = grid.grid_order()
    race = replace(race, drivers=tuple(replace(e, grid=order.index(e.driver) + 1)
                                       for e in race.drivers))
    store.enter_race(SEASON, race)
    store.enter_race(SEASON, simple_race(2, ["Dirk", "Clara", "Ben", "Anna"]))
    store.name_drops(SEASON, "Ben", [2])


def test_export_and_import_give_the_same_league(store: LeagueStore) -> None:
    filled(store)
    text = json.dumps(store.export_league(SEASON))
    imported = store.import_league(json.loads(text), name="Kopie")
    original = store.load(SEASON)
    assert store.load("Kopie") == replace(original, name="Kopie") == imported
    copy_ledger = store.karma_ledger("Kopie")
    for driver in ("Anna", "Ben", "Clara", "Dirk"):
        assert [e for e in copy_ledger if e.driver == driver] == [
            e for e in store.karma_ledger(SEASON) if e.driver == driver
        ]
    assert store.qualifying_seed("Kopie", 1) == 7


def test_the_history_of_corrections_moves_with_the_league(store: LeagueStore) -> None:
    """Issue 26: export and import kept the league but dropped what was corrected."""
    filled(store)
    store.enter_race(SEASON, simple_race(3, ["Anna", "Ben", "Clara", "Dirk"]))
    store.replace_race(SEASON, simple_race(3, ["Ben", "Anna", "Clara", "Dirk"]), by="Orga")
    history = store.history(SEASON)
    assert [c.action for c in history] == ["replace-race"]
    store.import_league(json.loads(json.dumps(store.export_league(SEASON))), name="Kopie")
    assert store.history("Kopie") == history


def test_a_bad_history_entry_is_named(store: LeagueStore) -> None:
    filled(store)
    good = store.export_league(SEASON)
    before = row_counts(store)
    entry = {"at": "2006-05-01T10:00:00+00:00", "by": "Orga", "action": "replace-race",
             "subject": "race 1", "before": None, "after": None}
    for history, where in [
        ("not a list", "history"),
        ([entry, {**entry, "action": "erase-all"}], "history 2, action"),
        ([{**entry, "by": 5}], "history 1, by"),
    ]:
        with pytest.raises(RennleitungError) as error:
            store.import_league({**good, "history": history}, name="Kopie")
        assert error.value.where == where
    assert row_counts(store) == before


def test_from_sqlite_into_either_database(store: LeagueStore, tmp_path: Path) -> None:
    source = LeagueStore.open(f"sqlite:///{tmp_path / 'source.sqlite3'}")
    try:
        filled(source)
        exported = json.dumps(source.export_league(SEASON))
        expected = source.load(SEASON)
    finally:
        source.engine.dispose()
    store.import_league(json.loads(exported))
    assert store.load(SEASON) == expected


def test_bad_exports_are_refused_and_write_nothing(store: LeagueStore) -> None:
    filled(store)
    good = store.export_league(SEASON)
    before = row_counts(store)
    cases = [
        ({**good, "format": "other"}, "export"),
        ({**good, "races": "not a list"}, "export, races"),
        ({**good, "drivers": [{"team": "Rot"}]}, "export"),
        ({**good, "teams": ["Rot"]}, "team"),  # drivers of team Blau now unknown
        (
            {**good, "qualifying": [{**good["qualifying"][0],
                                     "grid": list(reversed(good["qualifying"][0]["grid"]))}]},
            "export, qualifying 1",
        ),
        ({**good, "drops": {"Ben": [1, 2, 3]}}, "drops"),
    ]
    for data, where in cases:
        with pytest.raises(RennleitungError) as error:
            store.import_league(data, name="Kopie")
        assert error.value.where == where, data
        assert error.value.de != error.value.en
    with pytest.raises(RennleitungError) as error:
        store.import_league(good)  # same name
    assert error.value.where == "league"
    assert row_counts(store) == before
