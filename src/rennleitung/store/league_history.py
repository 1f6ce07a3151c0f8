"""The league's history of corrections: who changed what, when, and what was there before.

Every correction (a race or qualifying replaced or deleted, a name changed, a driver or team
removed) appends one row in the same transaction as the change itself, so the history can
never disagree with the league. ``before`` and ``after`` are JSON in the shape of the league
export (``league_codec``), so a replaced race can be read, or typed in again, from its row.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint, func, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from rennleitung.league.history import ACTIONS, Correction
from rennleitung.store.models import Base


class CorrectionRow(Base):
    """One correction of a league (revision 0005)."""

    __tablename__ = "league_corrections"
    __table_args__ = (UniqueConstraint("league_id", "seq"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    at: Mapped[str] = mapped_column(String(40))
    """UTC time of the correction, ISO 8601."""
    by: Mapped[str] = mapped_column(String(200))
    action: Mapped[str] = mapped_column(String(40))
    subject: Mapped[str] = mapped_column(String(200))
    before: Mapped[str] = mapped_column(Text)
    after: Mapped[str] = mapped_column(Text)


def record(
    session: Session, league_id: int, by: str, action: str, subject: str, before: Any,
    after: Any,
) -> None:
    """Append one correction to the league's history (in the caller's transaction)."""
    assert action in ACTIONS, action
    last = session.scalar(
        select(func.max(CorrectionRow.seq)).where(CorrectionRow.league_id == league_id)
    )
    session.add(CorrectionRow(
        league_id=league_id, seq=(last or 0) + 1,
        at=datetime.now(UTC).isoformat(timespec="seconds"), by=(by.strip() or "?")[:200],
        action=action, subject=subject[:200],
        before=json.dumps(before, ensure_ascii=False), after=json.dumps(after, ensure_ascii=False),
    ))
    session.flush()


def restore(session: Session, league_id: int, entries: tuple[Correction, ...]) -> None:
    """Write an imported league's history as it was (its times and authors kept)."""
    for c in entries:
        session.add(CorrectionRow(
            league_id=league_id, seq=c.seq, at=c.at[:40], by=(c.by.strip() or "?")[:200],
            action=c.action, subject=c.subject[:200],
            before=json.dumps(c.before, ensure_ascii=False),
            after=json.dumps(c.after, ensure_ascii=False),
        ))
    session.flush()


def history(session: Session, league_id: int) -> tuple[Correction, ...]:
    """The league's corrections, oldest first."""
    rows = session.scalars(
        select(CorrectionRow).where(CorrectionRow.league_id == league_id)
        .order_by(CorrectionRow.seq)
    )
    return tuple(
        Correction(r.seq, r.at, r.by, r.action, r.subject, json.loads(r.before),
                   json.loads(r.after))
        for r in rows
    )
