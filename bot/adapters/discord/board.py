"""The table's one channel message, edited as play goes on.

Every write goes through the channel's lane (`outbox.Lanes`), in order with the channel's other
posts, so it never holds up an interaction's answer. Edits are coalesced: an update that comes
less than `min_interval` seconds after the last write waits, and only the newest state is
written when the wait is over (a burst of computer moves costs one edit). A message older than
`repost_after` seconds, one that was deleted, or a `fresh` update (someone asked to see the
table again) is replaced by a new message at the bottom of the channel, and the old one is
deleted so its buttons disappear.

A write that fails on the network (connection reset, time-out, Discord 5xx) is tried again a few
times; one Discord refuses (no Send Messages) is not. A channel that refuses pictures (no Attach
Files) gets the table as text, and pictures are tried again there after `text_only_for` seconds.
Nobody is ever pinged by a table text (a nickname like "@everyone" stays plain text).

With a store the table message is shared by every process (`bot.adapters.surfaces`): a board
this process has not written yet reads the stored message (once) and edits it; every post is
stored, and a message another process posted is retired like this process's own. A message
read from the store counts as posted when it was read (for `repost_after`).
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

import discord

from bot.adapters.discord.outbox import TRANSPORT_ERRORS, Lanes, channel_lane, status_of
from bot.adapters.surfaces import SharedMessages, Surface
from bot.logs import kv

log = logging.getLogger("bot.discord.board")

MAX_CONTENT = 2000
NO_MENTIONS = discord.AllowedMentions.none()
REFUSED = "refused"  # Discord said no (permissions): trying again will not help
FAULT = "fault"  # the network or Discord failed: the write may work later

Failed = Callable[[str], Awaitable[None]]  # told REFUSED or FAULT when a write is given up
T = TypeVar("T")


@dataclass
class Render:
    """What the table message should show."""

    content: str
    view: Any  # a discord.ui.View
    picture: bytes | None = None
    version: int | None = None  # the table version it shows (stored with a post)


@dataclass
class Board:
    """One table's message and its pending update."""

    channel_id: int
    message_id: int | None = None
    posted_at: float = 0.0
    written_at: float = float("-inf")
    pending: Render | None = None
    fresh: bool = False
    busy: bool = False  # a write is waiting or queued
    faults: int = 0
    waiting: list[Failed] = field(default_factory=list, repr=False)
    task: asyncio.Task[None] | None = field(default=None, repr=False)


def clip(content: str) -> str:
    """Content cut to Discord's 2,000 characters."""
    return content if len(content) <= MAX_CONTENT else content[: MAX_CONTENT - 1] + "…"


def picture_file(picture: bytes, filename: str = "table.png") -> discord.File:
    """A file attachment, a PNG picture by default (a fresh one per send: discord.py reads and
    closes it)."""
    return discord.File(io.BytesIO(picture), filename=filename)


def message_of(stored: Surface, board: Board) -> int | None:
    """The id of a stored table message when it is in the board's channel, else None."""
    if stored.chat_id != str(board.channel_id) or not stored.message_id.isdigit():
        return None
    return int(stored.message_id)


def reason_of(exc: BaseException) -> str:
    """REFUSED for Discord's 4xx answers (permissions, unknown channel), FAULT for the rest."""
    if isinstance(exc, discord.HTTPException) and 400 <= exc.status < 500:
        return REFUSED
    return FAULT


class Pictures:
    """Which channels refused an attachment lately (no Attach Files): they get text only."""

    def __init__(self, clock: Callable[[], float], text_only_for: float) -> None:
        self.clock = clock
        self.text_only_for = text_only_for
        self._until: dict[int, float] = {}

    def allowed(self, channel_id: int) -> bool:
        """Whether to attach pictures in this channel now."""
        return self.clock() >= self._until.get(channel_id, float("-inf"))

    def refused(self, channel_id: int) -> None:
        """The channel refused a picture: text only there for a while."""
        self._until[channel_id] = self.clock() + self.text_only_for

    async def attempt(
        self, channel_id: int, picture: bytes | None, write: Callable[[bytes | None], Awaitable[T]]
    ) -> T:
        """`write(picture)` when there is a picture and the channel takes pictures now; when it
        refuses (Forbidden), text only there for a while and `write(None)`."""
        if picture is not None and self.allowed(channel_id):
            try:
                return await write(picture)
            except discord.Forbidden:
                self.refused(channel_id)
                log.warning(kv(event="pictures_refused", channel=channel_id))
        return await write(None)


async def send_to_channel(
    channel: Any,
    channel_id: int,
    pictures: Pictures,
    content: str,
    *,
    picture: bytes | None = None,
    view: Any = None,
    attachment: tuple[str, bytes] | None = None,
) -> Any:
    """Post a message without pinging anyone, with its picture and its attachment (file name,
    content) when given; when the channel refuses files, post the text alone. Raises what
    discord.py raises when even that fails."""
    kwargs: dict[str, Any] = {"content": clip(content), "allowed_mentions": NO_MENTIONS}
    if view is not None:
        kwargs["view"] = view

    def send(allowed: bytes | None) -> Awaitable[Any]:
        if allowed is None:
            return channel.send(**kwargs)
        files = [] if picture is None else [picture_file(picture)]
        if attachment is not None:
            files.append(picture_file(attachment[1], attachment[0]))
        if len(files) == 1:
            return channel.send(file=files[0], **kwargs)
        return channel.send(files=files, **kwargs)

    first = picture if picture is not None else (None if attachment is None else attachment[1])
    return await pictures.attempt(channel_id, first, send)


class Boards:
    """The table messages of every table, written through `channel_of(channel_id)` (the adapter
    fills it in when it is not given) in each channel's lane of `lanes`."""

    def __init__(
        self,
        channel_of: Callable[[int], Any] | None = None,
        *,
        min_interval: float = 1.0,
        repost_after: float = 3600.0,
        retry_after: float = 2.0,
        max_faults: int = 3,
        text_only_for: float = 600.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        lanes: Lanes | None = None,
        shared: SharedMessages | None = None,
    ) -> None:
        self.channel_of = channel_of
        self.shared = shared or SharedMessages(None, "discord")  # table messages in the store
        self.min_interval = min_interval
        self.repost_after = repost_after
        self.retry_after = retry_after
        self.max_faults = max_faults
        self.clock = clock
        self.sleep = sleep
        self.lanes = lanes or Lanes(clock=clock, sleep=sleep)
        self.pictures = Pictures(clock, text_only_for)
        self.boards: dict[str, Board] = {}

    def channel_id(self, table_id: str) -> int | None:
        """The channel a table's message is in, when known."""
        board = self.boards.get(table_id)
        return None if board is None else board.channel_id

    def show(
        self,
        table_id: str,
        channel_id: int,
        render: Render,
        *,
        fresh: bool = False,
        on_failed: Failed | None = None,
    ) -> None:
        """Bring the table message up to date as soon as the channel's lane and the edit rate
        allow; `fresh` posts it anew at the bottom of the channel. Returns at once: `on_failed`
        is told when the write is given up."""
        board = self.boards.get(table_id)
        if board is None or board.channel_id != channel_id:
            board = self.boards[table_id] = Board(channel_id)
        board.fresh = board.fresh or fresh
        board.pending = render
        if on_failed is not None:
            board.waiting.append(on_failed)
        if board.busy:
            return  # a write is waiting or queued: it will take the newest state
        board.busy = True
        wait = 0.0 if board.fresh else board.written_at + self.min_interval - self.clock()
        self._schedule(table_id, board, wait)

    def _schedule(self, table_id: str, board: Board, wait: float) -> None:
        """Queue the board's write in its channel's lane, now or after `wait` seconds."""
        if wait > 0:
            board.task = asyncio.create_task(self._later(table_id, board, wait))
        else:
            self.lanes.put(channel_lane(board.channel_id), partial(self._write, table_id, board))

    async def _later(self, table_id: str, board: Board, wait: float) -> None:
        await self.sleep(wait)
        self._schedule(table_id, board, 0.0)

    async def settle(self) -> None:
        """Wait for every delayed write and everything queued in the lanes (tests, shutdown)."""
        while True:
            tasks = [
                b.task for b in self.boards.values() if b.task is not None and not b.task.done()
            ]
            if not tasks and not self.lanes.busy():
                return
            await asyncio.gather(*tasks, return_exceptions=True)
            await self.lanes.settle()

    def cancel(self) -> None:
        """Drop every delayed write and everything queued in the lanes (shutdown)."""
        for board in self.boards.values():
            if board.task is not None:
                board.task.cancel()
        self.lanes.cancel()

    def forget(self, table_id: str) -> None:
        """Stop tracking a table (its message stays as it is)."""
        board = self.boards.pop(table_id, None)
        if board is not None and board.task is not None:
            board.task.cancel()

    async def _write(self, table_id: str, board: Board) -> None:
        board.busy = False  # from now on a newer update needs a write of its own
        if self.boards.get(table_id) is not board:
            return  # forgotten meanwhile
        render, board.pending = board.pending, None
        if render is None:
            return
        waiting, board.waiting = board.waiting, []
        board.written_at = self.clock()
        was_fresh = board.fresh
        try:
            await self._edit_or_post(table_id, board, render)
        except TRANSPORT_ERRORS as exc:
            reason = reason_of(exc)
            log.warning(kv(event="table_write_failed", table=table_id, status=status_of(exc)))
            board.faults += 1
            if reason == FAULT and board.faults < self.max_faults:
                if board.pending is None:
                    board.pending = render  # the newest state is still to be shown
                board.fresh = board.fresh or was_fresh
                board.waiting = waiting + board.waiting
                if not board.busy:
                    board.busy = True
                    self._schedule(table_id, board, self.retry_after)
                return
            board.faults = 0
            for failed in waiting:
                await failed(reason)
            return
        board.faults = 0

    async def _edit_or_post(self, table_id: str, board: Board, render: Render) -> None:
        assert self.channel_of is not None
        channel = self.channel_of(board.channel_id)
        recalled = board.message_id is None  # read the store once per write, on a miss
        if recalled:  # another process may have posted it
            await self._recall(table_id, board)
        old = board.message_id
        fresh, board.fresh = board.fresh, False
        while old is not None and not fresh and self.clock() - board.posted_at < self.repost_after:
            try:
                await self._edit(channel, board, old, render)
                return
            except discord.NotFound:
                board.message_id = None  # deleted: by another process that posted it anew?
                if recalled or not await self._recall(table_id, board, gone=old):
                    old = None  # post a new one
                    break
                recalled, old = True, board.message_id
        await self.lanes.pace(channel_lane(board.channel_id))
        message = await send_to_channel(
            channel,
            board.channel_id,
            self.pictures,
            render.content,
            picture=render.picture,
            view=render.view,
        )
        board.message_id = message.id
        board.posted_at = self.clock()
        done = await self.shared.record(
            table_id,
            board.channel_id,
            message.id,
            render.version,
            picture=render.picture is not None,
        )
        retire = [] if old is None else [old]
        other = None if done is None or done.other is None else message_of(done.other, board)
        if done is not None and not done.written and other is not None:
            # another process stored a newer state meanwhile: its message stays, this one goes
            board.message_id = other
            retire = [m for m in retire if m != other] + [message.id]
        elif other is not None and other not in (old, message.id):
            retire.append(other)  # posted by another process, unknown here
        for gone in retire:
            try:
                await channel.get_partial_message(gone).delete()
            except TRANSPORT_ERRORS as exc:
                log.info(kv(event="old_table_kept", status=getattr(exc, "status", "network")))

    async def _recall(self, table_id: str, board: Board, gone: int | None = None) -> bool:
        """Take the table's message from the store (another process posted it) unless it is
        `gone` (known to be deleted) or in another channel; True when one was taken."""
        stored = await self.shared.recall(table_id)
        message_id = None if stored is None else message_of(stored, board)
        if message_id is None or message_id == gone:
            return False
        board.message_id = message_id
        board.posted_at = self.clock()
        return True

    async def _edit(self, channel: Any, board: Board, message_id: int, render: Render) -> None:
        kwargs: dict[str, Any] = {
            "content": clip(render.content),
            "view": render.view,
            "allowed_mentions": NO_MENTIONS,
        }
        message = channel.get_partial_message(message_id)

        def edit(picture: bytes | None) -> Awaitable[Any]:
            files = [] if picture is None else [picture_file(picture)]
            return message.edit(attachments=files, **kwargs)

        await self.pictures.attempt(board.channel_id, render.picture, edit)
