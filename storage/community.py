"""What a community's limits count (docs/storage.md, "Community limits"): its open tables that
play no tournament, and its tournaments still registering or running. Both read the open rows
only, through the `status` indexes of `tables` and `tournaments`.

The checks (``check_*_sync``) run inside the transaction that opens the table or tournament, or
seats the computer player, after a lock that serialises them per community: on PostgreSQL an
advisory lock held to the end of the transaction, so two processes cannot both pass the last
free place; on SQLite the one writer (``BEGIN IMMEDIATE``) does it already.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from storage import tables as table_ops
from storage.errors import CommunityFull
from storage.models import tables, tournaments
from storage.records import TableRecord
from storage.tournaments import LIVE

# The first key of the two-key advisory locks taken here (the migrations' one-key lock is apart).
PG_COMMUNITY_LOCK_SPACE = 1_701_867_885


@dataclass(frozen=True)
class ComputerLimit:
    """At most ``most`` computer players over a community's open tables outside tournaments;
    ``seated(snapshot)`` counts them at one table (the core knows its snapshots' shape)."""

    most: int
    seated: Callable[[dict[str, Any]], int]


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


def _open_count(platform: str, community: str) -> sa.Select[int]:
    return sa.select(sa.func.count()).where(_open_in(platform, community))


def _live_count(platform: str, community: str) -> sa.Select[int]:
    return sa.select(sa.func.count()).where(
        tournaments.c.status.in_(LIVE),
        tournaments.c.platform == platform,
        tournaments.c.community == community,
    )


async def open_count(conn: AsyncConnection, platform: str, community: str) -> int:
    """How many open tables the community has outside tournaments (no snapshot read)."""
    return int(await conn.scalar(_open_count(platform, community)) or 0)


async def live_tournaments(conn: AsyncConnection, platform: str, community: str) -> int:
    """How many of the community's tournaments are registering or running."""
    return int(await conn.scalar(_live_count(platform, community)) or 0)


def lock_sync(conn: sa.Connection, platform: str, community: str) -> None:
    """Wait for, and hold to the end of the transaction, the community's limit lock
    (PostgreSQL; nothing on SQLite, whose one writer already serialises)."""
    if conn.dialect.name == "postgresql":
        conn.execute(
            sa.text(f"SELECT pg_advisory_xact_lock({PG_COMMUNITY_LOCK_SPACE}, hashtext(:key))"),
            {"key": f"{platform}:{community}"},
        )


def check_tables_sync(conn: sa.Connection, platform: str, community: str, most: int) -> None:
    """Refuse (CommunityFull) one more open table when the community has ``most`` already."""
    lock_sync(conn, platform, community)
    if int(conn.scalar(_open_count(platform, community)) or 0) >= most:
        raise CommunityFull(community, "tables", most)


def check_tournaments_sync(conn: sa.Connection, platform: str, community: str, most: int) -> None:
    """Refuse (CommunityFull) one more tournament when the community has ``most`` live."""
    lock_sync(conn, platform, community)
    if int(conn.scalar(_live_count(platform, community)) or 0) >= most:
        raise CommunityFull(community, "tournaments", most)


def check_computers_sync(conn: sa.Connection, table_id: int, limit: ComputerLimit) -> None:
    """After the table's new snapshot is written in this transaction: refuse (CommunityFull)
    when its community's open tables outside tournaments now seat more computer players than
    ``limit`` allows. Nothing is counted for a table of no community or of a tournament."""
    row = conn.execute(
        sa.select(tables.c.platform, tables.c.community, tables.c.tournament_id).where(
            tables.c.id == table_id
        )
    ).one()
    if row.community is None or row.tournament_id is not None:
        return
    lock_sync(conn, row.platform, row.community)
    stmt = sa.select(tables.c.snapshot).where(_open_in(row.platform, row.community))
    snapshots: list[dict[str, Any]] = list(conn.scalars(stmt))
    if sum(limit.seated(snapshot) for snapshot in snapshots) > limit.most:
        raise CommunityFull(row.community, "computers", limit.most)
