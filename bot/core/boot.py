"""What a runner needs of the store at start-up, so adapters reach storage only through the
core: open the store with its schema upgraded, and tell a database that is away (to try again)
from one that is wrong (docs/deploy.md, "Start with the database down")."""

from __future__ import annotations

from storage import Store
from storage.availability import database_away, database_target

__all__ = ["Store", "database_away", "database_target", "open_upgraded"]


async def open_upgraded(url: str) -> Store:
    """The store at `url` with its schema upgraded to the newest revision (`Unavailable` when
    the database cannot be reached)."""
    return await Store.open(url, migrate=True)
