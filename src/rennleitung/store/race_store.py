"""Races people play in the database: the statements ``play/service.py`` runs inside its
transactions. Rows in, rows out as plain values; the rules stay in the engine, the flow in
``play/``.

``write()`` opens one transaction that takes the write lock at once (SQLite ``BEGIN
IMMEDIATE``); ``load_race(lock=True)`` adds ``SELECT … FOR UPDATE`` on PostgreSQL, so two
processes applying to the same race queue up instead of both reading the same version.
``save_race`` is a compare-and-set on the version on top of that, and ``(race_id, seq)`` is
unique: a decision is stored once or not at all.

SQLAlchemy Core with statements built once: applying a decision is a handful of statements and
the service's speed target (5 ms including the commit) leaves no room for the ORM's unit of work.
On SQLite the five statements of every answer's write (``stamps``, ``add_decisions``,
``add_snapshots``, ``save_seats``, ``save_race``) go one step further down: compiled once by
SQLAlchemy for the connection's dialect and then run on the driver's cursor of the same
connection, inside the same transaction, with SQLAlchemy's own conversions of each value in
and out (``_Driven``). What is stored is the same to the byte; SQLAlchemy's work around each
statement (about 0.1 ms, half of an answer's write) is not done (docs/web.md, "Speed").
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Dialect, Engine, bindparam, func, insert, select, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.expression import Executable

from rennleitung.errors import RennleitungError
from rennleitung.store.database import WRITE, one_writer, open_database
from rennleitung.store.models import Base
from rennleitung.store.race_tables import (
    PlayDecisionRow,
    PlayRaceRow,
    PlaySeatRow,
    PlaySnapshotRow,
)

RACES = Base.metadata.tables[PlayRaceRow.__tablename__]
SEATS = Base.metadata.tables[PlaySeatRow.__tablename__]
DECISIONS = Base.metadata.tables[PlayDecisionRow.__tablename__]
SNAPSHOTS = Base.metadata.tables[PlaySnapshotRow.__tablename__]


@dataclass
class RaceData:
    """A ``play_races`` row (``id`` 0 before it is inserted)."""

    id: int
    name: str
    state: str
    config: str
    track_text: str | None
    decision_seconds: int | None
    commitment: str
    seed: str
    version: int
    organiser: str | None
    created_at: datetime
    updated_at: datetime
    rules_version: int = 1
    notices: str = "[]"
    bank_seconds: int | None = None
    bot_after_misses: int = 0
    abandon_seconds: int | None = None
    abandon_action: str = ""
    abandon_at: datetime | None = None
    clock_log: str = "[]"


@dataclass
class SeatData:
    """A ``play_seats`` row."""

    id: int
    race_id: int
    number: int
    car: str
    driver: str
    kind: str
    bot: str
    holder: str | None
    asked_at: datetime | None
    deadline_at: datetime | None
    bank_left: int | None = None
    misses: int = 0
    away_since: datetime | None = None


@dataclass(frozen=True)
class DecisionData:
    """A ``play_decisions`` row."""

    race_id: int
    seq: int
    car: str
    actor: str
    holder: str | None
    decision: str
    made_at: datetime


@dataclass(frozen=True)
class SnapshotData:
    """A ``play_snapshots`` row: the race at a round boundary, and its events and rolls since
    the snapshot before (JSON texts)."""

    race_id: int
    round: int
    version: int
    rules_version: int
    state: str
    events: str
    rolls: str


_RACE_COLUMNS = [RACES.c[f.name] for f in fields(RaceData)]
_SEAT_COLUMNS = [SEATS.c[f.name] for f in fields(SeatData)]
_DECISION_COLUMNS = [DECISIONS.c[f.name] for f in fields(DecisionData)]
_SEAT_CHANGES = ("driver", "kind", "bot", "holder", "asked_at", "deadline_at", "bank_left",
                 "misses", "away_since")

_LOAD_RACE = select(*_RACE_COLUMNS).where(RACES.c.id == bindparam("race_id"))
_LOCK_RACE = _LOAD_RACE.with_for_update()
_STAMP_COLUMNS = ("version", "state", "config", "rules_version", "notices")
_LOCK_STAMPS = (
    select(*(RACES.c[name] for name in _STAMP_COLUMNS), SEATS.c.car,
           *(SEATS.c[name] for name in _SEAT_CHANGES))
    .select_from(RACES.join(SEATS, SEATS.c.race_id == RACES.c.id))
    .where(RACES.c.id == bindparam("race_id"))
    .order_by(SEATS.c.number)
    .with_for_update(of=RACES)
)
_LOAD_SEATS = (
    select(*_SEAT_COLUMNS).where(SEATS.c.race_id == bindparam("race_id")).order_by(SEATS.c.number)
)
_LOAD_DECISIONS = (
    select(*_DECISION_COLUMNS)
    .where(DECISIONS.c.race_id == bindparam("race_id"), DECISIONS.c.seq > bindparam("after"))
    .order_by(DECISIONS.c.seq)
)
_LOAD_BY_ACTOR = (
    select(DECISIONS.c.seq, DECISIONS.c.car)
    .where(DECISIONS.c.race_id == bindparam("race_id"), DECISIONS.c.actor == bindparam("actor"))
    .order_by(DECISIONS.c.seq)
)
_SAVE_RACE = (
    update(RACES)
    .where(RACES.c.id == bindparam("race_id"), RACES.c.version == bindparam("seen"))
    .values(
        state=bindparam("state"),
        config=bindparam("config"),
        version=bindparam("version"),
        rules_version=bindparam("rules_version"),
        updated_at=bindparam("updated_at"),
        abandon_at=bindparam("abandon_at"),
        clock_log=bindparam("clock_log"),
    )
)
_SAVE_SEAT = (
    update(SEATS)
    .where(SEATS.c.id == bindparam("seat_id"))
    .values({name: bindparam(name) for name in _SEAT_CHANGES})
)
_ADD_DECISION = insert(DECISIONS)
_ADD_SNAPSHOT = insert(SNAPSHOTS)
_DECISION_KEYS = [f.name for f in fields(DecisionData)]
_SNAPSHOT_KEYS = [f.name for f in fields(SnapshotData)]
_LATEST_SNAPSHOT = (
    select(SNAPSHOTS.c.round, SNAPSHOTS.c.version, SNAPSHOTS.c.rules_version, SNAPSHOTS.c.state)
    .where(SNAPSHOTS.c.race_id == bindparam("race_id"), SNAPSHOTS.c.version <= bindparam("upto"))
    .order_by(SNAPSHOTS.c.round.desc())
    .limit(1)
)
_SNAPSHOT_LOGS = (
    select(SNAPSHOTS.c.events, SNAPSHOTS.c.rolls)
    .where(SNAPSHOTS.c.race_id == bindparam("race_id"), SNAPSHOTS.c.round <= bindparam("upto"))
    .order_by(SNAPSHOTS.c.round)
)
_LOAD_DECISION_TEXTS = (
    select(DECISIONS.c.car, DECISIONS.c.decision)
    .where(DECISIONS.c.race_id == bindparam("race_id"), DECISIONS.c.seq <= bindparam("upto"))
    .order_by(DECISIONS.c.seq)
)


Processor = Callable[[Any], Any] | None


class _Driven:
    """One statement as SQLite's driver runs it: the SQL text SQLAlchemy compiles for the
    dialect, the parameter names in their order with the bind conversion of each (a time to
    the text SQLAlchemy stores), and the result conversion of each selected column (that text
    back to a time), so a row reads and writes exactly as through ``Connection.execute``."""

    def __init__(self, statement: Any, dialect: Dialect, keys: list[str] | None = None) -> None:
        compiled = statement.compile(dialect=dialect, column_keys=keys)
        self.sql = compiled.string
        self.names: tuple[str, ...] = tuple(compiled.positiontup or ())
        self.binds: tuple[Processor, ...] = tuple(
            compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect)
            for name in self.names)
        self.results: tuple[Processor, ...] = tuple(
            column.type.dialect_impl(dialect).result_processor(dialect, None)
            for column in getattr(statement, "selected_columns", ()))

    def values(self, params: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(value if bind is None else bind(value) for bind, value in
                     zip(self.binds, (params[name] for name in self.names), strict=True))

    def row(self, raw: Sequence[Any]) -> tuple[Any, ...]:
        return tuple(value if result is None else result(value)
                     for result, value in zip(self.results, raw, strict=True))


_DRIVEN: dict[tuple[type, str], _Driven] = {}


def _driven(connection: Connection, statement: Executable, name: str,
            keys: list[str] | None = None) -> _Driven | None:
    """``statement`` compiled for the driver when ``connection`` is on Python's ``sqlite3``
    with its ``?`` parameters, as every engine here is (else None: run it through
    SQLAlchemy); ``name`` tells the compiled forms of one statement apart."""
    dialect = connection.dialect
    if dialect.name != "sqlite" or dialect.driver != "pysqlite" or dialect.paramstyle != "qmark":
        return None
    key = (type(dialect), name)
    found = _DRIVEN.get(key)
    if found is None:
        found = _DRIVEN[key] = _Driven(statement, dialect, keys)
    return found


def _cursor(connection: Connection) -> sqlite3.Cursor:
    """A cursor of the driver's connection under ``connection`` (its open transaction)."""
    raw = connection.connection.driver_connection
    assert isinstance(raw, sqlite3.Connection)
    return raw.cursor()


def _run_rows(connection: Connection, statement: Executable, name: str,
              rows: list[dict[str, Any]], keys: list[str] | None = None) -> None:
    """``statement`` once for each of ``rows``: on SQLite by the driver (``_Driven``), else
    through SQLAlchemy, a single row without executemany (cheaper for one)."""
    if not rows:
        return
    driven = _driven(connection, statement, name, keys)
    if driven is not None:
        _cursor(connection).executemany(driven.sql, [driven.values(row) for row in rows])
    elif len(rows) == 1:
        connection.execute(statement, rows[0])
    else:
        connection.execute(statement, rows)


class RaceStore:
    """Connections and statements on the ``play_*`` tables."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @classmethod
    def open(cls, url: str) -> RaceStore:
        """A store on ``url``, schema migrated."""
        return cls(open_database(url))

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """One write transaction: committed on success, rolled back on any error. A refusal
        by the database becomes one bilingual error that shows no stored values."""
        try:
            with (
                one_writer(self.engine),
                self.engine.connect() as connection,
                connection.execution_options(**{WRITE: True}).begin(),
            ):
                yield connection
        except (DBAPIError, sqlite3.Error) as error:  # the latter from a ``_Driven`` statement
            raise refused(error) from None

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection for reading. On PostgreSQL its statements run without a transaction
        around them (each one sees what was committed when it ran, as inside a READ COMMITTED
        transaction), which spares the BEGIN and ROLLBACK round trips of a read."""
        try:
            with self.engine.connect() as connection:
                if self.engine.dialect.name == "postgresql":
                    connection.execution_options(isolation_level="AUTOCOMMIT")
                yield connection
        except DBAPIError as error:
            raise refused(error) from None


def refused(error: DBAPIError | sqlite3.Error) -> RennleitungError:
    """The database refused a change (a constraint, a lock): named by the driver's error type
    only, so no parameter (a seed) can reach a message."""
    orig = error.orig if isinstance(error, DBAPIError) else error
    reason = type(orig).__name__ if orig is not None else type(error).__name__
    return RennleitungError(
        f"die Datenbank hat die Änderung abgelehnt ({reason}); nichts gespeichert",
        f"the database refused the change ({reason}); nothing was stored",
        "database",
    )


MAX_ROW_ID = 2**31 - 1
"""The largest id an integer column holds on PostgreSQL (SQLite's are wider): a larger number,
as someone may type into an address, names no row and is not sent to the database at all."""


def load_race(connection: Connection, race_id: int, lock: bool = False) -> RaceData | None:
    """The race row; with ``lock``, locked for this transaction (PostgreSQL). None for a race
    that does not exist, also for a number no row can have."""
    if not 0 < race_id <= MAX_ROW_ID:
        return None
    row = connection.execute(_LOCK_RACE if lock else _LOAD_RACE, {"race_id": race_id}).first()
    return None if row is None else RaceData(*row)


def stamps(
    connection: Connection, race_id: int
) -> tuple[tuple[Any, ...], dict[str, tuple[Any, ...]]] | None:
    """What a change checks before it writes, in one statement, the race row locked for this
    transaction (PostgreSQL): the race's version, state, configuration, rules version and
    notices (``stamp_of``) and each seat's changeable fields by car (``seat_changes``); None for
    a race that does not exist."""
    driven = _driven(connection, _LOCK_STAMPS, "stamps")
    if driven is None:
        rows: Sequence[Sequence[Any]] = connection.execute(
            _LOCK_STAMPS, {"race_id": race_id}).all()
    else:
        found = _cursor(connection).execute(driven.sql, driven.values({"race_id": race_id}))
        rows = [driven.row(raw) for raw in found.fetchall()]
    if not rows:
        return None
    width = len(_STAMP_COLUMNS)
    return tuple(rows[0][:width]), {row[width]: tuple(row[width + 1:]) for row in rows}


def stamp_of(race: RaceData) -> tuple[Any, ...]:
    """The race part of ``stamps`` for a race row as read or as last stored."""
    return tuple(getattr(race, name) for name in _STAMP_COLUMNS)


def load_seats(connection: Connection, race_id: int) -> list[SeatData]:
    """The seats of a race in entry order."""
    return [SeatData(*row) for row in connection.execute(_LOAD_SEATS, {"race_id": race_id})]


def load_decisions(connection: Connection, race_id: int, after: int = 0) -> list[DecisionData]:
    """The decisions of a race with ``seq`` above ``after``, in order."""
    rows = connection.execute(_LOAD_DECISIONS, {"race_id": race_id, "after": after})
    return [DecisionData(*row) for row in rows]


def decisions_by(connection: Connection, race_id: int, actor: str) -> list[tuple[int, str]]:
    """``(seq, car)`` of the race's decisions made by ``actor``, in order (the timeouts)."""
    rows = connection.execute(_LOAD_BY_ACTOR, {"race_id": race_id, "actor": actor})
    return [(int(seq), str(car)) for seq, car in rows]


def add_race(connection: Connection, race: RaceData, seats: Sequence[SeatData]) -> int:
    """Insert a race and its seats; returns the race's id."""
    values = {f.name: getattr(race, f.name) for f in fields(RaceData) if f.name != "id"}
    race_id = connection.execute(insert(RACES).values(values).returning(RACES.c.id)).scalar_one()
    connection.execute(
        insert(SEATS),
        [
            {f.name: getattr(replace(s, race_id=race_id), f.name)
             for f in fields(SeatData) if f.name != "id"}
            for s in seats
        ],
    )
    return int(race_id)


def save_race(connection: Connection, race: RaceData, seen: int) -> bool:
    """Compare-and-set: store the race's state, configuration and version if it is still at
    version ``seen``; False when another transaction moved it first."""
    params = {
        "race_id": race.id,
        "seen": seen,
        "state": race.state,
        "config": race.config,
        "version": race.version,
        "rules_version": race.rules_version,
        "updated_at": race.updated_at,
        "abandon_at": race.abandon_at,
        "clock_log": race.clock_log,
    }
    driven = _driven(connection, _SAVE_RACE, "save_race")
    if driven is not None:
        return _cursor(connection).execute(driven.sql, driven.values(params)).rowcount == 1
    return connection.execute(_SAVE_RACE, params).rowcount == 1


def save_seats(connection: Connection, seats: Sequence[SeatData]) -> None:
    """Store the changeable fields of ``seats``."""
    rows = [{"seat_id": s.id, **{n: getattr(s, n) for n in _SEAT_CHANGES}} for s in seats]
    _run_rows(connection, _SAVE_SEAT, "save_seat", rows)


def seat_changes(seat: SeatData) -> tuple[Any, ...]:
    """What ``save_seats`` would write, to tell changed seats from unchanged ones."""
    return tuple(getattr(seat, n) for n in _SEAT_CHANGES)


def add_decisions(connection: Connection, decisions: Sequence[DecisionData]) -> None:
    """Insert decisions (one statement for all)."""
    rows = [{key: getattr(d, key) for key in _DECISION_KEYS} for d in decisions]
    _run_rows(connection, _ADD_DECISION, "add_decision", rows, _DECISION_KEYS)


def due_seats(
    connection: Connection, now: datetime, states: Sequence[str]
) -> list[tuple[int, str]]:
    """(race id, car) of every seat whose deadline has passed at ``now``, oldest first."""
    rows = connection.execute(
        select(SEATS.c.race_id, SEATS.c.car)
        .join(RACES, RACES.c.id == SEATS.c.race_id)
        .where(SEATS.c.deadline_at <= now, RACES.c.state.in_(states))
        .order_by(SEATS.c.deadline_at, SEATS.c.race_id, SEATS.c.number)
    )
    return [(race_id, car) for race_id, car in rows]


def due_abandoned(connection: Connection, now: datetime, state: str) -> list[int]:
    """Ids of the races in ``state`` in which nobody decided before their ``abandon_at``,
    oldest first."""
    rows = connection.execute(
        select(RACES.c.id)
        .where(RACES.c.abandon_at <= now, RACES.c.state == state)
        .order_by(RACES.c.abandon_at, RACES.c.id)
    )
    return [int(race_id) for (race_id,) in rows]


def race_ids(
    connection: Connection,
    states: Sequence[str] | None = None,
    holder: str | None = None,
    *,
    limit: int | None = None,
    unorganised: bool = False,
) -> list[int]:
    """Ids of races, newest first; only those in ``states``, only those where ``holder`` holds
    a seat, only those without an organiser (``unorganised``), at most ``limit``."""
    query = select(RACES.c.id).order_by(RACES.c.id.desc())
    if states is not None:
        query = query.where(RACES.c.state.in_(states))
    if holder is not None:
        query = query.where(
            RACES.c.id.in_(select(SEATS.c.race_id).where(SEATS.c.holder == holder))
        )
    if unorganised:
        query = query.where(RACES.c.organiser.is_(None))
    if limit is not None:
        query = query.limit(limit)
    return [int(i) for i in connection.scalars(query)]


def races_organised(
    connection: Connection, organiser: str, since: datetime, states: Sequence[str] | None = None
) -> int:
    """How many races ``organiser`` created since ``since`` (only those in ``states``)."""
    query = select(func.count()).select_from(RACES).where(
        RACES.c.organiser == organiser, RACES.c.created_at >= since)
    if states is not None:
        query = query.where(RACES.c.state.in_(states))
    return int(connection.scalar(query) or 0)


def race_versions(connection: Connection, ids: Sequence[int]) -> dict[int, int]:
    """The version of each race in ``ids`` (one statement; unknown ids are left out)."""
    rows = connection.execute(select(RACES.c.id, RACES.c.version).where(RACES.c.id.in_(ids)))
    return {int(race_id): int(version) for race_id, version in rows}


def add_snapshots(connection: Connection, snapshots: Sequence[SnapshotData]) -> None:
    """Insert the snapshots of the round boundaries a step passed."""
    rows = [{key: getattr(s, key) for key in _SNAPSHOT_KEYS} for s in snapshots]
    _run_rows(connection, _ADD_SNAPSHOT, "add_snapshot", rows, _SNAPSHOT_KEYS)


def latest_snapshot(
    connection: Connection, race_id: int, upto: int
) -> tuple[int, int, int, str] | None:
    """(round, version, rules version, state) of the race's latest snapshot at a version up to
    ``upto``; None when it has none (a race stored before snapshots were kept)."""
    row = connection.execute(_LATEST_SNAPSHOT, {"race_id": race_id, "upto": upto}).first()
    return None if row is None else (int(row[0]), int(row[1]), int(row[2]), str(row[3]))


def snapshot_logs(connection: Connection, race_id: int, upto: int) -> list[tuple[str, str]]:
    """The (events, rolls) texts of the snapshots up to round ``upto``, in order: together the
    race's event and roll logs up to that boundary."""
    rows = connection.execute(_SNAPSHOT_LOGS, {"race_id": race_id, "upto": upto})
    return [(str(events), str(rolls)) for events, rolls in rows]


def decision_texts(connection: Connection, race_id: int, upto: int) -> list[tuple[str, str]]:
    """(car, decision JSON) of the decisions with ``seq`` up to ``upto``, in order."""
    rows = connection.execute(_LOAD_DECISION_TEXTS, {"race_id": race_id, "upto": upto})
    return [(str(car), str(text)) for car, text in rows]


def drop_after(connection: Connection, race_id: int, version: int) -> list[DecisionData]:
    """Remove the decisions after ``version`` and the snapshots beyond it (a race going back
    to a snapshot, ``docs/formula_de/records.md``); returns the decisions removed."""
    dropped = load_decisions(connection, race_id, after=version)
    connection.execute(
        DECISIONS.delete().where(DECISIONS.c.race_id == race_id, DECISIONS.c.seq > version)
    )
    drop_snapshots_after(connection, race_id, version)
    return dropped


def rewind_race(
    connection: Connection, race_id: int, seen: int, version: int, rules_version: int,
    notices: str, now: datetime,
) -> bool:
    """Compare-and-set: the race at ``version`` under ``rules_version`` with ``notices``, if it
    is still at version ``seen``; every seat's question and deadline cleared (asked anew)."""
    result = connection.execute(
        update(RACES)
        .where(RACES.c.id == race_id, RACES.c.version == seen)
        .values(version=version, rules_version=rules_version, notices=notices, updated_at=now)
    )
    connection.execute(
        update(SEATS).where(SEATS.c.race_id == race_id).values(asked_at=None, deadline_at=None)
    )
    return result.rowcount == 1


def drop_snapshots_after(connection: Connection, race_id: int, version: int) -> None:
    """Remove the race's snapshots after ``version``: a table take-back went back across
    their round boundaries (``formula_de/race/table.py``)."""
    connection.execute(
        SNAPSHOTS.delete().where(SNAPSHOTS.c.race_id == race_id, SNAPSHOTS.c.version > version)
    )


def drop_snapshots(connection: Connection, race_id: int) -> None:
    """Remove every snapshot of the race (it is replayed from the start and snapshotted anew)."""
    connection.execute(SNAPSHOTS.delete().where(SNAPSHOTS.c.race_id == race_id))


def snapshot_state(connection: Connection, race_id: int, round_: int) -> str | None:
    """The state text of the race's snapshot after ``round_`` rounds, if there is one."""
    found = connection.scalar(
        select(SNAPSHOTS.c.state).where(SNAPSHOTS.c.race_id == race_id, SNAPSHOTS.c.round == round_)
    )
    return None if found is None else str(found)
