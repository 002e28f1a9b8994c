"""Rooms: the channels a tournament's tables play in.

A tournament opened in a channel (the *parent*) plays each table in a room of its own:
a Discord thread under the channel, a Telegram forum topic when the group is a forum. The core
asks the adapter for one through the `Rooms` port; when the adapter has none to give (no
permission, not a forum, the console) the table plays in a *shared room*: a channel id made of
the parent's id and a label, `"<parent>#<label>"`. Adapters deliver a shared room's items to the
parent channel (`parent_of`); each table still has its own living table message there.
"""

from __future__ import annotations

from typing import Protocol

SHARED = "#"


class Rooms(Protocol):
    """What an adapter offers the core for tournament tables."""

    async def open_room(self, platform: str, parent_channel_id: str, title: str) -> str | None:
        """Create a room (thread, forum topic) under `parent_channel_id` named `title` and
        return its channel id; None when the platform or the bot's rights do not allow it."""
        ...

    async def close_room(self, platform: str, channel_id: str) -> None:
        """Archive or close a room opened by `open_room` once its table is over (best effort)."""
        ...


def shared_room(parent_channel_id: str, label: str) -> str:
    """The channel id of a table that shares its parent channel with other tables."""
    return f"{parent_of(parent_channel_id)}{SHARED}{label}"


def parent_of(channel_id: str) -> str:
    """The real channel a (possibly shared-room) channel id is delivered to."""
    return channel_id.partition(SHARED)[0]


def is_shared_room(channel_id: str | None) -> bool:
    """True when `channel_id` names a shared room rather than a real channel."""
    return bool(channel_id) and SHARED in channel_id
