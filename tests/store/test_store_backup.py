"""`rennleitung db backup`: a copy of an SQLite database taken while another process writes
holds every commit made before it (a plain file copy misses what is still in the ``-wal``
file); PostgreSQL gets a clear pointer to pg_dump. Real processes, real files."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from rennleitung.league.formats import LeagueKind
from rennleitung.store.league_store import LeagueStore

WRITER = """
import sys, time
from pathlib import Path
from rennleitung.store.league_store import LeagueStore
store = LeagueStore.open(sys.argv[1])
stop = Path(sys.argv[2])
n = 0
while not stop.exists():
    n += 1
    store.add_team("L", f"T{n}")
    print(n, flush=True)
    time.sleep(0.005)
"""


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(Path(sys.executable).parent / "rennleitung"), *args],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "RENNLEITUNG_LANG": "en"})


def teams(url: str) -> int:
    store = LeagueStore.open(url)
    try:
        return len(store.load("L").roster.teams) if store.leagues() else 0
    finally:
        store.engine.dispose()


def test_backup_while_a_writer_runs(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'live.sqlite3'}"
    first = LeagueStore.open(url)
    first.create_league("L", LeagueKind.SEASON)
    first.engine.dispose()
    stop = tmp_path / "stop"
    writer = subprocess.Popen([sys.executable, "-c", WRITER, url, str(stop)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout is not None
        committed = 0
        while committed < 40:
            committed = int(writer.stdout.readline())
        naive = tmp_path / "naive.sqlite3"
        shutil.copyfile(tmp_path / "live.sqlite3", naive)  # what `cp` would take
        assert (tmp_path / "live.sqlite3-wal").exists()
        done = cli("db", "backup", str(tmp_path / "copy.sqlite3"), "--db", url)
        assert done.returncode == 0, done.stderr
        assert "backed up:" in done.stdout
        again = cli("db", "backup", str(tmp_path / "copy.sqlite3"), "--db", url)
        assert again.returncode == 1 and "already exists (overwrite with --force)" in \
            again.stderr
    finally:
        stop.touch()
        writer.wait(timeout=60)
    assert not (tmp_path / "copy.sqlite3-wal").exists()
    copied = teams(f"sqlite:///{tmp_path / 'copy.sqlite3'}")
    assert copied >= committed  # every commit before the backup, none lost in the log
    assert teams(f"sqlite:///{naive}") < committed  # the plain copy lost the log's commits
    assert teams(url) >= copied


def test_backup_refusals_and_postgresql(tmp_path: Path, database_url: str) -> None:
    done = cli("db", "backup", str(tmp_path / "copy.sqlite3"), "--db", database_url)
    if database_url.startswith("postgresql"):
        assert done.returncode == 1 and "pg_dump --format=custom --file=FILE" in done.stderr
        assert "Traceback" not in done.stderr and not (tmp_path / "copy.sqlite3").exists()
        return
    assert done.returncode == 1 and "no database file" in done.stderr
    LeagueStore.open(database_url).engine.dispose()
    assert cli("db", "backup", str(tmp_path / "nowhere" / "c.sqlite3"), "--db",
               database_url).stderr.count("no folder") == 1
    assert cli("db", "backup", str(tmp_path / "c.sqlite3"), "--db", database_url).returncode == 0
    assert teams(f"sqlite:///{tmp_path / 'c.sqlite3'}") == 0  # the empty schema, copied
