"""One asyncio lock per tournament, kept only while a task holds or waits on it.

A lock nobody holds or waits on protects nothing, so it is dropped at once: the next task that
needs it makes a fresh one. The map so holds only the tournaments being acted on right now,
never every tournament this process has seen.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field


@dataclass
class _Entry:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0  # tasks holding the lock or waiting for it


class KeyedLocks:
    """Mutual exclusion per key (a tournament id), with no entry left for an idle key."""

    def __init__(self) -> None:
        self._entries: dict[int, _Entry] = {}

    def __len__(self) -> int:
        return len(self._entries)

    @contextlib.asynccontextmanager
    async def hold(self, key: int) -> AsyncIterator[None]:
        """Hold the key's lock for the block (waiting, FIFO, for the tasks before)."""
        entry = self._entries.setdefault(key, _Entry())
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if not entry.users:
                del self._entries[key]
