"""The league tables (SQLAlchemy 2 declarative models).

One row per fact the organiser entered; standings are never stored, they are recomputed by the
league engine from these rows. The karma ledger is stored as booked, so a balance can be audited
line by line.
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, MetaData, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

# Named constraints, so later migrations can address them on SQLite and PostgreSQL alike.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base of every rennleitung table."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class LeagueRow(Base):
    """A season or Open."""

    __tablename__ = "leagues"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    kind: Mapped[str] = mapped_column(String(20))
    teams: Mapped[list[TeamRow]] = relationship(order_by="TeamRow.id")
    drivers: Mapped[list[DriverRow]] = relationship(order_by="DriverRow.id")


class TeamRow(Base):
    """A team (Mannschaft) of one league."""

    __tablename__ = "league_teams"
    __table_args__ = (UniqueConstraint("league_id", "name"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))


class DriverRow(Base):
    """A driver with the profile chosen at the start and a city."""

    __tablename__ = "league_drivers"
    __table_args__ = (UniqueConstraint("league_id", "name"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("league_teams.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    profile: Mapped[str] = mapped_column(String(40))
    city: Mapped[str] = mapped_column(String(200), default="")


class TransferRow(Base):
    """A driver drives for another team from a race on (revision league_transfers)."""

    __tablename__ = "league_transfers"
    __table_args__ = (UniqueConstraint("driver_id", "from_race"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    driver_id: Mapped[int] = mapped_column(ForeignKey("league_drivers.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("league_teams.id", ondelete="CASCADE"))
    from_race: Mapped[int] = mapped_column(Integer)


class RaceRow(Base):
    """A race of a league, entered once."""

    __tablename__ = "league_races"
    __table_args__ = (UniqueConstraint("league_id", "number"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    laps: Mapped[int] = mapped_column(Integer)
    track: Mapped[str] = mapped_column(String(200), default="")
    source: Mapped[str] = mapped_column(String(20))
    rounds: Mapped[str] = mapped_column(Text, default="[]", server_default="[]")
    """Running order after each round of play as JSON (engine races; revision 0003)."""
    did_not_start: Mapped[str] = mapped_column(Text, default="[]", server_default="[]")
    """Qualified drivers who did not start, as JSON (revision 0005)."""


class ResultRow(Base):
    """One car's race."""

    __tablename__ = "league_race_results"
    __table_args__ = (
        UniqueConstraint("race_id", "driver_id"),
        UniqueConstraint("race_id", "grid"),
        UniqueConstraint("race_id", "position"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    race_id: Mapped[int] = mapped_column(ForeignKey("league_races.id", ondelete="CASCADE"))
    driver_id: Mapped[int] = mapped_column(ForeignKey("league_drivers.id", ondelete="CASCADE"))
    grid: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)
    laps_completed: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(20))
    driven_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("league_drivers.id", ondelete="SET NULL"), nullable=True
    )
    laps_most_led: Mapped[int] = mapped_column(Integer, default=0)


class RaceKarmaRow(Base):
    """An in-race karma movement as entered (20 rolled, re-roll, +1, head-to-head bid)."""

    __tablename__ = "league_race_karma"
    __table_args__ = (UniqueConstraint("result_id", "seq"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    result_id: Mapped[int] = mapped_column(
        ForeignKey("league_race_results.id", ondelete="CASCADE")
    )
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(20))
    amount: Mapped[int] = mapped_column(Integer, default=0)
    note: Mapped[str] = mapped_column(String(200), default="")


class QualifyingRow(Base):
    """The qualifying of one race, with the seed of its black-die draw."""

    __tablename__ = "league_qualifyings"
    __table_args__ = (UniqueConstraint("league_id", "race_number"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    race_number: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(Integer)
    weather: Mapped[str] = mapped_column(String(40), default="", server_default="")
    """Weather that applied per run, comma separated (revision 0002)."""
    starters: Mapped[str] = mapped_column(Text, default="[]", server_default="[]")
    """Starters in the order given, as JSON: with the seed the draw can be re-run (0004)."""


class QualifyingLapRow(Base):
    """One qualifying lap as entered or run."""

    __tablename__ = "league_qualifying_laps"
    __table_args__ = (UniqueConstraint("qualifying_id", "driver_id", "run"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    qualifying_id: Mapped[int] = mapped_column(
        ForeignKey("league_qualifyings.id", ondelete="CASCADE")
    )
    driver_id: Mapped[int] = mapped_column(ForeignKey("league_drivers.id", ondelete="CASCADE"))
    run: Mapped[int] = mapped_column(Integer)
    rolls: Mapped[int] = mapped_column(Integer)
    penalty_points: Mapped[int] = mapped_column(Integer)
    errors: Mapped[int] = mapped_column(Integer)
    lap_time_ms: Mapped[int] = mapped_column(Integer)
    driven_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("league_drivers.id", ondelete="SET NULL"), nullable=True
    )


class GridSlotRow(Base):
    """A grid place produced by qualifying (score, or the black-die rolls of the draw)."""

    __tablename__ = "league_grid_slots"
    __table_args__ = (
        UniqueConstraint("qualifying_id", "position"),
        UniqueConstraint("qualifying_id", "driver_id"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    qualifying_id: Mapped[int] = mapped_column(
        ForeignKey("league_qualifyings.id", ondelete="CASCADE")
    )
    position: Mapped[int] = mapped_column(Integer)
    driver_id: Mapped[int] = mapped_column(ForeignKey("league_drivers.id", ondelete="CASCADE"))
    score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    lap_time_ms: Mapped[int | None] = mapped_column(Integer, nullable=True)
    qualifying_points: Mapped[int] = mapped_column(Integer)
    draw_rolls: Mapped[str] = mapped_column(String(200), default="")


class NamedDropRow(Base):
    """A race a driver chose to drop."""

    __tablename__ = "league_named_drops"
    __table_args__ = (UniqueConstraint("driver_id", "race_number"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    driver_id: Mapped[int] = mapped_column(ForeignKey("league_drivers.id", ondelete="CASCADE"))
    race_number: Mapped[int] = mapped_column(Integer)


class KarmaLedgerRow(Base):
    """One booked karma movement; ``seq`` orders the ledger of a league."""

    __tablename__ = "league_karma_ledger"
    __table_args__ = (UniqueConstraint("league_id", "seq"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    driver_id: Mapped[int] = mapped_column(ForeignKey("league_drivers.id", ondelete="CASCADE"))
    race_number: Mapped[int | None] = mapped_column(Integer, nullable=True)
    amount: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(40))
    balance: Mapped[int] = mapped_column(Integer)
    note: Mapped[str] = mapped_column(String(200), default="")
