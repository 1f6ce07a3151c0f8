"""Who may change a league on the web: its organisers, by account name.

The command line is the organiser's own machine and needs no such list; the web server is
public, so entering and correcting races there is reserved to the accounts named here
(``rennleitung league add-organiser``). Reading the standings stays open to everyone.
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from rennleitung.store.models import Base


class OrganiserRow(Base):
    """One account that organises one league (revision league_corrections)."""

    __tablename__ = "league_organisers"
    __table_args__ = (UniqueConstraint("league_id", "user_name"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    user_name: Mapped[str] = mapped_column(String(200))
