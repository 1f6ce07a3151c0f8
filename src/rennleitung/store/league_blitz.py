"""A league's FD Blitz records in the database (issue 27, revision league_blitz): one row per
finished match, in the order entered. ``ref`` (unique per league, empty for a match typed in
without one) is the server match a record came from, so a match decided twice by two processes
settling its clock is still entered once."""

from __future__ import annotations

import json

from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from rennleitung.league.blitz_records import BlitzRecord, BlitzSource
from rennleitung.store.models import Base


class LeagueBlitzRow(Base):
    """One finished Blitz match of a league."""

    __tablename__ = "league_blitz_matches"
    __table_args__ = (UniqueConstraint("league_id", "ref"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    date: Mapped[str] = mapped_column(String(10))
    board: Mapped[str] = mapped_column(String(100))
    player_a: Mapped[str] = mapped_column(String(200))
    player_b: Mapped[str] = mapped_column(String(200))
    heat_winners: Mapped[str] = mapped_column(Text)
    """JSON list of the heat winners' names, in heat order."""
    winner: Mapped[str] = mapped_column(String(200))
    source: Mapped[str] = mapped_column(String(20))
    ref: Mapped[str | None] = mapped_column(String(100), nullable=True)
    seq: Mapped[int] = mapped_column(Integer)


def insert_record(session: Session, league_id: int, record: BlitzRecord, seq: int) -> None:
    session.add(LeagueBlitzRow(
        league_id=league_id, date=record.date, board=record.board, player_a=record.players[0],
        player_b=record.players[1],
        heat_winners=json.dumps(list(record.heat_winners), ensure_ascii=False),
        winner=record.winner, source=record.source.value, ref=record.ref or None, seq=seq))


def load_records(session: Session, league_id: int) -> tuple[BlitzRecord, ...]:
    rows = session.scalars(select(LeagueBlitzRow).where(LeagueBlitzRow.league_id == league_id)
                           .order_by(LeagueBlitzRow.seq, LeagueBlitzRow.id))
    return tuple(
        BlitzRecord(r.date, r.board, (r.player_a, r.player_b),
                    tuple(json.loads(r.heat_winners)), r.winner, BlitzSource(r.source),
                    r.ref or "")
        for r in rows)
