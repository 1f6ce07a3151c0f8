"""The storage contract runs on both databases: ``database_url`` (a fresh SQLite file and a fresh
PostgreSQL schema) comes from the root ``tests/conftest.py``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rennleitung.store.league_store import LeagueStore


@pytest.fixture
def store(database_url: str) -> Iterator[LeagueStore]:
    """A migrated, empty league store."""
    opened = LeagueStore.open(database_url)
    try:
        yield opened
    finally:
        opened.engine.dispose()
