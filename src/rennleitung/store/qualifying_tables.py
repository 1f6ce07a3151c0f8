"""The tables of qualifying sessions held here (issue 27 online, issue 29 at a table).

A session is its league race, its track, its window, its seed and the weather rolled for it; a
lap is what its driver decided (``league/qualifying_session.py`` rebuilds it), who holds it and
when it started and ended. The board is never stored. ``version`` on a lap is the number of
decisions applied and is bumped by compare-and-set, so two answers to the same question can
never both count (revision qualifying_sessions).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from rennleitung.store.models import Base


class QualifyingSessionRow(Base):
    """One session: a league race's qualifying, online or at a table."""

    __tablename__ = "qualifying_sessions"
    id: Mapped[int] = mapped_column(primary_key=True)
    league: Mapped[str] = mapped_column(String(200))
    race: Mapped[int] = mapped_column(Integer)
    track: Mapped[str] = mapped_column(String(100))
    mode: Mapped[str] = mapped_column(String(10))
    """online (each driver drives in his browser) or table (the organiser's stopwatch)."""
    runs: Mapped[int] = mapped_column(Integer)
    starters: Mapped[str] = mapped_column(Text)
    """JSON list of the drivers in the order given (the black-die draw's order)."""
    weather: Mapped[str] = mapped_column(Text)
    """JSON list of the weather rolled per run (sun, rain, changeable)."""
    seed: Mapped[int] = mapped_column(Integer)
    """The laps' dice and the grid draw: never in a view while the session is open."""
    opens_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    closes_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    organiser: Mapped[str | None] = mapped_column(String(200), nullable=True)
    state: Mapped[str] = mapped_column(String(10))
    """open, entered (its grid is the league race's) or refused (``note`` says why)."""
    note: Mapped[str] = mapped_column(Text, default="", server_default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class QualifyingLapRow(Base):
    """One driver's lap in one run of a session."""

    __tablename__ = "qualifying_session_laps"
    __table_args__ = (UniqueConstraint("session_id", "driver", "run"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(
        ForeignKey("qualifying_sessions.id", ondelete="CASCADE"))
    driver: Mapped[str] = mapped_column(String(200))
    run: Mapped[int] = mapped_column(Integer)
    holder: Mapped[str | None] = mapped_column(String(200), nullable=True)
    """Opaque key of the account driving the lap online (at a table: the organiser's)."""
    tyre: Mapped[str] = mapped_column(String(10))
    decisions: Mapped[str] = mapped_column(Text, default="[]", server_default="[]")
    """JSON list of the decisions (``league.qualifying_session.Decision``)."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """Online: the first roll. At a table: the organiser's start."""
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """Online: the move over the line (or the end of an aborted lap). At a table: the stop."""
