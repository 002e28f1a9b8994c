"""The Store's table messages (which chat message shows a table, shared by every process) and
the web table's state: its shared secret, version notifications, Okey rack layouts and the
Discord Activity's room choices (``Store`` inherits them; docs/storage.md, docs/web.md)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from storage import surfaces as surface_ops
from storage import validators as check
from storage import web as web_ops
from storage.notify import listen_versions
from storage.store_base import StoreBase
from storage.surfaces import SurfaceWrite, TableSurface

ROOM_CHOICE_HOLD = timedelta(hours=1)  # a room choice lasts this long (page reloads included)
PRUNE_CHOICES = 500  # lapsed room choices deleted per write, at most


class StoreSurfaces(StoreBase):
    """Where each table is shown, and what the web table keeps between pages."""

    # -- table messages ----------------------------------------------------------------------

    async def table_message(self, platform: str, table_id: str | int) -> TableSurface | None:
        """The message that shows the table on ``platform`` as the processes last stored it,
        or None (one primary-key read; chat adapters call it when they do not know the message)."""
        platform = check.text(platform, "platform", 32)
        table = check.text(str(table_id), "table id", 64)
        return await self._writer.reading(
            lambda conn: surface_ops.get_surface(conn, platform, table)
        )

    async def put_table_message(
        self,
        platform: str,
        table_id: str | int,
        chat_id: str | int,
        message_id: str | int,
        version: int,
        *,
        picture: bool = False,
    ) -> SurfaceWrite:
        """Record that the message ``message_id`` in ``chat_id`` now shows the table at
        ``version``; a compare-and-set: nothing is written when the stored record shows a newer
        version (an equal one is replaced). Returns whether it was written and the other record
        (the one replaced, or the newer one kept), so the caller can retire the message it names."""
        version = check.version(version)
        new = TableSurface(
            platform=check.text(platform, "platform", 32),
            table_id=check.text(str(table_id), "table id", 64),
            chat_id=check.text(str(chat_id), "chat id", 64),
            message_id=check.text(str(message_id), "message id", 64),
            version=version,
            picture=bool(picture),
            updated_at=self._clock(),
        )
        return await self._writer.run(lambda conn: surface_ops.put_surface(conn, new))

    # -- the web table ------------------------------------------------------------------------

    async def ping(self) -> None:
        """One trivial read; raises Unavailable when the database cannot be reached."""
        await self._writer.reading(lambda conn: conn.execute(sa.text("SELECT 1")))

    async def listen_versions(
        self, callback: Callable[[int, int], None]
    ) -> Callable[[], Awaitable[None]]:
        """Call ``callback(table_id, version)`` for every table version committed by any process
        (PostgreSQL LISTEN, ``storage.notify``); nothing on SQLite. Returns the stopper."""
        url = self.engine.url.render_as_string(hide_password=False)
        return await listen_versions(url, callback)

    async def shared_secret(self, name: str, candidate: str) -> str:
        """The secret every process shares under ``name``: ``candidate`` when none was stored
        yet (it is stored), else the stored one."""
        name = check.text(name, "secret name", 32)
        value = check.text(candidate, "secret", 128)
        now = self._clock()
        return await self._writer.run(lambda conn: web_ops.ensure_secret(conn, name, value, now))

    async def rack_layout(self, table_id: int, player_id: int, hand_id: str) -> list[Any] | None:
        """An Okey player's stored rack slots (web table) for that round, or None."""
        check.positive_int(table_id, "table id")
        check.positive_int(player_id, "player id")
        return await self._writer.reading(
            lambda conn: web_ops.get_layout(conn, table_id, player_id, hand_id)
        )

    async def put_rack_layout(
        self, table_id: int, player_id: int, hand_id: str, slots: Sequence[str | None]
    ) -> None:
        """Keep an Okey player's rack slots (web table) for that round."""
        check.positive_int(table_id, "table id")
        check.positive_int(player_id, "player id")
        hand = check.text(hand_id, "hand id", 64)
        values = [None if s is None else check.text(s, "tile", 4) for s in slots]
        now = self._clock()
        await self._writer.run(
            lambda conn: web_ops.put_layout(conn, table_id, player_id, hand, values, now)
        )

    async def choose_room(
        self,
        platform: str,
        channel_id: str,
        user_id: str,
        room: str | None,
        hold: timedelta = ROOM_CHOICE_HOLD,
    ) -> None:
        """Keep `room` as the shared room the user opened the Discord Activity on in the
        channel, for `hold` from now (None forgets the choice); every process reads it
        (`chosen_room`). When a room is kept, lapsed choices are deleted in the same
        transaction (a bounded batch), so the table holds about an hour's presses."""
        platform = check.text(platform, "platform", 32)
        channel = check.text(channel_id, "channel id", 64)
        user = check.text(user_id, "platform user id", 64)
        chosen = check.optional_text(room, "room", 64)
        now = self._clock()

        async def work(conn: AsyncConnection) -> None:
            await web_ops.put_choice(conn, platform, channel, user, chosen, now + hold)
            if chosen is not None:
                await web_ops.prune_choices(conn, now, PRUNE_CHOICES)

        await self._writer.run(work)

    async def chosen_room(self, platform: str, channel_id: str, user_id: str) -> str | None:
        """The shared room the user chose in the channel (`choose_room`) while it holds, else
        None."""
        platform = check.text(platform, "platform", 32)
        channel = check.text(channel_id, "channel id", 64)
        user = check.text(user_id, "platform user id", 64)
        now = self._clock()
        return await self._writer.reading(
            lambda conn: web_ops.get_choice(conn, platform, channel, user, now)
        )
