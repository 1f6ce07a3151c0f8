"""Standings of a 10-race season with 40 drivers, recomputed from the database.

Prints the median time of load + drivers' and constructors' tables + karma ledger on an SQLite
file (target: under 100 ms) and, beside it, on the PostgreSQL of ``RENNLEITUNG_TEST_PG_URL``
(``sh scripts/services.sh && . ./.services.env``), in a throw-away schema.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from sqlalchemy import create_engine, text

from rennleitung.league.constructor_standings import constructor_standings
from rennleitung.league.driver_standings import driver_standings
from rennleitung.league.formats import LeagueKind
from rennleitung.league.karma import karma_ledger
from rennleitung.league.race_result import (
    DriverRaceResult,
    FinishStatus,
    InRaceKarma,
    InRaceKarmaKind,
    RaceResult,
)
from rennleitung.league.roster import Driver
from rennleitung.store.league_store import LeagueStore

LEAGUE = "Benchmark 2006"
DRIVERS = 40
RACES = 10
REPEATS = 15


def fill(store: LeagueStore) -> None:
    """20 teams of two, ten races with retirements and karma events."""
    dice = random.Random(2006)
    store.create_league(LEAGUE, LeagueKind.SEASON)
    names = [f"Fahrer {n:02d}" for n in range(1, DRIVERS + 1)]
    for team in range(DRIVERS // 2):
        store.add_team(LEAGUE, f"Team {team:02d}")
        for name in names[2 * team: 2 * team + 2]:
            store.add_driver(LEAGUE, Driver(name, f"Team {team:02d}", city="Dresden"))
    for race in range(1, RACES + 1):
        grid = names[:]
        dice.shuffle(grid)
        finish = names[:]
        dice.shuffle(finish)
        retired_from = DRIVERS - dice.randint(0, 6)
        retired_laps = sorted((dice.randint(0, 2) for _ in finish), reverse=True)
        entries = []
        for place, name in enumerate(finish, start=1):
            out = place > retired_from
            entries.append(
                DriverRaceResult(
                    name, grid.index(name) + 1, place,
                    retired_laps[place - retired_from - 1] if out else 3,
                    FinishStatus.RETIRED if out else FinishStatus.FINISHED,
                    laps_most_led=1 if place <= 3 else 0,
                    karma=(InRaceKarma(InRaceKarmaKind.TWENTY_ROLLED),) * dice.randint(0, 2),
                )
            )
        store.enter_race(LEAGUE, RaceResult(race, tuple(entries)))


def measure(store: LeagueStore) -> float:
    """Median milliseconds for load and every standings table."""
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        league = store.load(LEAGUE)
        driver_standings(league)
        constructor_standings(league)
        karma_ledger(league)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def sqlite_figure() -> float:
    with tempfile.TemporaryDirectory() as folder:
        store = LeagueStore.open(f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        fill(store)
        figure = measure(store)
        store.engine.dispose()
        return figure


def postgres_figure(base: str) -> float:
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base)
    with admin.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        separator = "&" if "?" in base else "?"
        store = LeagueStore.open(f"{base}{separator}options=-csearch_path%3D{schema}")
        fill(store)
        figure = measure(store)
        store.engine.dispose()
        return figure
    finally:
        with admin.begin() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


def main() -> None:
    sqlite_ms = sqlite_figure()
    line = f"league standings, {RACES} races x {DRIVERS} drivers: SQLite {sqlite_ms:.1f} ms"
    line += " (target < 100 ms)"
    base = os.environ.get("RENNLEITUNG_TEST_PG_URL")
    if base:
        line += f" | PostgreSQL {postgres_figure(base):.1f} ms"
    else:
        line += " | PostgreSQL: not measured (RENNLEITUNG_TEST_PG_URL unset)"
    print(line)


if __name__ == "__main__":
    main()
