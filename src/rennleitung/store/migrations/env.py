"""Alembic environment: migrations always run on a connection handed in by ``store.database``."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from rennleitung.store import accounts, mail_tables, race_tables  # noqa: F401  (register tables)
from rennleitung.store.models import Base

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError("rennleitung migrations run through rennleitung.store.database only")
context.configure(connection=connection, target_metadata=Base.metadata)
with context.begin_transaction():
    context.run_migrations()
