"""Test helpers for table messages shared between processes: a store that counts the adapters'
calls to it, and one that always fails."""

from __future__ import annotations

from typing import Any

from storage import Store, Unavailable


class CountingStore:
    """The real store's two table-message calls, each recorded (`calls`) before it runs."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.calls: list[str] = []

    async def table_message(self, platform: str, table_id: str) -> Any:
        self.calls.append("read")
        return await self.store.table_message(platform, table_id)

    async def put_table_message(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append("write")
        return await self.store.put_table_message(*args, **kwargs)


class BrokenStore:
    """A store whose database is gone: every call raises `Unavailable`."""

    async def table_message(self, platform: str, table_id: str) -> Any:
        raise Unavailable("the database is unavailable (OSError)")

    async def put_table_message(self, *args: Any, **kwargs: Any) -> Any:
        raise Unavailable("the database is unavailable (OSError)")
