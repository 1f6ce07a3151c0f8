"""The race service runs on both databases: ``database_url`` (a fresh SQLite file and a fresh
PostgreSQL schema) comes from the root ``tests/conftest.py``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rennleitung.play import RaceService
from tests.play.support import START, Clock


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
