"""Who may change a league on the web: its organisers, by account name.

The command line is the organiser's own machine and needs no such list; the web server is
public, so entering and correcting races there is reserved to the accounts named here
(``rennleitung league add-organiser``). Reading the standings stays open to everyone.

Rights go to existing accounts only (an account name nobody holds yet would go to whoever signs
up with it first); someone without an account gets an invitation link instead, which makes
whoever signs in and uses it an organiser, once, within ``INVITATION_LIFETIME``.
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from rennleitung.store.models import Base


class OrganiserRow(Base):
    """One account that organises one league (revision league_corrections)."""

    __tablename__ = "league_organisers"
    __table_args__ = (UniqueConstraint("league_id", "user_name"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    user_name: Mapped[str] = mapped_column(String(200))


INVITATION_LIFETIME = 7 * 24 * 3600.0
"""Seconds an invitation to organise a league stays valid."""


class InvitationRow(Base):
    """A one-time invitation to organise a league: only the hash of its token is kept
    (revision web_security)."""

    __tablename__ = "league_invitations"
    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    expires_at: Mapped[float] = mapped_column(Float)
    used_by: Mapped[str | None] = mapped_column(String(200), nullable=True)
