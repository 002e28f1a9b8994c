"""Shared test configuration: a hypothesis profile that keeps `make test` fast and deterministic,
and the two stores every folder may ask for, both the real `storage.Store` (`testkit.stores`):
`memory_store` on a private in-memory SQLite database, `store` on a SQLite file in the test's
temporary folder. `tests/storage` has its own `store`, on each database backend under test."""

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from bot.core.poker import odds_cache
from storage import Store
from testkit.stores import open_file_store, open_memory_store

# The database fixtures (`db_url` on SQLite and PostgreSQL, ...) for every folder.
pytest_plugins = ["testkit.databases"]

settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture
async def memory_store() -> AsyncIterator[Store]:
    """The real Store on a fresh in-memory database, closed after the test."""
    store = await open_memory_store()
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    """The real Store on a fresh SQLite file (`bot.db` in the test's folder), closed after."""
    opened = await open_file_store(tmp_path)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture(scope="session", autouse=True)
def _odds_workers() -> Iterator[None]:
    """End the worker processes of Açık poker's odds once the session is over (tests start them
    through cores they do not close; one pool serves the whole session)."""
    yield
    odds_cache.shutdown()
