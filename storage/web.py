"""What the web table keeps: the bot's own generated secrets (shared by every process), each
Okey player's rack arrangement for the round being played, and the shared room each user last
opened the Discord Activity on in a channel (`room_choices`, until it lapses)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from storage.models import rack_layouts, room_choices, web_secrets
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


def _choice_key(platform: str, channel_id: str, user_id: str) -> sa.ColumnElement[bool]:
    return sa.and_(
        room_choices.c.platform == platform,
        room_choices.c.channel_id == channel_id,
        room_choices.c.user_id == user_id,
    )


async def put_choice(
    conn: AsyncConnection,
    platform: str,
    channel_id: str,
    user_id: str,
    room: str | None,
    expires_at: datetime,
) -> None:
    """Keep `room` as the user's choice in the channel until `expires_at` (replacing an earlier
    one); None forgets the choice."""
    if room is None:
        await conn.execute(
            sa.delete(room_choices).where(_choice_key(platform, channel_id, user_id))
        )
        return
    values = {"room": room, "expires_at": expires_at}
    insert = upsert(conn, room_choices).values(
        platform=platform, channel_id=channel_id, user_id=user_id, **values
    )
    await conn.execute(
        insert.on_conflict_do_update(
            index_elements=["platform", "channel_id", "user_id"], set_=values
        )
    )


async def get_choice(
    conn: AsyncConnection, platform: str, channel_id: str, user_id: str, now: datetime
) -> str | None:
    """The user's chosen room in the channel, unless it lapsed by `now`."""
    found = await conn.execute(
        sa.select(room_choices.c.room).where(
            _choice_key(platform, channel_id, user_id), room_choices.c.expires_at > now
        )
    )
    return found.scalar_one_or_none()


async def prune_choices(conn: AsyncConnection, now: datetime, limit: int) -> int:
    """Delete at most `limit` choices that lapsed by `now` (on PostgreSQL skipping rows another
    transaction holds, so pruning processes never wait on each other); how many."""
    key = sa.tuple_(room_choices.c.platform, room_choices.c.channel_id, room_choices.c.user_id)
    lapsed = (
        sa.select(room_choices.c.platform, room_choices.c.channel_id, room_choices.c.user_id)
        .where(room_choices.c.expires_at <= now)
        .limit(limit)
    )
    if conn.dialect.name == "postgresql":
        lapsed = lapsed.with_for_update(skip_locked=True)
    done = await conn.execute(sa.delete(room_choices).where(key.in_(lapsed)))
    return done.rowcount
