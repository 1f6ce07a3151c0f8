"""Races people play in the database: the queries ``play/service.py`` runs inside its
transactions. Rows in, rows out; the rules stay in the engine and the flow in ``play/``.

``write()`` opens one transaction that takes the write lock at once (SQLite ``BEGIN
IMMEDIATE``); ``lock_race`` adds ``SELECT … FOR UPDATE`` on PostgreSQL, so two processes that
apply to the same race queue up instead of both reading the same version. ``bump_version`` is a
compare-and-set on top, and ``(race_id, seq)`` is unique: a decision is stored once or not at all.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime

from sqlalchemy import Engine, select, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from rennleitung.errors import RennleitungError
from rennleitung.store.database import WRITE, open_database
from rennleitung.store.race_tables import PlayDecisionRow, PlayRaceRow, PlaySeatRow


class RaceStore:
    """Sessions and queries on the ``play_*`` tables."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False, autoflush=False)

    @classmethod
    def open(cls, url: str) -> RaceStore:
        """A store on ``url``, schema migrated."""
        return cls(open_database(url))

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One write transaction: committed on success, rolled back on any error. A refusal
        by the database becomes one bilingual error that shows no stored values."""
        session = self._sessions()
        try:
            session.begin()
            session.connection(execution_options={WRITE: True})
            yield session
            session.commit()
        except DBAPIError as error:
            session.rollback()
            raise refused(error) from None
        except BaseException:
            session.rollback()
            raise
        finally:
            session.close()

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A session for reading."""
        session = self._sessions()
        try:
            yield session
        except DBAPIError as error:
            raise refused(error) from None
        finally:
            session.close()


def refused(error: DBAPIError) -> RennleitungError:
    """The database refused a change (a constraint, a lock): the driver's first line only, so
    no parameter (a seed) can reach a message."""
    orig = error.orig
    reason = type(orig).__name__ if orig is not None else type(error).__name__
    return RennleitungError(
        f"die Datenbank hat die Änderung abgelehnt ({reason}); nichts gespeichert",
        f"the database refused the change ({reason}); nothing was stored",
        "database",
    )


def race_row(session: Session, race_id: int, lock: bool = False) -> PlayRaceRow | None:
    """The race row; with ``lock``, locked for this transaction (PostgreSQL)."""
    query = select(PlayRaceRow).where(PlayRaceRow.id == race_id)
    if lock:
        query = query.with_for_update()
    return session.scalar(query)


def seat_rows(session: Session, race_id: int) -> list[PlaySeatRow]:
    """The seats of a race in entry order."""
    return list(
        session.scalars(
            select(PlaySeatRow).where(PlaySeatRow.race_id == race_id).order_by(PlaySeatRow.number)
        )
    )


def decision_rows(session: Session, race_id: int, after: int = 0) -> list[PlayDecisionRow]:
    """The decisions of a race with ``seq`` above ``after``, in order."""
    return list(
        session.scalars(
            select(PlayDecisionRow)
            .where(PlayDecisionRow.race_id == race_id, PlayDecisionRow.seq > after)
            .order_by(PlayDecisionRow.seq)
        )
    )


def bump_version(
    session: Session, race_id: int, seen: int, version: int, state: str, now: datetime
) -> bool:
    """Compare-and-set: move the race from version ``seen`` to ``version`` (and ``state``);
    False when another transaction moved it first."""
    result = session.execute(
        update(PlayRaceRow)
        .where(PlayRaceRow.id == race_id, PlayRaceRow.version == seen)
        .values(version=version, state=state, updated_at=now)
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount == 1)  # type: ignore[attr-defined]


def due_seats(session: Session, now: datetime, states: Sequence[str]) -> list[tuple[int, str]]:
    """(race id, car) of every seat whose deadline has passed at ``now``, oldest first."""
    rows = session.execute(
        select(PlaySeatRow.race_id, PlaySeatRow.car)
        .join(PlayRaceRow, PlayRaceRow.id == PlaySeatRow.race_id)
        .where(PlaySeatRow.deadline_at <= now, PlayRaceRow.state.in_(states))
        .order_by(PlaySeatRow.deadline_at, PlaySeatRow.race_id, PlaySeatRow.number)
    )
    return [(race_id, car) for race_id, car in rows]


def race_ids(
    session: Session, states: Sequence[str] | None = None, holder: str | None = None
) -> list[int]:
    """Ids of races, newest first; only those in ``states``, only those where ``holder`` holds
    a seat."""
    query = select(PlayRaceRow.id).order_by(PlayRaceRow.id.desc())
    if states is not None:
        query = query.where(PlayRaceRow.state.in_(states))
    if holder is not None:
        query = query.where(
            PlayRaceRow.id.in_(select(PlaySeatRow.race_id).where(PlaySeatRow.holder == holder))
        )
    return list(session.scalars(query))
