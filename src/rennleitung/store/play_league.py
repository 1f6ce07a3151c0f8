"""Races played here for a league (``play_league_races``): the link written with the race, the
races whose result is still to be entered, and the mark once the league has it.

A result is entered after the race's own transaction (the league store writes in its own), so
the mark is what makes that step safe to repeat: a race is entered until it is marked, and the
league refuses a race number entered twice, so a repeat after a crash or by a second server
process cannot count a race twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, insert, select, update

from rennleitung.store.models import Base
from rennleitung.store.race_tables import PlayLeagueRaceRow, PlayRaceRow

LINKS = Base.metadata.tables[PlayLeagueRaceRow.__tablename__]
RACES = Base.metadata.tables[PlayRaceRow.__tablename__]


@dataclass(frozen=True, slots=True)
class LeagueLink:
    """The league and race number a race is played for."""

    race_id: int
    league: str
    number: int
    entered_at: datetime | None = None
    note: str = ""


def add_link(connection: Connection, race_id: int, league: str, number: int) -> None:
    connection.execute(insert(LINKS).values(race_id=race_id, league=league, number=number,
                                            note=""))


def link_of(connection: Connection, race_id: int) -> LeagueLink | None:
    row = connection.execute(
        select(LINKS.c.race_id, LINKS.c.league, LINKS.c.number, LINKS.c.entered_at,
               LINKS.c.note).where(LINKS.c.race_id == race_id)).first()
    return None if row is None else LeagueLink(*row)


def to_enter(connection: Connection, states: tuple[str, ...]) -> list[LeagueLink]:
    """Linked races in ``states`` not yet entered and not refused, oldest first."""
    rows = connection.execute(
        select(LINKS.c.race_id, LINKS.c.league, LINKS.c.number)
        .join(RACES, RACES.c.id == LINKS.c.race_id)
        .where(RACES.c.state.in_(states), LINKS.c.entered_at.is_(None), LINKS.c.note == "")
        .order_by(LINKS.c.race_id))
    return [LeagueLink(*row) for row in rows]


def mark_entered(connection: Connection, race_id: int, now: datetime) -> None:
    connection.execute(update(LINKS).where(LINKS.c.race_id == race_id)
                       .values(entered_at=now, note=""))


def mark_refused(connection: Connection, race_id: int, note: str) -> None:
    """Why the league refused the result (shown to the organiser; not tried again)."""
    connection.execute(update(LINKS).where(LINKS.c.race_id == race_id,
                                           LINKS.c.entered_at.is_(None))
                       .values(note=note[:2000]))
