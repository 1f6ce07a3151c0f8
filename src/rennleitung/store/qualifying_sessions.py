"""Qualifying sessions held here (``qualifying_sessions``, ``qualifying_session_laps``): the
statements, as plain records, for the play service (``play/qualifying_sessions.py``).

Writes go through ``RaceStore.write`` (one writer on SQLite, a database refusal as one
bilingual error). A lap's decisions are saved by compare-and-set on its ``version``, so of two
answers to the same question only the first counts.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, insert, select, update

from rennleitung.errors import RennleitungError
from rennleitung.store.models import Base
from rennleitung.store.qualifying_tables import QualifyingLapRow, QualifyingSessionRow
from rennleitung.store.race_store import RaceStore

MAX_ID = 2**31 - 1
"""Beyond any session number an INTEGER column holds: asked for, it is simply not there."""
SESSIONS = Base.metadata.tables[QualifyingSessionRow.__tablename__]
LAPS = Base.metadata.tables[QualifyingLapRow.__tablename__]


def _utc(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


@dataclass(frozen=True, slots=True)
class StoredSession:
    """A session as stored."""

    id: int
    league: str
    race: int
    track: str
    mode: str
    runs: int
    starters: tuple[str, ...]
    weather: tuple[str, ...]
    seed: int
    opens_at: datetime
    closes_at: datetime
    organiser: str | None
    state: str
    note: str


@dataclass(frozen=True, slots=True)
class StoredLap:
    """A driver's lap in one run as stored."""

    driver: str
    run: int
    holder: str | None
    tyre: str
    decisions: tuple[dict[str, Any], ...]
    version: int
    started_at: datetime | None
    finished_at: datetime | None


def _session(row: Any) -> StoredSession:
    opens, closes = _utc(row.opens_at), _utc(row.closes_at)
    assert opens is not None and closes is not None
    return StoredSession(row.id, row.league, row.race, row.track, row.mode, row.runs,
                         tuple(json.loads(row.starters)), tuple(json.loads(row.weather)),
                         row.seed, opens, closes, row.organiser, row.state, row.note)


def _lap(row: Any) -> StoredLap:
    return StoredLap(row.driver, row.run, row.holder, row.tyre,
                     tuple(json.loads(row.decisions)), row.version, _utc(row.started_at),
                     _utc(row.finished_at))


class QualifyingSessionStore:
    """Sessions and their laps."""

    def __init__(self, engine: Engine) -> None:
        self.store = RaceStore(engine)

    def create(self, *, league: str, race: int, track: str, mode: str, runs: int,
               starters: Sequence[str], weather: Sequence[str], seed: int, opens_at: datetime,
               closes_at: datetime, organiser: str | None, tyre: str, now: datetime) -> int:
        """A new open session with an empty lap for every starter and run."""
        with self.store.write() as connection:
            open_one = connection.execute(select(SESSIONS.c.id).where(
                SESSIONS.c.league == league, SESSIONS.c.race == race,
                SESSIONS.c.state == "open")).first()
            if open_one is not None:
                raise RennleitungError(
                    f"für Rennen {race} läuft schon eine Qualifizierung",
                    f"race {race} already has a qualifying session open", "race")
            created = connection.execute(insert(SESSIONS).values(
                league=league, race=race, track=track, mode=mode, runs=runs,
                starters=json.dumps(list(starters)), weather=json.dumps(list(weather)),
                seed=seed, opens_at=opens_at, closes_at=closes_at, organiser=organiser,
                state="open", note="", created_at=now))
            key = created.inserted_primary_key
            assert key is not None
            session_id = int(key[0])
            connection.execute(insert(LAPS), [
                {"session_id": session_id, "driver": driver, "run": run, "holder": None,
                 "tyre": tyre, "decisions": "[]", "version": 0}
                for run in range(1, runs + 1) for driver in starters])
        return session_id

    def session(self, session_id: int) -> StoredSession:
        row = None
        if 0 < session_id <= MAX_ID:
            with self.store.read() as connection:
                row = connection.execute(
                    select(SESSIONS).where(SESSIONS.c.id == session_id)).first()
        if row is None:
            raise RennleitungError(f"keine Qualifizierung {session_id}",
                                   f"no qualifying session {session_id}", "session")
        return _session(row)

    def sessions_of(self, league: str) -> tuple[StoredSession, ...]:
        with self.store.read() as connection:
            rows = connection.execute(select(SESSIONS).where(SESSIONS.c.league == league)
                                      .order_by(SESSIONS.c.id)).all()
        return tuple(_session(row) for row in rows)

    def laps(self, session_id: int) -> tuple[StoredLap, ...]:
        with self.store.read() as connection:
            rows = connection.execute(select(LAPS).where(LAPS.c.session_id == session_id)
                                      .order_by(LAPS.c.run, LAPS.c.id)).all()
        return tuple(_lap(row) for row in rows)

    def hold(self, session_id: int, driver: str, holder: str) -> None:
        """The account ``holder`` drives ``driver``'s laps, if nobody holds them yet."""
        with self.store.write() as connection:
            connection.execute(update(LAPS).where(
                LAPS.c.session_id == session_id, LAPS.c.driver == driver,
                LAPS.c.holder.is_(None)).values(holder=holder))

    def save_lap(self, session_id: int, lap: StoredLap, seen: int) -> bool:
        """Store the lap's decisions, tyre and times if nobody saved it since ``seen``."""
        with self.store.write() as connection:
            done = connection.execute(update(LAPS).where(
                LAPS.c.session_id == session_id, LAPS.c.driver == lap.driver,
                LAPS.c.run == lap.run, LAPS.c.version == seen).values(
                decisions=json.dumps(list(lap.decisions)), version=lap.version, tyre=lap.tyre,
                started_at=lap.started_at, finished_at=lap.finished_at))
        return bool(done.rowcount)

    def set_state(self, session_id: int, state: str, note: str = "") -> bool:
        """Mark an open session entered or refused; False if it was no longer open."""
        with self.store.write() as connection:
            done = connection.execute(update(SESSIONS).where(
                SESSIONS.c.id == session_id, SESSIONS.c.state == "open").values(
                state=state, note=note))
        return bool(done.rowcount)
