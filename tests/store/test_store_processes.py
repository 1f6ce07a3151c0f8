"""Real processes at once: eight opening a fresh database (the migrations take a lock), and a
read-only ``standings`` while another process is in the middle of a write."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from sqlalchemy import create_engine, inspect

from rennleitung.league.formats import LeagueKind
from rennleitung.league.roster import Driver
from rennleitung.store.league_store import LeagueStore

OPEN_AT_ONCE = textwrap.dedent("""
    import pathlib, sys, time
    from rennleitung.store.database import open_database
    go = pathlib.Path(sys.argv[2])
    while not go.exists():  # all start together once the test creates the file
        time.sleep(0.005)
    open_database(sys.argv[1]).dispose()
    print("opened")
""")


def test_eight_processes_open_a_fresh_database_at_once(database_url: str, tmp_path: Path) -> None:
    go = tmp_path / "go"
    processes = [
        subprocess.Popen([sys.executable, "-c", OPEN_AT_ONCE, database_url, str(go)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(8)
    ]
    go.touch()
    outcomes = [p.communicate(timeout=300) for p in processes]
    assert [p.returncode for p in processes] == [0] * 8, [err for _, err in outcomes]
    assert all(out.strip() == "opened" for out, _ in outcomes)
    engine = create_engine(database_url)
    try:
        assert {"leagues", "league_corrections", "alembic_version"} <= set(
            inspect(engine).get_table_names())
    finally:
        engine.dispose()


HOLD_WRITE = textwrap.dedent("""
    import pathlib, sys, time
    from sqlalchemy import text
    from rennleitung.store.database import WRITE, open_database
    engine = open_database(sys.argv[1])
    with engine.connect() as connection:
        connection = connection.execution_options(**{WRITE: True})
        with connection.begin():
            connection.execute(text("UPDATE league_drivers SET city = 'Leipzig'"))
            pathlib.Path(sys.argv[2]).touch()  # the write lock is held from here
            release = pathlib.Path(sys.argv[3])
            while not release.exists():
                time.sleep(0.01)
    print("committed")
""")


def test_standings_read_while_another_process_writes(tmp_path: Path) -> None:
    db = tmp_path / "league.sqlite3"
    store = LeagueStore.open(f"sqlite:///{db}")
    store.create_league("L", LeagueKind.SEASON)
    store.add_team("L", "Rot")
    store.add_driver("L", Driver("Anna", "Rot", city="Dresden"))
    store.engine.dispose()
    holding, release = tmp_path / "holding", tmp_path / "release"
    writer = subprocess.Popen(
        [sys.executable, "-c", HOLD_WRITE, f"sqlite:///{db}", str(holding), str(release)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        while not holding.exists():
            assert writer.poll() is None, writer.communicate()
            time.sleep(0.01)
        reader = subprocess.run(
            [str(Path(sys.executable).parent / "rennleitung"), "league", "standings", "L",
             "--json", "--db", str(db)],
            capture_output=True, text=True, timeout=300,
            env={**os.environ, "COLUMNS": "200"},
        )
        assert reader.returncode == 0, reader.stderr
        assert '"city": "Dresden"' in reader.stdout  # the last committed state
    finally:
        release.touch()
        out, err = writer.communicate(timeout=300)
    assert writer.returncode == 0, err
    assert out.strip() == "committed"
    after = LeagueStore.open(f"sqlite:///{db}")
    try:
        assert after.load("L").roster.drivers[0].city == "Leipzig"
    finally:
        after.engine.dispose()
