"""Fixtures: every storage test runs on SQLite and, when TEST_DATABASE_URL is reachable, PostgreSQL
(the database fixtures are `testkit.databases`, loaded by tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from storage import Store
from testkit.databases import Clock


@pytest.fixture
def clock() -> Clock:
    """The store's clock."""
    return Clock()


@pytest.fixture
async def store(db_url: str, clock: Clock) -> AsyncIterator[Store]:
    """A migrated, empty store."""
    opened = await Store.open(db_url, clock=clock)
    try:
        yield opened
    finally:
        await opened.close()
