"""Update scheduling: different chats concurrently, each chat's updates in the order they came."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor


def chat_key(update: object) -> int | None:
    """The chat an update belongs to (None for updates without one)."""
    if isinstance(update, Update) and update.effective_chat is not None:
        return update.effective_chat.id
    return None


class PerChatUpdateProcessor(BaseUpdateProcessor):
    """Runs up to `max_concurrent_updates` updates at once, but never two of the same chat.

    A slow update of one chat so never stalls the others, while `/poker open` then `/poker join`
    in one group are still handled in that order. (Handlers do not wait for group sends at all:
    those go through the adapter's outbox.)
    An update waits for its chat's turn before it takes a concurrency slot, so a busy chat cannot
    fill every slot with waiting updates.
    """

    def __init__(self, max_concurrent_updates: int = 32) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: dict[int, asyncio.Lock] = {}
        self._waiting: dict[int, int] = {}

    # python-telegram-bot marks it final, yet a custom processor is how it orders updates
    async def process_update(  # type: ignore[misc]
        self, update: object, coroutine: Awaitable[Any]
    ) -> None:
        """Wait for the chat's previous updates, then run this one in a concurrency slot."""
        key = chat_key(update)
        if key is None:
            await super().process_update(update, coroutine)
            return
        lock = self._locks.setdefault(key, asyncio.Lock())  # asyncio.Lock wakes waiters FIFO
        self._waiting[key] = self._waiting.get(key, 0) + 1
        try:
            async with lock:
                await super().process_update(update, coroutine)
        finally:
            self._waiting[key] -= 1
            if not self._waiting[key]:
                del self._waiting[key]
                del self._locks[key]

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        """Run the update's handlers."""
        await coroutine

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to tear down."""
