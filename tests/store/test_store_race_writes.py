"""An answer's write on SQLite runs its five statements on the driver's cursor (``race_store``,
``_Driven``): what it stores and what ``stamps`` reads back must be the same, value for value and
type for type, as through SQLAlchemy, and a refusal by the database is still one bilingual
error."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from rennleitung.errors import RennleitungError
from rennleitung.store import race_store
from rennleitung.store.race_store import (
    DecisionData,
    RaceData,
    RaceStore,
    SeatData,
    SnapshotData,
    add_decisions,
    add_race,
    add_snapshots,
    load_seats,
    save_race,
    save_seats,
    stamps,
)

MOMENT = datetime(2026, 12, 2, 16, 0, 0, tzinfo=UTC)  # no microseconds: the format's edge
LATER = MOMENT + timedelta(seconds=61, microseconds=250)
TABLES = ("play_races", "play_seats", "play_decisions", "play_snapshots")


def race_row() -> RaceData:
    return RaceData(id=0, name="Zandvoort", state="running", config='{"laps": 1}',
                    track_text=None, decision_seconds=60, commitment="c" * 64, seed="s",
                    version=0, organiser=None, created_at=MOMENT, updated_at=MOMENT)


def seat_rows() -> list[SeatData]:
    return [SeatData(id=0, race_id=0, number=n, car=f"car{n}", driver=f"Fahrer {n}",
                     kind="person" if n == 1 else "bot", bot="simple",
                     holder="h1" if n == 1 else None, asked_at=None, deadline_at=None)
            for n in (1, 2, 3)]


def one_answer(store: RaceStore) -> tuple[Any, ...]:
    """A race, then one answer's write as the play service makes it; what ``stamps`` read
    before and after it."""
    with store.write() as connection:
        race_id = add_race(connection, race_row(), seat_rows())
    with store.write() as connection:
        before = stamps(connection, race_id)
        seats = load_seats(connection, race_id)
        seats[0].asked_at, seats[0].deadline_at, seats[0].bank_left = MOMENT, LATER, 30
        seats[1].misses, seats[1].away_since = 2, LATER
        add_decisions(connection, [
            DecisionData(race_id, seq, f"car{seq}", "person" if seq == 1 else "bot",
                         "h1" if seq == 1 else None, '{"kind": "gear", "gear": 2, "ä": 1}',
                         LATER if seq == 2 else MOMENT)
            for seq in (1, 2, 3)])
        add_snapshots(connection, [SnapshotData(race_id, 1, 3, 7, '{"round": 1}', "[]",
                                                "[[4, 2]]")])
        save_seats(connection, seats[:2])
        race = race_row()
        race.id, race.version, race.updated_at, race.abandon_at = race_id, 3, LATER, LATER
        moved = save_race(connection, race, 0)
        missed = save_race(connection, race, 0)  # the compare-and-set: no longer at 0
    with store.write() as connection:
        after = stamps(connection, race_id)
    return before, after, moved, missed


def stored(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the play tables as SQLite holds it, each value with its storage type."""
    with sqlite3.connect(path) as raw:
        return {table: [tuple((value, type(value).__name__) for value in row)
                        for row in raw.execute(f"SELECT * FROM {table} ORDER BY id")]
                for table in TABLES}


def test_driver_path_stores_what_sqlalchemy_stores(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    cursors: list[object] = []
    with monkeypatch.context() as patch:
        real = race_store._cursor
        patch.setattr(race_store, "_cursor", lambda c: cursors.append(c) or real(c))
        driven = RaceStore.open(f"sqlite:///{tmp_path / 'driven.sqlite3'}")
        got = one_answer(driven)
        driven.engine.dispose()
    assert len(cursors) == 7  # stamps and save_race twice each, the other three once
    with monkeypatch.context() as patch:
        patch.setattr(race_store, "_driven", lambda *_args, **_kw: None)  # SQLAlchemy only
        core = RaceStore.open(f"sqlite:///{tmp_path / 'core.sqlite3'}")
        wanted = one_answer(core)
        core.engine.dispose()
    assert got == wanted
    before, after, moved, missed = got
    assert moved and not missed
    assert after[0][0] == 3 and after != before
    naive = (MOMENT.replace(tzinfo=None), LATER.replace(tzinfo=None))
    assert after[1]["car1"][4:6] == naive  # times read back as times (SQLite keeps no zone)
    assert stored(tmp_path / "driven.sqlite3") == stored(tmp_path / "core.sqlite3")
    assert stored(tmp_path / "driven.sqlite3")["play_decisions"]  # the rows are there


def test_driver_path_refusal_is_bilingual(tmp_path: Path) -> None:
    store = RaceStore.open(f"sqlite:///{tmp_path / 'refused.sqlite3'}")
    with store.write() as connection:
        race_id = add_race(connection, race_row(), seat_rows())
    twice = DecisionData(race_id, 1, "car1", "person", "h1", "{}", MOMENT)
    with pytest.raises(RennleitungError) as refused, store.write() as connection:
        add_decisions(connection, [twice, twice])  # (race, seq) is unique
    assert "IntegrityError" in refused.value.en and "nichts gespeichert" in refused.value.de
    with store.write() as connection:  # rolled back: nothing of it stored
        assert connection.exec_driver_sql("SELECT count(*) FROM play_decisions").scalar() == 0
    store.engine.dispose()
