"""What the web table keeps: the bot's own generated secrets (shared by every process) and each
Okey player's rack arrangement for the round being played."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from storage.models import rack_layouts, web_secrets
from storage.sql import upsert


async def ensure_secret(conn: AsyncConnection, name: str, value: str, now: datetime) -> str:
    """The secret stored under ``name``; ``value`` is stored first when there is none (the
    first process to get here wins, every other one reads the winner's)."""
    insert = upsert(conn, web_secrets).values(name=name, value=value, created_at=now)
    await conn.execute(insert.on_conflict_do_nothing(index_elements=["name"]))
    row = (
        await conn.execute(sa.select(web_secrets.c.value).where(web_secrets.c.name == name))
    ).one()
    return str(row.value)


async def get_layout(
    conn: AsyncConnection, table_id: int, player_id: int, hand_id: str
) -> list[Any] | None:
    """The player's stored rack slots for that round, or None."""
    row = (
        await conn.execute(
            sa.select(rack_layouts.c.slots, rack_layouts.c.hand_id).where(
                rack_layouts.c.table_id == table_id, rack_layouts.c.player_id == player_id
            )
        )
    ).one_or_none()
    if row is None or row.hand_id != hand_id:
        return None
    return list(row.slots)


async def put_layout(
    conn: AsyncConnection,
    table_id: int,
    player_id: int,
    hand_id: str,
    slots: list[Any],
    now: datetime,
) -> None:
    """Store the player's rack slots for that round (replacing any earlier round's)."""
    values = {"hand_id": hand_id, "slots": slots, "updated_at": now}
    insert = upsert(conn, rack_layouts).values(table_id=table_id, player_id=player_id, **values)
    await conn.execute(
        insert.on_conflict_do_update(index_elements=["table_id", "player_id"], set_=values)
    )
