"""Telegram text → core words: command names and arguments, locales, deep-link payloads."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bot.core.i18n import normalize_locale
from bot.core.table.rooms import SHARED, is_shared_room, parent_of, shared_room

# Telegram deep-link payloads allow only these characters, up to 64 of them.
PAYLOAD_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def parse_command(text: str, bot_username: str) -> tuple[str, tuple[str, ...]] | None:
    """Split `/poker open turkish 10` into `("poker", ("open", "turkish", "10"))`.

    `/poker_open 10` (the form Telegram's command menu can list) gives the same as `/poker open 10`,
    and `/poker_rules_set deck=32` the same as `/poker rules set deck=32`; the other words are
    kept as typed (`floş=kapalı`, `suits=♥♠♦♣`: the core folds them). `/cmd@OtherBot` is not for
    us and gives None, as does text that is not a command.
    """
    words = text.strip().split()
    if not words or not words[0].startswith("/") or len(words[0]) < 2:
        return None
    name, _, target = words[0][1:].partition("@")
    if target and target.lower() != bot_username.lower():
        return None
    parts = [part for part in name.lower().split("_") if part]
    if not parts:
        return None
    return parts[0], (*parts[1:], *words[1:])


def locale_of(language_code: str | None) -> str | None:
    """`tr`, `en` or None from a Telegram `language_code` (`tr`, `en-GB` → `en`, `de` → None),
    normalised as the core does (`bot.core.i18n.normalize_locale`)."""
    return normalize_locale(language_code)


def deep_link(bot_username: str, payload: str) -> str:
    """The `t.me` link that opens the private chat with the bot and sends `/start <payload>`."""
    if not PAYLOAD_RE.match(payload):
        raise ValueError(f"bad deep-link payload {payload!r}: use 1-64 of A-Z a-z 0-9 _ -")
    return f"https://t.me/{bot_username}?start={payload}"


@dataclass(frozen=True)
class Place:
    """Where a table lives: a group chat, or one topic of a forum supergroup, and for a
    tournament table that shares it with others, the label of its shared room.

    `key` is the core's channel id: the chat id, plus `/<topic>` inside a forum topic, so each
    topic can hold its own table, plus `#<label>` for a shared room (`bot.core.table.rooms`). Messages
    go to the chat and topic (`send_kwargs`); the label only tells the tables apart.
    """

    chat_id: int
    thread_id: int | None = None
    room: str | None = None

    @property
    def key(self) -> str:
        """The channel id the core sees."""
        key = str(self.chat_id) if self.thread_id is None else f"{self.chat_id}/{self.thread_id}"
        return key if self.room is None else shared_room(key, self.room)

    @property
    def is_group(self) -> bool:
        """Group and supergroup ids are negative; private chats (user ids) are positive."""
        return self.chat_id < 0

    @property
    def community(self) -> str | None:
        """The community the place belongs to: the group's chat id (every topic of a forum is
        the same community); None for a private chat."""
        return str(self.chat_id) if self.is_group else None

    def send_kwargs(self) -> dict[str, Any]:
        """Extra arguments that put a sent message into this place's topic."""
        return {} if self.thread_id is None else {"message_thread_id": self.thread_id}

    @classmethod
    def parse(cls, key: str | None) -> Place | None:
        """The place a channel id names (a shared room's: its chat and topic, with its label);
        None when it is not a Telegram one."""
        if not key:
            return None
        room = key.partition(SHARED)[2] if is_shared_room(key) else None
        chat, _, thread = parent_of(key).partition("/")
        try:
            return cls(int(chat), int(thread) if thread else None, room or None)
        except ValueError:
            return None


def place_of(message: object) -> Place | None:
    """The place a message was posted in (its topic when the chat is a forum)."""
    chat = getattr(message, "chat", None)
    if chat is None:
        return None
    topic = (
        getattr(message, "message_thread_id", None)
        if getattr(message, "is_topic_message", False)
        else None
    )
    return Place(chat.id, topic)
