"""Opening a table in a channel: one open table per channel, kept by a unique index.

The insert first looks for the channel's open table (ChannelBusy names it); when another writer
opened one between that look and the insert, the unique index refuses the insert and the channel
is read again: still busy is ChannelBusy, free again (that table closed meanwhile) is retried.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from storage import community as community_ops
from storage import tables as table_ops
from storage.db import Writer
from storage.errors import ChannelBusy
from storage.models import tables
from storage.records import TableRecord

CREATE_TABLE_ATTEMPTS = 3  # a channel whose racing table closes at once is retried


_OPEN_ID = sa.select(tables.c.id).where(
    tables.c.platform == sa.bindparam("platform"),
    tables.c.channel_id == sa.bindparam("channel"),
    tables.c.status == "open",
)
_INSERT = tables.insert().returning(*tables.c)


async def open_table_id(conn: AsyncConnection, platform: str, channel: str) -> int | None:
    """The id of the channel's open table, or None."""
    return await conn.scalar(_OPEN_ID, {"platform": platform, "channel": channel})


def open_table_id_sync(conn: sa.Connection, platform: str, channel: str) -> int | None:
    """``open_table_id`` inside a write transaction (``Writer.run_sync``)."""
    return conn.scalar(_OPEN_ID, {"platform": platform, "channel": channel})


async def create_table(
    writer: Writer,
    platform: str,
    channel: str,
    game: str,
    options: dict[str, Any],
    snapshot: dict[str, Any],
    *,
    deadline: datetime | None,
    community: str | None,
    tournament: int | None,
    max_open: int,
    now: datetime,
) -> TableRecord:
    """Insert the channel's new open table at version 1 (arguments already checked);
    ChannelBusy when the channel has an open table, CommunityFull when ``max_open`` (0: no
    limit) open tables of ``community`` are counted in the transaction."""

    row = {
        "platform": platform,
        "channel_id": channel,
        "game": game,
        "options": options,
        "status": "open",
        "snapshot": snapshot,
        "version": 1,
        "last_seq": 0,
        "created_at": now,
        "updated_at": now,
        "deadline": deadline,
        "community": community,
        "tournament_id": tournament,
    }

    def work(conn: sa.Connection) -> TableRecord:  # one hop to the writer thread on SQLite
        existing = open_table_id_sync(conn, platform, channel)
        if existing is not None:
            raise ChannelBusy(platform, channel, existing)
        if max_open and community is not None:
            community_ops.check_tables_sync(conn, platform, community, max_open)
        return table_ops.table_record(conn.execute(_INSERT, row).one())

    attempts_left = CREATE_TABLE_ATTEMPTS
    while True:
        try:
            return await writer.run_sync(work)
        except IntegrityError:
            # Another writer opened a table in this channel at the same moment. If that table
            # is already closed again, the channel is free: try once more.
            existing = await writer.reading(lambda conn: open_table_id(conn, platform, channel))
            if existing is not None:
                raise ChannelBusy(platform, channel, existing) from None
            attempts_left -= 1
            if attempts_left == 0:
                raise
