"""The real `storage.Store` for tests and benchmarks, on a private SQLite database: in memory
(nothing on disk, nothing shared) or in a file of a given folder (what a restart reopens)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from storage import Store

# An in-memory SQLite database: the store keeps one shared connection, so it lives as long as
# the store does and no two stores ever see each other's data.
MEMORY_DB = "sqlite+aiosqlite://"
STORE_TIME = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


async def open_memory_store() -> Store:
    """A migrated real Store on a fresh in-memory database, with a fixed clock (close it after)."""
    return await Store.open(MEMORY_DB, clock=lambda: STORE_TIME)


async def open_file_store(folder: Path) -> Store:
    """A migrated real Store on the SQLite file `bot.db` in `folder` (close it after)."""
    return await Store.open(f"sqlite+aiosqlite:///{folder}/bot.db")
