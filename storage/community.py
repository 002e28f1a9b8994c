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


async def open_tables(conn: AsyncConnection, platform: str, community: str) -> list[TableRecord]:
    """The community's open tables outside tournaments, by id."""
    stmt = (
        sa.select(tables)
        .where(
            tables.c.status == "open",
            tables.c.platform == platform,
            tables.c.community == community,
            tables.c.tournament_id.is_(None),
        )
        .order_by(tables.c.id)
    )
    return [table_ops.table_record(row) for row in await conn.execute(stmt)]


async def live_tournaments(conn: AsyncConnection, platform: str, community: str) -> int:
    """How many of the community's tournaments are registering or running."""
    stmt = sa.select(sa.func.count()).where(
        tournaments.c.status.in_(LIVE),
        tournaments.c.platform == platform,
        tournaments.c.community == community,
    )
    return int(await conn.scalar(stmt) or 0)
