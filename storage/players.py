"""Player rows: get-or-create by platform user id, look-ups, the chosen language and tile style."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from storage.errors import NotFound
from storage.models import players
from storage.records import PlayerRecord
from storage.sql import upsert


def player_record(row: Any) -> PlayerRecord:
    """A PlayerRecord from a ``players`` row."""
    return PlayerRecord(
        id=row.id,
        platform=row.platform,
        user_id=row.user_id,
        name=row.name,
        locale=row.locale,
        tile_symbols=bool(row.tile_symbols),
    )


async def get_or_create(
    conn: AsyncConnection,
    platform: str,
    user_id: str,
    name: str,
    locale: str | None,
    now: datetime,
) -> PlayerRecord:
    """The player, created when new; the name is updated, ``locale`` set only if none yet."""
    stmt = upsert(conn, players).values(
        platform=platform, user_id=user_id, name=name, locale=locale, created_at=now
    )
    stmt = stmt.on_conflict_do_update(
        index_elements=["platform", "user_id"],
        set_={
            "name": stmt.excluded.name,
            "locale": sa.func.coalesce(players.c.locale, stmt.excluded.locale),
        },
    ).returning(*players.c)
    return player_record((await conn.execute(stmt)).one())


async def get(conn: AsyncConnection, player_id: int) -> PlayerRecord:
    """The player with this id; NotFound if there is none."""
    row = (await conn.execute(sa.select(players).where(players.c.id == player_id))).first()
    if row is None:
        raise NotFound(f"no player with id {player_id}")
    return player_record(row)


async def find(conn: AsyncConnection, platform: str, user_id: str) -> PlayerRecord | None:
    """The player known by this platform user id, or None."""
    query = sa.select(players).where(players.c.platform == platform, players.c.user_id == user_id)
    row = (await conn.execute(query)).first()
    return None if row is None else player_record(row)


async def set_locale(conn: AsyncConnection, player_id: int, locale: str | None) -> None:
    """Set (or with None, clear) the player's language; NotFound if there is no such player."""
    stmt = (
        sa.update(players)
        .where(players.c.id == player_id)
        .values(locale=locale)
        .returning(players.c.id)
    )
    if (await conn.execute(stmt)).first() is None:
        raise NotFound(f"no player with id {player_id}")


async def set_tile_symbols(conn: AsyncConnection, player_id: int, symbols: bool) -> None:
    """Set whether the player's tiles carry a shape per colour; NotFound if there is no such
    player."""
    stmt = (
        sa.update(players)
        .where(players.c.id == player_id)
        .values(tile_symbols=symbols)
        .returning(players.c.id)
    )
    if (await conn.execute(stmt)).first() is None:
        raise NotFound(f"no player with id {player_id}")
