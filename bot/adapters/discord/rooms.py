"""Tournament rooms on Discord: each table plays in a public thread under the tournament's channel.

`DiscordRooms` is the adapter's side of the core's `Rooms` port (`bot.core.table.rooms`). `open_room`
creates a public thread named after the table under the parent text channel (or announcement
channel) and returns the thread's id: commands, buttons and posts inside it are a channel of
their own to the adapter (its own lane, paced at 5 posts per 5 seconds like any channel). It
returns None, and the core falls back to a shared room in the parent channel, when the parent
is not a channel that holds threads (a thread, a forum, a voice channel, unknown) or the bot
lacks Create Public Threads there; the reason is logged once per channel.

`close_room` archives and locks the thread (archives only, without Manage Threads). It waits
`close_delay` seconds first and then queues behind the thread's own traffic, so the table's
last lines, sent after the core decided to close, still get in. At shutdown `close_now` queues
every waiting close at once (the adapter's flush writes them after the table messages).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.adapters.discord.outbox import TRANSPORT_ERRORS, Lanes, channel_lane, status_of
from bot.core.table.rooms import parent_of
from bot.logs import kv

log = logging.getLogger("bot.discord.rooms")

PLATFORM = "discord"
MAX_NAME = 100  # Discord's limit on a thread's name
ARCHIVE_MINUTES = 1440  # a quiet table's thread archives itself after a day
CLOSE_DELAY = 30.0  # seconds between the core closing a room and the thread being archived
# Which thread a parent channel's type holds: threads only grow under text and announcements.
THREAD_TYPES = {
    discord.ChannelType.text: discord.ChannelType.public_thread,
    discord.ChannelType.news: discord.ChannelType.news_thread,
}
LOOKUP_ERRORS: tuple[type[BaseException], ...] = (*TRANSPORT_ERRORS, discord.ClientException)


def thread_name(title: str) -> str:
    """A thread name Discord accepts: the title cut to 100 characters, never empty."""
    title = " ".join(title.split()) or "table"
    return title if len(title) <= MAX_NAME else title[: MAX_NAME - 1] + "…"


class DiscordRooms:
    """Opens and closes table threads through the gateway client given to `attach`."""

    def __init__(
        self,
        lanes: Lanes,
        *,
        close_delay: float = CLOSE_DELAY,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.lanes = lanes  # the adapter's: a close queues behind the thread's own traffic
        self.close_delay = close_delay
        self.sleep = sleep
        self.client: Any = None
        self._told: set[tuple[int, str]] = set()  # (channel, reason) logged already
        self._closing: dict[int, asyncio.Task[None]] = {}  # thread id -> its waiting close

    def attach(self, client: Any) -> None:
        """Use `client` (a discord.py client) for the threads."""
        self.client = client

    async def open_room(self, platform: str, parent_channel_id: str, title: str) -> str | None:
        """A new public thread named `title` under the parent channel; its id, or None when
        the parent cannot hold one or the bot may not create it (logged once per channel)."""
        parent = parent_of(parent_channel_id)
        if platform != PLATFORM or self.client is None or not parent.isdigit():
            return None
        channel_id = int(parent)
        channel = await self._channel(channel_id)
        if channel is None:
            self._once(channel_id, "parent_unknown")
            return None
        thread_type = THREAD_TYPES.get(getattr(channel, "type", None))  # type: ignore[arg-type]
        if thread_type is None:
            self._once(channel_id, "not_a_text_channel")
            return None
        try:
            thread = await channel.create_thread(
                name=thread_name(title),
                type=thread_type,
                auto_archive_duration=ARCHIVE_MINUTES,
                reason="tournament table",
            )
        except discord.Forbidden:
            self._once(channel_id, "no_thread_permission")
            return None
        except TRANSPORT_ERRORS as exc:
            log.warning(kv(event="room_not_opened", channel=channel_id, status=status_of(exc)))
            return None
        log.info(kv(event="room_opened", channel=channel_id, thread=thread.id))
        return str(thread.id)

    async def close_room(self, platform: str, channel_id: str) -> None:
        """Archive and lock the table's thread after `close_delay` seconds, behind everything
        queued for it by then (returns at once). A shared room or a plain channel is left be."""
        if platform != PLATFORM or not channel_id.isdigit():
            return
        thread_id = int(channel_id)
        if thread_id in self._closing:
            return
        self._closing[thread_id] = asyncio.create_task(self._close_later(thread_id))

    async def _close_later(self, thread_id: int) -> None:
        await self.sleep(self.close_delay)
        self._queue_close(thread_id)

    def _queue_close(self, thread_id: int) -> None:
        self._closing.pop(thread_id, None)
        self.lanes.put(channel_lane(thread_id), lambda: self._archive(thread_id))

    def close_now(self) -> int:
        """Queue every waiting close now (shutdown: after the table messages are flushed);
        returns how many were queued."""
        waiting = list(self._closing.items())
        for thread_id, task in waiting:
            task.cancel()
            self._queue_close(thread_id)
        return len(waiting)

    async def _archive(self, thread_id: int) -> None:
        """Archive and lock the thread; without Manage Threads, archive it only."""
        thread = await self._channel(thread_id)
        if thread is None or not hasattr(thread, "edit"):
            log.info(kv(event="room_not_closed", thread=thread_id, reason="unknown"))
            return
        try:
            try:
                await thread.edit(archived=True, locked=True, reason="tournament table over")
            except discord.Forbidden:  # the creator may archive its thread, not lock it
                await thread.edit(archived=True, reason="tournament table over")
        except TRANSPORT_ERRORS as exc:
            log.warning(kv(event="room_not_closed", thread=thread_id, status=status_of(exc)))
            return
        log.info(kv(event="room_closed", thread=thread_id))

    async def _channel(self, channel_id: int) -> Any:
        """The channel or thread from the cache, else one REST fetch; None when it cannot be
        had (deleted, no access, a network fault: logged)."""
        channel = self.client.get_channel(channel_id)
        if channel is not None:
            return channel
        try:
            return await self.client.fetch_channel(channel_id)
        except LOOKUP_ERRORS as exc:
            log.info(kv(event="room_channel_unknown", channel=channel_id, status=status_of(exc)))
            return None

    def _once(self, channel_id: int, reason: str) -> None:
        """Log why a channel gets no rooms, the first time only."""
        if (channel_id, reason) in self._told:
            return
        self._told.add((channel_id, reason))
        log.warning(kv(event="rooms_unavailable", channel=channel_id, reason=reason))
