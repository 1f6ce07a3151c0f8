"""The two databases every storing test runs on, in one place: a real SQLite file and a real
PostgreSQL, each test on a fresh one.

PostgreSQL comes from ``RENNLEITUNG_TEST_PG_URL`` (``scripts/services.sh`` starts a private one;
``make test`` sources it). Without it the PostgreSQL tests fail on purpose, never skip, so a run
can never pass without exercising them. Each test gets a schema of its own, dropped afterwards.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from sqlalchemy import create_engine, text

from rennleitung import native
from rennleitung.web import security

native.FINDER.use_compiled()  # decide (and warn, if pure) now, not inside a test's captured stderr
PRODUCTION_HASHER = security.use_hasher(PasswordHasher(time_cost=1, memory_cost=1024,
                                                       parallelism=1))
"""Real argon2id, at its lowest cost: servers in this process sign people up and in some hundred
times, which took minutes at the production cost. Servers started as processes of their own
(``ServerProcess``) keep the production cost; ``tests/web/test_security.py`` checks it."""

PG_ENV = "RENNLEITUNG_TEST_PG_URL"


def postgres_schema_url() -> Iterator[str]:
    """A URL of a fresh, empty schema on the test PostgreSQL; the schema is dropped afterwards."""
    base = os.environ.get(PG_ENV)
    if not base:
        pytest.fail(
            f"{PG_ENV} is not set: run `sh scripts/services.sh && . ./.services.env` "
            "(make test does this) so the PostgreSQL tests can run"
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


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A URL of an empty SQLite file (for tests that need one database, not both)."""
    return f"sqlite:///{tmp_path / 'rennleitung.sqlite3'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty database of each kind: the test runs once on each."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'rennleitung.sqlite3'}"
    else:
        yield from postgres_schema_url()


def free_port() -> int:
    """A loopback port nobody listens on right now (for a test's SMTP or web server)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(autouse=True)
def _no_language_left_over() -> Iterator[None]:
    """Each test starts without the ``--lang`` of an earlier one: a command keeps its choice
    for the rest of its process (one command per process), a test runner's process goes on."""
    from rennleitung.cli.common import reset_lang

    reset_lang()
    yield
