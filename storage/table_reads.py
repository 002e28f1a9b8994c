"""Reading tables: a table by id or channel, the open ones, heads, the action log, seeds."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from storage import tables as table_ops
from storage.errors import NotFound
from storage.models import action_log, hand_seeds, tables
from storage.records import ActionRecord, SeedRecord, TableHead, TableRecord
from storage.sql import aware


def _open_in(platform: str, channel_id: str) -> sa.ColumnElement[bool]:
    return sa.and_(
        tables.c.platform == platform,
        tables.c.channel_id == channel_id,
        tables.c.status == "open",
    )


async def get_table(conn: AsyncConnection, table_id: int) -> TableRecord:
    """The table with this id (open or closed); NotFound if there is none."""
    row = (await conn.execute(sa.select(tables).where(tables.c.id == table_id))).first()
    if row is None:
        raise NotFound(f"no table with id {table_id}")
    return table_ops.table_record(row)


async def table_in_channel(
    conn: AsyncConnection, platform: str, channel_id: str
) -> TableRecord | None:
    """The open table of a channel, or None."""
    row = (await conn.execute(sa.select(tables).where(_open_in(platform, channel_id)))).first()
    return None if row is None else table_ops.table_record(row)


async def open_tables(conn: AsyncConnection) -> list[TableRecord]:
    """Every open table, by id."""
    stmt = sa.select(tables).where(tables.c.status == "open").order_by(tables.c.id)
    return [table_ops.table_record(row) for row in await conn.execute(stmt)]


async def tournament_tables(conn: AsyncConnection, tournament_id: int) -> list[TableRecord]:
    """Every table (open or closed) opened for the tournament, by id."""
    stmt = sa.select(tables).where(tables.c.tournament_id == tournament_id).order_by(tables.c.id)
    return [table_ops.table_record(row) for row in await conn.execute(stmt)]


async def table_head(conn: AsyncConnection, table_id: int) -> TableHead | None:
    """The head of the table with this id, or None."""
    stmt = sa.select(*table_ops.HEAD_COLUMNS).where(tables.c.id == table_id)
    row = (await conn.execute(stmt)).first()
    return None if row is None else table_ops.table_head(row)


async def channel_head(conn: AsyncConnection, platform: str, channel_id: str) -> TableHead | None:
    """The head of the channel's open table, or None."""
    stmt = sa.select(*table_ops.HEAD_COLUMNS).where(_open_in(platform, channel_id))
    row = (await conn.execute(stmt)).first()
    return None if row is None else table_ops.table_head(row)


async def actions(conn: AsyncConnection, table_id: int) -> list[ActionRecord]:
    """The table's action log in sequence order."""
    stmt = sa.select(action_log).where(action_log.c.table_id == table_id).order_by(action_log.c.seq)
    return [table_ops.action_record(row) for row in await conn.execute(stmt)]


async def seed(conn: AsyncConnection, hand_id: str) -> SeedRecord | None:
    """The fair-shuffle record of a hand, or None."""
    stmt = sa.select(hand_seeds).where(hand_seeds.c.hand_id == hand_id)
    row = (await conn.execute(stmt)).first()
    return None if row is None else table_ops.seed_record(row)


async def closed_at(conn: AsyncConnection, table_id: int) -> datetime | None:
    """When the table closed (the time of its last logged step, the closing one), or None while
    it is open or unknown."""
    status = sa.select(tables.c.status).where(tables.c.id == table_id)
    last = (
        sa.select(action_log.c.at)
        .where(action_log.c.table_id == table_id)
        .order_by(action_log.c.seq.desc())
        .limit(1)
    )
    if (await conn.execute(status)).scalar() != "closed":
        return None
    at = (await conn.execute(last)).scalar()
    return None if at is None else aware(at)


HAND_CHUNK = 200  # action log entries read at a time while looking for a hand's end


async def hand_actions(conn: AsyncConnection, table_id: int, hand_id: str) -> list[ActionRecord]:
    """The action log entries of one hand, in sequence order: from the entry that dealt it
    (`hand_seeds.deal_seq`) up to and including the next entry that deals, read by the
    `(table_id, seq)` key a chunk at a time. A hand of before migration 0007 (no `deal_seq`) or
    whose dealing entry is gone gets the table's whole log (the caller finds the hand in it);
    a table whose log was pruned gets what is left of it."""
    stmt = sa.select(hand_seeds.c.deal_seq).where(
        hand_seeds.c.hand_id == hand_id, hand_seeds.c.table_id == table_id
    )
    start = (await conn.execute(stmt)).scalar()
    if start is None:
        return await actions(conn, table_id)
    found: list[ActionRecord] = []
    while True:
        chunk = (
            sa.select(action_log)
            .where(
                action_log.c.table_id == table_id,
                action_log.c.seq >= start,
                action_log.c.seq < start + HAND_CHUNK,
            )
            .order_by(action_log.c.seq)
        )
        rows = [table_ops.action_record(row) for row in await conn.execute(chunk)]
        if not found and (not rows or rows[0].seq != start):
            return await actions(conn, table_id)  # the dealing entry is not where it should be
        for row in rows:
            found.append(row)
            if row.seq > found[0].seq and row.action.get("deals"):
                return found
        if len(rows) < HAND_CHUNK:
            return found
        start += HAND_CHUNK


async def pruned_at(conn: AsyncConnection, table_id: int) -> datetime | None:
    """When retention removed the table's action log and snapshot, or None."""
    stmt = sa.select(tables.c.pruned_at).where(tables.c.id == table_id)
    value = (await conn.execute(stmt)).scalar()
    return None if value is None else aware(value)
