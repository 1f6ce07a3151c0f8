"""The race service runs on a real SQLite file and a real PostgreSQL, like the storage contract
(``tests/store/conftest.py``): each test gets a fresh database of each kind."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rennleitung.play import RaceService
from tests.play.support import START, Clock
from tests.store.conftest import _postgres_schema_url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'play.sqlite3'}"
    else:
        yield from _postgres_schema_url()


@pytest.fixture
def clock() -> Clock:
    return Clock(START)


@pytest.fixture
def service(database_url: str, clock: Clock) -> Iterator[RaceService]:
    """A service on a migrated, empty database, its time given by ``clock``."""
    opened = RaceService.open(database_url, clock)
    try:
        yield opened
    finally:
        opened.engine.dispose()
