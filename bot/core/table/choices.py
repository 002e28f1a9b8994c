"""Which shared room a user opened the Discord Activity on: a tournament table playing in a
shared room (`<channel>#<label>`, `rooms.py`) has its own "Open the table" button, and the press
is kept in the store (`Store.choose_room`, for an hour) so that the web table's sign-in, on
whichever process it lands, shows that room's table instead of the channel's own.

A choice is only ever a shared room of the channel it was made in (anything else is not kept);
the sign-in checks it again against the open tables. A store that fails is logged and the
viewer gets the channel's own table: a choice is not worth failing a launch or a sign-in over.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.core.table.rooms import is_shared_room, parent_of
from bot.logs import kv
from storage import StorageError

if TYPE_CHECKING:
    from storage import Store

log = logging.getLogger("bot.core.choices")


class RoomChoices:
    """Keeps and reads users' room choices in the store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def choose(self, platform: str, user_id: str, channel_id: str, room: str | None) -> None:
        """Keep `room` as the user's choice in `channel_id` (None: the channel's own table,
        which forgets an earlier choice); a room that is no shared room of that channel is not
        kept."""
        if room is not None and not (is_shared_room(room) and parent_of(room) == channel_id):
            log.info(kv(event="room_choice_ignored", channel=channel_id))
            return
        try:
            await self.store.choose_room(platform, channel_id, user_id, room)
        except StorageError as exc:
            log.warning(kv(event="room_choice_failed", error=type(exc).__name__))

    async def chosen(self, platform: str, user_id: str, channel_id: str) -> str | None:
        """The shared room the user chose in `channel_id` while the choice holds, else None."""
        try:
            return await self.store.chosen_room(platform, channel_id, user_id)
        except StorageError as exc:
            log.warning(kv(event="room_choice_unread", error=type(exc).__name__))
            return None
