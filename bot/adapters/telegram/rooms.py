"""Tournament rooms on Telegram: each table plays in a forum topic of its own when it can.

`TelegramRooms` is the adapter's side of the core's `Rooms` port (`bot.core.table.rooms`). `open_room`
creates a forum topic named after the table (createForumTopic) when the parent group is a forum
and the bot is an administrator allowed to manage topics, and returns `Place(chat, topic).key`
("chat/topic"). Otherwise it returns None and the core plays the table in a shared room of the
group (`"<chat>#<label>"`, each table with its own table message); why is logged once per group
(`rooms_unavailable`), and a forum whose admins have not let the bot manage topics is asked, once,
in the group to allow it (`rooms_ask_admin`), so that the next tournament's tables get topics. Whether a group can have
rooms is asked once (getChat, getChatMember) and remembered for `ttl` seconds.

`close_room` closes the topic (closeForumTopic) `close_delay` seconds later, queued in the
group's outbox behind its other traffic, so the table's last lines get in first; at shutdown
the outbox's flush runs it at once. A failure is logged (without the token: only the error).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from telegram.error import TelegramError

from bot.adapters.telegram.outbox import Outbox
from bot.adapters.telegram.parsing import Place
from bot.adapters.telegram.texts import text
from bot.logs import kv

log = logging.getLogger("bot.telegram.rooms")

PLATFORM = "telegram"
MAX_NAME = 128  # Telegram's limit on a topic's name
CLOSE_DELAY = 30.0  # seconds between the core closing a room and the topic being closed
VERDICT_TTL = 60.0  # seconds a group's "can have rooms" answer is remembered
NOT_A_FORUM = "not_a_forum"
NO_TOPIC_RIGHTS = "no_manage_topics"


def topic_name(title: str) -> str:
    """A topic name Telegram accepts: the title cut to 128 characters, never empty."""
    title = " ".join(title.split()) or "table"
    return title if len(title) <= MAX_NAME else title[: MAX_NAME - 1] + "…"


class TelegramRooms:
    """Opens and closes table topics through the bot and outbox given to `bind`."""

    def __init__(
        self,
        *,
        close_delay: float = CLOSE_DELAY,
        ttl: float = VERDICT_TTL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.close_delay = close_delay
        self.ttl = ttl
        self.clock = clock
        self.bot: Any = None
        self.outbox: Outbox | None = None
        self.locale = "tr"
        self._verdicts: dict[int, tuple[float, str | None]] = {}  # chat -> (when, why not)
        self._told: set[tuple[int, str]] = set()  # (chat, reason) logged already

    def bind(self, bot: Any, outbox: Outbox, locale: str = "tr") -> None:
        """Use `bot` (a `telegram.Bot`), the adapter's group `outbox` and the bot's default
        `locale` (for the request to admins)."""
        self.bot, self.outbox, self.locale = bot, outbox, locale

    async def open_room(self, platform: str, parent_channel_id: str, title: str) -> str | None:
        """A new forum topic named `title` in the parent group; its channel id ("chat/topic"),
        or None when the group is no forum or the bot may not manage its topics."""
        parent = Place.parse(parent_channel_id)
        if platform != PLATFORM or self.bot is None or parent is None or not parent.is_group:
            return None
        chat_id = parent.chat_id
        reason = await self._why_not(chat_id)
        if reason is not None:
            self._once(chat_id, reason)
            return None
        try:
            topic = await self.bot.create_forum_topic(chat_id, topic_name(title))
        except TelegramError as exc:
            self._verdicts.pop(chat_id, None)  # rights may have changed: ask again next time
            log.warning(kv(event="room_not_opened", chat=chat_id, error=exc))
            return None
        log.info(kv(event="room_opened", chat=chat_id, topic=topic.message_thread_id))
        return Place(chat_id, topic.message_thread_id).key

    async def close_room(self, platform: str, channel_id: str) -> None:
        """Close the table's topic after `close_delay` seconds, behind the group's queued
        traffic (returns at once). A shared room or a plain group is left as it is."""
        place = Place.parse(channel_id)
        if platform != PLATFORM or self.outbox is None or place is None:
            return
        if place.thread_id is None or place.room is not None or not place.is_group:
            return

        async def close() -> None:
            try:
                await self.bot.close_forum_topic(place.chat_id, place.thread_id)
            except TelegramError as exc:
                log.warning(kv(event="room_not_closed", chat=place.chat_id, error=exc))
                return
            log.info(kv(event="room_closed", chat=place.chat_id, topic=place.thread_id))

        self.outbox.later(self.close_delay, place.chat_id, close)

    async def _why_not(self, chat_id: int) -> str | None:
        """Why the group cannot have rooms (None: it can), remembered for `ttl` seconds; a
        failed look-up is a reason too, but not remembered."""
        now = self.clock()
        known = self._verdicts.get(chat_id)
        if known is not None and now - known[0] < self.ttl:
            return known[1]
        try:
            chat = await self.bot.get_chat(chat_id)
            reason: str | None = NOT_A_FORUM
            if chat.is_forum:
                member = await self.bot.get_chat_member(chat_id, self.bot.id)
                allowed = member.status == "creator" or bool(
                    getattr(member, "can_manage_topics", False)
                )
                reason = None if allowed else NO_TOPIC_RIGHTS
        except TelegramError as exc:
            log.warning(kv(event="rooms_lookup_failed", chat=chat_id, error=exc))
            return "lookup_failed"
        self._verdicts[chat_id] = (now, reason)
        return reason

    def _once(self, chat_id: int, reason: str) -> None:
        """Log why a group gets no rooms, the first time only."""
        if (chat_id, reason) in self._told:
            return
        self._told.add((chat_id, reason))
        log.warning(kv(event="rooms_unavailable", chat=chat_id, reason=reason))
        if reason == NO_TOPIC_RIGHTS and self.outbox is not None:
            request = text(self.locale, "rooms_ask_admin")

            async def ask() -> None:
                try:
                    await self.bot.send_message(chat_id, request)
                except TelegramError as exc:
                    log.warning(kv(event="rooms_ask_failed", chat=chat_id, error=exc))

            self.outbox.post(chat_id, ask)
