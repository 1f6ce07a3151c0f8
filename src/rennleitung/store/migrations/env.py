"""Alembic environment: migrations always run on a connection handed in by ``store.database``."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

# Every module with tables, so the metadata is complete whoever opens the database first (the
# storage contract compares it with what the migrations create).
from rennleitung.store import (  # noqa: F401
    accounts,
    blitz_tables,
    mail_tables,
    qualifying_tables,
    race_tables,
)
from rennleitung.store.models import Base

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError("rennleitung migrations run through rennleitung.store.database only")
context.configure(connection=connection, target_metadata=Base.metadata)
with context.begin_transaction():
    context.run_migrations()
