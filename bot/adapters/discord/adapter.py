"""Discord interactions -> core commands and presses, and the core's answers back out.

The adapter is assembled from two halves on one state: `inbound.py` (interactions acknowledged
first, then handed to the core) and `delivery.py` (the answers: the sender's ephemeral replies,
direct messages, channel posts and the table message, each in its lane; how and why is told
there), like the Telegram adapter's `adapter.py` and `delivery.py`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.adapters.discord.board import Boards
from bot.adapters.discord.delivery import (
    INBOX_LIMIT,
    PLATFORM,
    RETRY_PAUSE,
    DiscordDelivery,
    Origin,
    is_fault,
)
from bot.adapters.discord.inbound import DiscordInbound, community_of, is_moderator
from bot.adapters.discord.parts import Part
from bot.adapters.discord.private import PrivateMessages
from bot.adapters.discord.rooms import DiscordRooms
from bot.adapters.surfaces import SharedMessages, SurfaceStore
from bot.caches import Expiring, Lru
from bot.core.api import CoreApi
from bot.core.messages import Button

MAX_USERS = 20_000  # users whose kept parts, refused DMs and language are remembered (LRU)
DM_CLOSED_SECONDS = 6 * 3600  # a user whose DMs were refused is tried again after this

__all__ = [
    "PLATFORM",
    "CoreApi",
    "DiscordAdapter",
    "DiscordDelivery",
    "DiscordInbound",
    "Origin",
    "community_of",
    "is_fault",
    "is_moderator",
]


class DiscordAdapter(DiscordInbound):
    """Translates between Discord interactions and the core; one per bot (all shards): the
    inbound half (`inbound.py`) and the delivering half (`delivery.py`) on one state."""

    def __init__(
        self,
        core: CoreApi,
        *,
        default_locale: str = "tr",
        moderator_role: str | None = None,
        dm_fallback: bool = True,
        boards: Boards | None = None,
        inbox_limit: int = INBOX_LIMIT,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        retry_pause: float = RETRY_PAUSE,
        table_messages: SurfaceStore | None = None,
        activity: bool = False,
    ) -> None:
        self.core = core
        self.activity = activity  # "Open the table" on table messages (activity.py)
        self.default_locale = default_locale
        self.moderator_role = moderator_role
        self.dm_fallback = dm_fallback
        self.inbox_limit = inbox_limit
        self.sleep = sleep
        self.retry_pause = retry_pause
        self.client: Any = None  # set by `attach`
        self.boards = boards or Boards(clock=clock, sleep=sleep)
        if self.boards.channel_of is None:
            self.boards.channel_of = self._channel
        if table_messages is not None:  # every process finds the table messages there
            self.boards.shared = SharedMessages(table_messages, PLATFORM)
        self.lanes = self.boards.lanes  # one order per channel for table writes and posts
        # tournament tables' threads (`bot.core.table.rooms`): hand it to the core as its `rooms`
        self.rooms = DiscordRooms(self.lanes, sleep=sleep)
        self.private = PrivateMessages(clock)
        self.clock = clock
        # table id -> core custom id -> button, of the newest table message (amount bounds)
        self.buttons: dict[str, dict[str, Button]] = {}
        self.groups: dict[str, str] = {}  # table id -> "poker" | "okey"
        # user id -> private parts kept for them (closed tables' parts go with `prune`; the
        # least recent users beyond MAX_USERS are forgotten)
        self.inbox: Lru[str, list[Part]] = Lru(MAX_USERS)
        # users whose DMs were refused: tried again after DM_CLOSED_SECONDS (they may open them)
        self.dm_closed: Expiring[str] = Expiring(DM_CLOSED_SECONDS, clock, MAX_USERS)
        self.told: set[tuple[str, str]] = set()  # (table, user) told in the channel already
        # user id -> `/lang` choice, as last looked up (the least recent forgotten first)
        self.locales: Lru[str, str | None] = Lru(MAX_USERS)
        # table id -> the core's channel id of the table, when it is a shared room
        # ("<channel>#<label>", posted in the channel): commands about that table name it
        self.rooms_of: dict[str, str] = {}

    def attach(self, client: Any) -> None:
        """Serve `client`'s interactions (components find the adapter as `client.adapter`)."""
        self.client = client
        client.adapter = self
        self.rooms.attach(client)
