"""Table messages ("surfaces"): which chat message shows a table, shared by every bot process.

A chat adapter remembers the message it edits for a table; with several processes the next move
may be delivered by a process that never saw that message, so the record lives here. The write
is a compare-and-set on the table version the message showed when it was posted: a process that
posted an older state never replaces the record of a newer one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from storage.models import table_messages
from storage.sql import aware, upsert


@dataclass(frozen=True)
class TableSurface:
    """The message showing a table on one platform, and the table version it showed when posted
    (``picture``: the message carries a picture, so its text is a caption)."""

    platform: str
    table_id: str
    chat_id: str
    message_id: str
    version: int
    picture: bool
    updated_at: datetime


@dataclass(frozen=True)
class SurfaceWrite:
    """The outcome of ``Store.put_table_message``: whether the new record was written, and the
    record that was there before (replaced when written; when not, the newer one that stays)."""

    written: bool
    other: TableSurface | None


def surface_record(row: Any) -> TableSurface:
    """A ``table_messages`` row as a record."""
    return TableSurface(
        platform=row.platform,
        table_id=row.table_id,
        chat_id=row.chat_id,
        message_id=row.message_id,
        version=int(row.version),
        picture=bool(row.picture),
        updated_at=aware(row.updated_at),
    )


def _where(platform: str, table_id: str) -> Any:
    return sa.and_(table_messages.c.platform == platform, table_messages.c.table_id == table_id)


async def get_surface(conn: AsyncConnection, platform: str, table_id: str) -> TableSurface | None:
    """The stored record of the table's message, or None (one primary-key read)."""
    row = (await conn.execute(sa.select(table_messages).where(_where(platform, table_id)))).first()
    return None if row is None else surface_record(row)


async def put_surface(conn: AsyncConnection, new: TableSurface) -> SurfaceWrite:
    """Store ``new`` unless the stored record shows a newer version (equal versions replace: a
    table posted again without a new step). The row is locked first on PostgreSQL, so that a
    concurrent writer waits and then compares with what this one wrote."""
    where = _where(new.platform, new.table_id)
    row = (await conn.execute(sa.select(table_messages).where(where).with_for_update())).first()
    before = None if row is None else surface_record(row)
    values = {
        "platform": new.platform,
        "table_id": new.table_id,
        "chat_id": new.chat_id,
        "message_id": new.message_id,
        "version": new.version,
        "picture": new.picture,
        "updated_at": new.updated_at,
    }
    stmt = upsert(conn, table_messages).values(**values)
    stmt = stmt.on_conflict_do_update(
        index_elements=["platform", "table_id"],
        set_={k: getattr(stmt.excluded, k) for k in values if k not in ("platform", "table_id")},
        where=table_messages.c.version <= stmt.excluded.version,
    ).returning(table_messages.c.message_id)
    if (await conn.execute(stmt)).first() is not None:
        return SurfaceWrite(True, before)
    # a newer record stays (it may have been inserted after the read above, by a racing writer)
    return SurfaceWrite(False, await get_surface(conn, new.platform, new.table_id))
