"""The storage contract runs on a real SQLite file and a real PostgreSQL, each test on a fresh
database. PostgreSQL comes from ``RENNLEITUNG_TEST_PG_URL`` (``scripts/services.sh`` starts it);
without it the PostgreSQL tests fail on purpose, so CI can never pass without exercising them.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from rennleitung.store.league_store import LeagueStore

PG_ENV = "RENNLEITUNG_TEST_PG_URL"


def _postgres_schema_url() -> Iterator[str]:
    base = os.environ.get(PG_ENV)
    if not base:
        pytest.fail(
            f"{PG_ENV} is not set: run `sh scripts/services.sh && . ./.services.env` "
            "(make test does this) so the PostgreSQL contract tests can run"
        )
    schema = f"t_{uuid.uuid4().hex[:16]}"
    admin = create_engine(base)
    with admin.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    separator = "&" if "?" in base else "?"
    try:
        yield f"{base}{separator}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'league.sqlite3'}"
    else:
        yield from _postgres_schema_url()


@pytest.fixture
def store(database_url: str) -> Iterator[LeagueStore]:
    """A migrated, empty league store."""
    opened = LeagueStore.open(database_url)
    try:
        yield opened
    finally:
        opened.engine.dispose()
