"""The table messages every bot process shares: a chat adapter keeps the message that shows each
table in memory (a cache) and, with a store, also in the database, so that a process that never
saw a table's message (another process posted it) edits that one instead of posting a new one.

The adapter reads the stored record only on a cache miss and writes it only when it posts a table
message, so one process alone costs nothing extra per move. The write is a compare-and-set on the
table version the message shows (`Store.put_table_message`): a process that posted an older state
loses and retires its own message. A failing store is logged and play goes on from memory.
"""

from __future__ import annotations

import logging
from typing import Protocol

from bot.logs import kv

log = logging.getLogger("bot.adapters.surfaces")


class Surface(Protocol):
    """A stored table message (see `storage.TableSurface`)."""

    @property
    def chat_id(self) -> str:
        """The chat or channel the message is in."""
        ...

    @property
    def message_id(self) -> str:
        """The message's id in that chat."""
        ...

    @property
    def version(self) -> int:
        """The table version the message showed when it was posted."""
        ...

    @property
    def picture(self) -> bool:
        """Whether the message carries a picture (its text is a caption)."""
        ...


class SurfaceWrite(Protocol):
    """The outcome of a write (see `storage.SurfaceWrite`)."""

    @property
    def written(self) -> bool:
        """Whether the new record was stored."""
        ...

    @property
    def other(self) -> Surface | None:
        """The record there before: replaced when written, else the newer one that stays."""
        ...


class SurfaceStore(Protocol):
    """The two store calls an adapter makes (`storage.Store` has them)."""

    async def table_message(self, platform: str, table_id: str) -> Surface | None:
        """The stored message of the table, or None."""
        ...

    async def put_table_message(
        self,
        platform: str,
        table_id: str,
        chat_id: str,
        message_id: str,
        version: int,
        *,
        picture: bool = False,
    ) -> SurfaceWrite:
        """Store the table's message unless a newer version is stored."""
        ...


class SharedMessages:
    """One platform's view of the stored table messages; without a store (tests, the console)
    every call answers None and the adapter works from memory alone."""

    def __init__(self, store: SurfaceStore | None, platform: str) -> None:
        self.store = store
        self.platform = platform

    async def recall(self, table_id: str) -> Surface | None:
        """The stored message of the table (one read), or None: none stored, no store, or the
        store failed (logged)."""
        if self.store is None:
            return None
        try:
            return await self.store.table_message(self.platform, table_id)
        except Exception as exc:  # the store must never stop a table: memory still works
            log.warning(kv(event="table_message_unread", table=table_id, error=type(exc).__name__))
            return None

    async def record(
        self,
        table_id: str,
        chat_id: int | str,
        message_id: int | str,
        version: int | None,
        *,
        picture: bool = False,
    ) -> SurfaceWrite | None:
        """Store that the message now shows the table at `version` (0 when unknown); None when
        there is no store or it failed (logged)."""
        if self.store is None:
            return None
        try:
            return await self.store.put_table_message(
                self.platform,
                table_id,
                str(chat_id),
                str(message_id),
                version or 0,
                picture=picture,
            )
        except Exception as exc:  # the store must never stop a table: memory still works
            log.warning(kv(event="table_message_unkept", table=table_id, error=type(exc).__name__))
            return None
