"""The rooms a core is given before its adapter exists.

A runner builds the core first and the chat adapter (with its `rooms`: Discord threads,
Telegram forum topics) inside `serve`. `LateRooms` bridges the two: the core gets it at
construction (`Core(..., rooms=late)`), `serve` plugs the adapter's rooms in (`late.use(...)`)
once it has built the adapter. Until then, and for a platform without rooms (the console),
every table plays in a shared room (`open_room` answers None).
"""

from __future__ import annotations

from bot.core.table.rooms import Rooms


class LateRooms:
    """A `Rooms` that forwards to the adapter's rooms once `use` was called; None before."""

    def __init__(self) -> None:
        self.target: Rooms | None = None

    def use(self, rooms: Rooms) -> None:
        """Forward to `rooms` from now on."""
        self.target = rooms

    async def open_room(self, platform: str, parent_channel_id: str, title: str) -> str | None:
        """The adapter's room for a table (see `Rooms.open_room`); None without an adapter."""
        if self.target is None:
            return None
        return await self.target.open_room(platform, parent_channel_id, title)

    async def close_room(self, platform: str, channel_id: str) -> None:
        """Close a room through the adapter (see `Rooms.close_room`); nothing without one."""
        if self.target is not None:
            await self.target.close_room(platform, channel_id)
