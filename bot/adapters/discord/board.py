"""The table's one channel message, edited as play goes on.

Edits are coalesced: an update that comes less than `min_interval` seconds after the last write
waits, and only the newest state is written when the wait is over (so a burst of computer moves
costs one edit, well inside Discord's per-channel rate limit). A message older than
`repost_after` seconds, or one that was deleted, is replaced by a new message at the bottom of
the channel (the old one is deleted so its buttons disappear).
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.logs import kv

log = logging.getLogger("bot.discord.board")

MAX_CONTENT = 2000


@dataclass
class Render:
    """What the table message should show."""

    content: str
    view: Any  # a discord.ui.View
    picture: bytes | None = None


@dataclass
class Board:
    """One table's message and its pending update."""

    channel_id: int
    message_id: int | None = None
    posted_at: float = 0.0
    written_at: float = float("-inf")
    pending: Render | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)


def clip(content: str) -> str:
    """Content cut to Discord's 2,000 characters."""
    return content if len(content) <= MAX_CONTENT else content[: MAX_CONTENT - 1] + "…"


def picture_file(picture: bytes, filename: str = "table.png") -> discord.File:
    """A PNG attachment (a fresh one per send: discord.py reads and closes it)."""
    return discord.File(io.BytesIO(picture), filename=filename)


class Boards:
    """The table messages of every table, written through `channel_of(channel_id)` (the adapter
    fills it in when it is not given)."""

    def __init__(
        self,
        channel_of: Callable[[int], Any] | None = None,
        *,
        min_interval: float = 1.0,
        repost_after: float = 3600.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.channel_of = channel_of
        self.min_interval = min_interval
        self.repost_after = repost_after
        self.clock = clock
        self.sleep = sleep
        self.boards: dict[str, Board] = {}

    def channel_id(self, table_id: str) -> int | None:
        """The channel a table's message is in, when known."""
        board = self.boards.get(table_id)
        return None if board is None else board.channel_id

    async def show(
        self, table_id: str, channel_id: int, render: Render, *, fresh: bool = False
    ) -> bool:
        """Bring the table message up to date now, or as soon as the rate allows; `fresh` posts
        it anew at the bottom of the channel (someone asked to see the table again). False when
        a write made now failed (e.g. the bot may not post in the channel)."""
        board = self.boards.get(table_id)
        if board is None or board.channel_id != channel_id:
            board = self.boards[table_id] = Board(channel_id)
        if fresh:
            board.posted_at = float("-inf")
        board.pending = render
        if board.task is not None and not board.task.done():
            return True  # the waiting writer will take the newest state
        wait = board.written_at + self.min_interval - self.clock()
        if wait <= 0:
            return await self._write(table_id, board)
        board.task = asyncio.create_task(self._later(table_id, board, wait))
        return True

    async def _later(self, table_id: str, board: Board, wait: float) -> None:
        await self.sleep(wait)
        await self._write(table_id, board)

    async def settle(self) -> None:
        """Wait for every delayed write (tests and shutdown)."""
        tasks = [b.task for b in self.boards.values() if b.task is not None and not b.task.done()]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    def forget(self, table_id: str) -> None:
        """Stop tracking a table (its message stays as it is)."""
        board = self.boards.pop(table_id, None)
        if board is not None and board.task is not None:
            board.task.cancel()

    async def _write(self, table_id: str, board: Board) -> bool:
        async with board.lock:  # one write at a time, so a first post is never made twice
            render, board.pending = board.pending, None
            if render is None:
                return True
            board.written_at = self.clock()
            return await self._edit_or_post(table_id, board, render)

    async def _edit_or_post(self, table_id: str, board: Board, render: Render) -> bool:
        assert self.channel_of is not None
        channel = self.channel_of(board.channel_id)
        old = board.message_id
        if old is not None and self.clock() - board.posted_at < self.repost_after:
            try:
                kwargs: dict[str, Any] = {"content": clip(render.content), "view": render.view}
                kwargs["attachments"] = (
                    [picture_file(render.picture)] if render.picture is not None else []
                )
                await channel.get_partial_message(old).edit(**kwargs)
                return True
            except discord.NotFound:
                old = None  # deleted by someone: post a new one
            except discord.HTTPException as exc:
                log.warning(kv(event="table_edit_failed", table=table_id, status=exc.status))
                return False
        return await self._post(table_id, board, channel, render, old)

    async def _post(
        self, table_id: str, board: Board, channel: Any, render: Render, old: int | None
    ) -> bool:
        kwargs: dict[str, Any] = {"content": clip(render.content), "view": render.view}
        if render.picture is not None:
            kwargs["file"] = picture_file(render.picture)
        try:
            message = await channel.send(**kwargs)
        except discord.HTTPException as exc:
            log.warning(kv(event="table_post_failed", table=table_id, status=exc.status))
            return False
        board.message_id = message.id
        board.posted_at = self.clock()
        if old is not None:
            try:
                await channel.get_partial_message(old).delete()
            except discord.HTTPException as exc:
                log.info(kv(event="old_table_kept", table=table_id, status=exc.status))
        return True
