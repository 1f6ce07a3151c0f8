"""The mail tables: games played by mail, who may write to them, every mail in and out.

A mail is stored as received (raw bytes with all headers) before anything parses it, and no row
is ever overwritten with other content: processing only fills in what came of it. Outgoing mail
is a queue whose rows stay after sending, so the record says what went to whom, when, and how
each attempt ended.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    DateTime,
    Dialect,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

from rennleitung.store.models import Base


class UtcDateTime(TypeDecorator[datetime]):
    """A moment in UTC, aware on the way out on every database (SQLite forgets the zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> Any:
        if value is None:
            return None
        moment = value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)
        return moment.replace(tzinfo=None) if dialect.name == "sqlite" else moment

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        assert isinstance(value, datetime)
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class MailGameRow(Base):
    """A game played by mail: a TURBO 2000 game directory or a Formula Dé race."""

    __tablename__ = "mail_games"
    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(100), unique=True)
    kind: Mapped[str] = mapped_column(String(20))  # "turbo" or "fd"
    location: Mapped[str] = mapped_column(Text)  # game directory or race id
    secret: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class MailBindingRow(Base):
    """An address bound to a seat (TURBO team or Formula Dé car) of one game."""

    __tablename__ = "mail_bindings"
    __table_args__ = (UniqueConstraint("game_id", "address"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("mail_games.id", ondelete="CASCADE"))
    address: Mapped[str] = mapped_column(String(320), index=True)
    seat: Mapped[str] = mapped_column(String(200))
    language: Mapped[str] = mapped_column(String(2))
    # the seat's own code: every question mail carries it, an answer must (issue 24)
    token: Mapped[str] = mapped_column(String(40), index=True, default="")


class MailInRow(Base):
    """One message as received; ``status`` and what follows say what became of it."""

    __tablename__ = "mail_in"
    id: Mapped[int] = mapped_column(primary_key=True)
    received_at: Mapped[datetime] = mapped_column(UtcDateTime())
    source: Mapped[str] = mapped_column(String(20))  # lmtp, smtp, imap, file
    envelope_from: Mapped[str] = mapped_column(Text, default="")
    envelope_to: Mapped[str] = mapped_column(Text, default="")
    message_id: Mapped[str] = mapped_column(String(998), index=True, default="")
    content_hash: Mapped[str] = mapped_column(String(64), unique=True)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    duplicate_of: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # new → processed | refused | duplicate | failed
    status: Mapped[str] = mapped_column(String(20), index=True)
    sender: Mapped[str] = mapped_column(String(320), default="")
    game_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    seat: Mapped[str] = mapped_column(String(200), default="")
    outcome: Mapped[str] = mapped_column(Text, default="")  # short JSON of what happened
    processed_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class MailGatewayRow(Base):
    """How one part of the gateway (``imap``) fares: its last fault and the next try."""

    __tablename__ = "mail_gateway"
    part: Mapped[str] = mapped_column(String(20), primary_key=True)
    ok: Mapped[bool] = mapped_column(Boolean)
    failures: Mapped[int] = mapped_column(Integer)
    last_error: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())
    next_try_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class MailOutRow(Base):
    """One outgoing message, built whole when queued; kept after sending."""

    __tablename__ = "mail_out"
    id: Mapped[int] = mapped_column(primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    ref: Mapped[str | None] = mapped_column(String(300), unique=True, nullable=True)
    kind: Mapped[str] = mapped_column(String(20))  # answer, refusal, report, question, notice
    game_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reply_to_in: Mapped[int | None] = mapped_column(Integer, nullable=True)
    recipient: Mapped[str] = mapped_column(String(320))
    subject: Mapped[str] = mapped_column(Text)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    status: Mapped[str] = mapped_column(String(20), index=True)  # queued, sent
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UtcDateTime(), index=True)
    lease_until: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    last_error: Mapped[str] = mapped_column(Text, default="")
    sent_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class MailAttemptRow(Base):
    """One try to hand a queued message to the SMTP server, with its result."""

    __tablename__ = "mail_out_attempts"
    id: Mapped[int] = mapped_column(primary_key=True)
    out_id: Mapped[int] = mapped_column(ForeignKey("mail_out.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(UtcDateTime())
    result: Mapped[str] = mapped_column(Text)
