"""The tables of FD Blitz matches played here (issue 27; Dresden "FD Blitz").

A match is its two players, its board, its time limit per heat and its state as the command
line's match file has it (``league/blitz_codec.py``: the runs so far, the heat being driven and
its chess clock); each heat is a race of the play service (``play_races``), listed in
``play_blitz_heats`` so a race page knows it is a heat. ``version`` is bumped by
compare-and-set, so two processes never both settle the same clock (revision play_blitz).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from rennleitung.store.models import Base


class BlitzMatchRow(Base):
    """One match: players, board, limit and the match state as JSON."""

    __tablename__ = "play_blitz_matches"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), default="")
    organiser: Mapped[str | None] = mapped_column(String(200), nullable=True)
    """Opaque key of the account that created the match."""
    league: Mapped[str | None] = mapped_column(String(200), nullable=True)
    """The league whose Blitz records the match belongs to, if any."""
    mode: Mapped[str] = mapped_column(String(10))
    """online (heats driven here) or table (a chess clock on one screen, results entered)."""
    track: Mapped[str] = mapped_column(String(100))
    track_text: Mapped[str | None] = mapped_column(Text, nullable=True)
    laps: Mapped[int] = mapped_column(Integer)
    players: Mapped[str] = mapped_column(Text)
    """JSON list of two ``[name, holder or null]``."""
    session: Mapped[str] = mapped_column(Text)
    """The match as ``blitz_codec.session_to_json`` writes it, plus the heat's ``base``."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class BlitzHeatRow(Base):
    """A heat of a match: the play service's race that drives it."""

    __tablename__ = "play_blitz_heats"
    race_id: Mapped[int] = mapped_column(
        ForeignKey("play_races.id", ondelete="CASCADE"), primary_key=True
    )
    match_id: Mapped[int] = mapped_column(
        ForeignKey("play_blitz_matches.id", ondelete="CASCADE")
    )
    heat: Mapped[int] = mapped_column(Integer)
