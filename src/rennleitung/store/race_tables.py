"""The tables of races people play (``play/``): a race, its seats, its decisions.

A race is its configuration, its seed and its decisions, so that is what is stored; the state of
the board is never stored, it is rebuilt by replaying the decisions (``play/engine.py``). The
seed sits in its own column and leaves the store only once the race is over (the commitment,
its sha256, is public from the start). ``version`` on the race row is the number of decisions
applied and is bumped by compare-and-set (``UPDATE … WHERE version = :seen``), and
``(race_id, seq)`` is unique, so two processes can never store the same decision twice.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from rennleitung.store.models import Base


class PlayRaceRow(Base):
    """A race people play: configuration as JSON, state, seed, commitment and version."""

    __tablename__ = "play_races"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), default="")
    state: Mapped[str] = mapped_column(String(20))
    """open (seats being filled), running, finished, closed."""
    config: Mapped[str] = mapped_column(Text)
    """Track, ruleset, laps, entries as JSON (``rennleitung-race/1`` config form)."""
    track_text: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The track file's content when the race runs on an uploaded track, else NULL."""
    decision_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Time a person has for one decision; NULL: no deadline."""
    commitment: Mapped[str] = mapped_column(String(64))
    seed: Mapped[str] = mapped_column(String(200))
    """Secret until the race is finished or closed: never in a view, a log or an error."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    rules_version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    """The race rules the race is played under (``formula_de/rules_version.py``): a race
    stored under older rules may not replay under newer ones (revision play_rules_version)."""
    organiser: Mapped[str | None] = mapped_column(String(200), nullable=True)
    """Opaque key of the account that created the race (set by web, mail or CLI)."""
    notices: Mapped[str] = mapped_column(Text, default="[]", server_default="[]")
    """JSON list of the rule fixes that changed the running race (revision play_notices)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    bank_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Each driver's time bank at the start, used once a decision's time runs out; NULL: none
    (revision play_clock, like the columns below)."""
    bot_after_misses: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """After this many decisions missed in a row the bot drives the seat until its driver is
    back; 0: never."""
    abandon_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """A running race in which nobody decided for this long is abandoned; NULL: never."""
    abandon_action: Mapped[str] = mapped_column(String(10), default="", server_default="")
    """What abandoning does: ``close`` the race, or give every person's seat to its ``bots``."""
    abandon_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    """When the race is abandoned unless someone decides first (moved by every decision)."""
    clock_log: Mapped[str] = mapped_column(Text, default="[]", server_default="[]")
    """JSON list of what the clock did to seats and race (``play/model.py: ClockEvent``)."""


class PlaySeatRow(Base):
    """One car of a race: who drives it (a person holding the seat, or a bot) and, while the
    car is asked, when its answer is due."""

    __tablename__ = "play_seats"
    __table_args__ = (UniqueConstraint("race_id", "car"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    race_id: Mapped[int] = mapped_column(ForeignKey("play_races.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    """Order of the entry in the configuration (1-based)."""
    car: Mapped[str] = mapped_column(String(100))
    driver: Mapped[str] = mapped_column(String(200), default="")
    kind: Mapped[str] = mapped_column(String(10))
    """person or bot."""
    bot: Mapped[str] = mapped_column(String(40))
    """The bot that drives a bot seat, and decides for a person whose time ran out."""
    holder: Mapped[str | None] = mapped_column(String(200), nullable=True, index=True)
    """Opaque key of the account holding the seat (set by the web and mail layers)."""
    asked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    deadline_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    """The time per decision and what is left of the bank after it (revision play_clock)."""
    bank_left: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Seconds left in the driver's time bank; NULL: the race has none."""
    misses: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Decisions the bot made in a row because the driver's time ran out."""
    away_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """Since when the bot drives the seat for its absent driver; NULL: the driver drives."""


class PlayDecisionRow(Base):
    """One decision as applied: the race's version after it is ``seq``."""

    __tablename__ = "play_decisions"
    __table_args__ = (UniqueConstraint("race_id", "seq"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    race_id: Mapped[int] = mapped_column(ForeignKey("play_races.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    car: Mapped[str] = mapped_column(String(100))
    actor: Mapped[str] = mapped_column(String(20))
    """person, bot, timeout-bot or organiser."""
    holder: Mapped[str | None] = mapped_column(String(200), nullable=True)
    """The account that made a person's decision, when the caller named it."""
    decision: Mapped[str] = mapped_column(Text)
    """The decision's JSON form (moves by space names)."""
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PlayLeagueRaceRow(Base):
    """A race played here for a league: its league and race number; ``entered_at`` is set once
    its result is in the league, ``note`` says why the league refused it (revision
    play_league_races)."""

    __tablename__ = "play_league_races"
    race_id: Mapped[int] = mapped_column(
        ForeignKey("play_races.id", ondelete="CASCADE"), primary_key=True
    )
    league: Mapped[str] = mapped_column(String(200))
    number: Mapped[int] = mapped_column(Integer)
    entered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    note: Mapped[str] = mapped_column(Text, default="", server_default="")


class PlaySnapshotRow(Base):
    """The race at one round boundary (``formula_de/race_state.py``), stored when the race
    passed it: its state as JSON (``rennleitung-race-state/1``) and the events and rolls of the
    logs since the boundary before, so a race is rebuilt from its latest snapshot and the
    decisions after it instead of from all its decisions (revision play_snapshots)."""

    __tablename__ = "play_snapshots"
    __table_args__ = (UniqueConstraint("race_id", "round"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    race_id: Mapped[int] = mapped_column(ForeignKey("play_races.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    """Rounds of play done at this boundary (0: after the setup)."""
    version: Mapped[int] = mapped_column(Integer)
    """Decisions applied at this boundary: those with a higher ``seq`` come after it."""
    rules_version: Mapped[int] = mapped_column(Integer)
    """The rules version the race had been played under up to this boundary."""
    state: Mapped[str] = mapped_column(Text)
    events: Mapped[str] = mapped_column(Text)
    """JSON list of the events since the previous snapshot (their data form, events.md)."""
    rolls: Mapped[str] = mapped_column(Text)
    """JSON list of the rolls since the previous snapshot (``[die, purpose, result, car]``)."""
