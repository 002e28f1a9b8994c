"""Shared test configuration: a hypothesis profile that keeps `make test` fast and deterministic,
and `memory_store`, the real `storage.Store` on a private in-memory SQLite database."""

import os
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, settings

from storage import Store

settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

# An in-memory SQLite database: the store keeps one shared connection, so it lives as long as
# the store does and no two stores ever see each other's data.
MEMORY_DB = "sqlite+aiosqlite://"
STORE_TIME = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


async def open_memory_store() -> Store:
    """A migrated real Store on a fresh in-memory database, with a fixed clock (close it after)."""
    return await Store.open(MEMORY_DB, clock=lambda: STORE_TIME)


@pytest.fixture
async def memory_store() -> AsyncIterator[Store]:
    """The real Store on a fresh in-memory database, closed after the test."""
    store = await open_memory_store()
    try:
        yield store
    finally:
        await store.close()
