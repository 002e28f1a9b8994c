"""Who moderates a Telegram group: its administrators, asked with getChatMember, cached briefly."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

from telegram.error import TelegramError

from bot.logs import kv

log = logging.getLogger("bot.telegram")

MODERATOR_STATUSES = frozenset({"creator", "administrator"})

Fetch = Callable[[int, int], Awaitable[str]]
Clock = Callable[[], float]


class AdminCache:
    """Answers `is_admin(chat, user)` from getChatMember, remembering each answer `ttl` seconds.

    `fetch(chat_id, user_id)` returns the member's status string; `clock` is injected so tests can
    move time. A failed lookup counts as "not a moderator" and is not remembered.
    """

    def __init__(self, fetch: Fetch, ttl: float = 60.0, clock: Clock = time.monotonic) -> None:
        self._fetch = fetch
        self._ttl = ttl
        self._clock = clock
        self._known: dict[tuple[int, int], tuple[float, bool]] = {}

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        """Whether the user administers the chat (private chats have no moderators)."""
        if chat_id > 0:
            return False
        now = self._clock()
        cached = self._known.get((chat_id, user_id))
        if cached is not None and now - cached[0] < self._ttl:
            return cached[1]
        try:
            status = await self._fetch(chat_id, user_id)
        except TelegramError as exc:
            log.warning(kv(event="admin_lookup_failed", chat=chat_id, user=user_id, error=exc))
            return False
        answer = status in MODERATOR_STATUSES
        self._known[(chat_id, user_id)] = (now, answer)
        if len(self._known) > 10_000:
            self._forget_expired(now)
        return answer

    def _forget_expired(self, now: float) -> None:
        self._known = {k: v for k, v in self._known.items() if now - v[0] < self._ttl}
