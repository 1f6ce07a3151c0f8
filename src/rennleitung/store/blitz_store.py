"""FD Blitz matches played here (``play_blitz_matches``, ``play_blitz_heats``): the statements,
as plain records, for the play service (``play/blitz.py``).

Writes go through ``RaceStore.write`` (one writer on SQLite, a database refusal as one
bilingual error). A match is saved by compare-and-set on its ``version``, so of two processes
settling the same clock only the first counts; the other reads it again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, insert, select, update

from rennleitung.errors import RennleitungError
from rennleitung.store.blitz_tables import BlitzHeatRow, BlitzMatchRow
from rennleitung.store.models import Base
from rennleitung.store.race_store import RaceStore

MATCHES = Base.metadata.tables[BlitzMatchRow.__tablename__]
HEATS = Base.metadata.tables[BlitzHeatRow.__tablename__]


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """A match as stored; ``session`` is the decoded JSON of the match state."""

    id: int
    name: str
    organiser: str | None
    league: str | None
    mode: str
    track: str
    track_text: str | None
    laps: int
    players: tuple[tuple[str, str | None], tuple[str, str | None]]
    session: dict[str, Any]
    version: int
    created_at: datetime
    updated_at: datetime
    heats: tuple[int, ...] = ()


def _match(row: Any, heats: tuple[int, ...]) -> StoredMatch:
    a, b = json.loads(row.players)
    return StoredMatch(row.id, row.name, row.organiser, row.league, row.mode, row.track,
                       row.track_text, row.laps, ((a[0], a[1]), (b[0], b[1])),
                       json.loads(row.session), row.version, _utc(row.created_at),
                       _utc(row.updated_at), heats)


class BlitzStore:
    """Matches and their heats."""

    def __init__(self, engine: Engine) -> None:
        self.store = RaceStore(engine)

    def create(self, *, name: str, organiser: str | None, league: str | None, mode: str,
               track: str, track_text: str | None, laps: int,
               players: tuple[tuple[str, str | None], tuple[str, str | None]],
               session: dict[str, Any], now: datetime) -> int:
        with self.store.write() as connection:
            created = connection.execute(insert(MATCHES).values(
                name=name, organiser=organiser, league=league, mode=mode, track=track,
                track_text=track_text, laps=laps,
                players=json.dumps([list(p) for p in players], ensure_ascii=False),
                session=json.dumps(session, ensure_ascii=False), version=0,
                created_at=now, updated_at=now))
            key = created.inserted_primary_key
            assert key is not None
            return int(key[0])

    def match(self, match_id: int) -> StoredMatch:
        if not 0 < match_id < 2**31:  # beyond any id stored (and any database's integer)
            raise RennleitungError(f"kein Blitz-Match {match_id}", f"no Blitz match {match_id}",
                                   "match")
        with self.store.read() as connection:
            row = connection.execute(select(MATCHES).where(MATCHES.c.id == match_id)).first()
            heats = tuple(r.race_id for r in connection.execute(
                select(HEATS.c.race_id).where(HEATS.c.match_id == match_id)
                .order_by(HEATS.c.heat, HEATS.c.race_id)).all())
        if row is None:
            raise RennleitungError(f"kein Blitz-Match {match_id}", f"no Blitz match {match_id}",
                                   "match")
        return _match(row, heats)

    def matches(self, limit: int = 50) -> tuple[StoredMatch, ...]:
        """The newest matches first (without their heats)."""
        with self.store.read() as connection:
            rows = connection.execute(select(MATCHES).order_by(MATCHES.c.id.desc())
                                      .limit(limit)).all()
        return tuple(_match(row, ()) for row in rows)

    def match_of_race(self, race_id: int) -> int | None:
        """The match whose heat ``race_id`` is, if any."""
        if not 0 < race_id < 2**31:
            return None
        with self.store.read() as connection:
            row = connection.execute(select(HEATS.c.match_id)
                                     .where(HEATS.c.race_id == race_id)).first()
        return None if row is None else int(row.match_id)

    def running(self) -> tuple[int, ...]:
        """Matches with a heat being driven (the clock may run)."""
        with self.store.read() as connection:
            rows = connection.execute(select(MATCHES.c.id, MATCHES.c.session)
                                      .where(MATCHES.c.mode == "online")).all()
        return tuple(r.id for r in rows if json.loads(r.session).get("current"))

    def save(self, match: StoredMatch, seen: int, now: datetime,
             heat: tuple[int, int] | None = None) -> bool:
        """Store players and session if nobody saved the match since ``seen``; ``heat``
        (race id, heat number) lists a new heat in the same transaction."""
        with self.store.write() as connection:
            done = connection.execute(update(MATCHES).where(
                MATCHES.c.id == match.id, MATCHES.c.version == seen).values(
                players=json.dumps([list(p) for p in match.players], ensure_ascii=False),
                session=json.dumps(match.session, ensure_ascii=False), version=seen + 1,
                updated_at=now))
            if done.rowcount and heat is not None:
                connection.execute(insert(HEATS).values(race_id=heat[0], match_id=match.id,
                                                        heat=heat[1]))
        return bool(done.rowcount)
