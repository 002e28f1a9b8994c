"""What a community's limits count (docs/storage.md, "Community limits"): its open tables that
play no tournament, and its tournaments still registering or running. Both read the open rows
only, through the `status` indexes of `tables` and `tournaments`."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from storage import tables as table_ops
from storage.models import tables, tournaments
from storage.records import TableRecord
from storage.tournaments import LIVE


def _open_in(platform: str, community: str) -> sa.ColumnElement[bool]:
    return sa.and_(
        tables.c.status == "open",
        tables.c.platform == platform,
        tables.c.community == community,
        tables.c.tournament_id.is_(None),
    )


async def open_tables(conn: AsyncConnection, platform: str, community: str) -> list[TableRecord]:
    """The community's open tables outside tournaments, by id."""
    stmt = sa.select(tables).where(_open_in(platform, community)).order_by(tables.c.id)
    return [table_ops.table_record(row) for row in await conn.execute(stmt)]


async def open_count(conn: AsyncConnection, platform: str, community: str) -> int:
    """How many open tables the community has outside tournaments (no snapshot read)."""
    stmt = sa.select(sa.func.count()).where(_open_in(platform, community))
    return int(await conn.scalar(stmt) or 0)


async def live_tournaments(conn: AsyncConnection, platform: str, community: str) -> int:
    """How many of the community's tournaments are registering or running."""
    stmt = sa.select(sa.func.count()).where(
        tournaments.c.status.in_(LIVE),
        tournaments.c.platform == platform,
        tournaments.c.community == community,
    )
    return int(await conn.scalar(stmt) or 0)
