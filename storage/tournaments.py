"""Tournament rows: create, read and compare-and-set commits with their ledger transfers.

A tournament's commit is like a table's: the version moves on by one only from the expected
version, and the snapshot, status and the fee transfers (wallets <-> ``tournament:<id>``) are
written in the same transaction, so a fee is never paid or refunded twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from storage import ledger as ledger_ops
from storage.errors import NotFound, StaleVersion, TournamentOver
from storage.models import tournaments
from storage.records import TournamentRecord, Transfer
from storage.sql import aware

LIVE = ("registering", "running")  # a tournament in one of these still changes


def tournament_record(row: Any) -> TournamentRecord:
    """A TournamentRecord from a ``tournaments`` row."""
    return TournamentRecord(
        id=row.id,
        platform=row.platform,
        channel_id=row.channel_id,
        community=row.community,
        kind=row.kind,
        status=row.status,
        snapshot=dict(row.snapshot),
        version=row.version,
        deadline=None if row.deadline is None else aware(row.deadline),
    )


def insert_sync(
    conn: sa.Connection,
    values: dict[str, Any],
    transfers: Sequence[Transfer],
    now: datetime,
) -> TournamentRecord:
    """Insert a tournament at version 1 and apply ``transfers`` (they may name its escrow only
    through the id returned, so the caller builds them after; none at creation)."""
    row = conn.execute(
        tournaments.insert()
        .values(**values, version=1, created_at=now, updated_at=now)
        .returning(*tournaments.c)
    ).one()
    ledger_ops.apply_transfers_sync(conn, transfers, now)
    return tournament_record(row)


def advance_sync(
    conn: sa.Connection,
    tournament_id: int,
    expected_version: int,
    snapshot: dict[str, Any],
    status: str | None,
    deadline: datetime | None,
    transfers: Sequence[Transfer],
    now: datetime,
) -> int:
    """Compare-and-set the version, write the snapshot (and status, deadline), apply the
    transfers; NotFound, TournamentOver or StaleVersion (nothing written) otherwise."""
    values: dict[str, Any] = {
        "version": tournaments.c.version + 1,
        "snapshot": snapshot,
        "deadline": deadline,
        "updated_at": now,
    }
    if status is not None:
        values["status"] = status
    row = conn.execute(
        sa.update(tournaments)
        .where(
            tournaments.c.id == tournament_id,
            tournaments.c.version == expected_version,
            tournaments.c.status.in_(LIVE),
        )
        .values(**values)
        .returning(tournaments.c.version)
    ).first()
    if row is None:
        current = conn.execute(
            sa.select(tournaments.c.version, tournaments.c.status).where(
                tournaments.c.id == tournament_id
            )
        ).first()
        if current is None:
            raise NotFound(f"no tournament with id {tournament_id}")
        if current.status not in LIVE:
            raise TournamentOver(tournament_id)
        raise StaleVersion(tournament_id, expected_version, current.version)
    ledger_ops.apply_transfers_sync(conn, transfers, now)
    return int(row.version)


async def get(conn: AsyncConnection, tournament_id: int) -> TournamentRecord:
    """The tournament with this id (in any status); NotFound if there is none."""
    stmt = sa.select(tournaments).where(tournaments.c.id == tournament_id)
    row = (await conn.execute(stmt)).first()
    if row is None:
        raise NotFound(f"no tournament with id {tournament_id}")
    return tournament_record(row)


async def live_in_channel(
    conn: AsyncConnection, platform: str, channel_id: str
) -> TournamentRecord | None:
    """The newest tournament of a channel that is still registering or running, or None."""
    stmt = (
        sa.select(tournaments)
        .where(
            tournaments.c.platform == platform,
            tournaments.c.channel_id == channel_id,
            tournaments.c.status.in_(LIVE),
        )
        .order_by(tournaments.c.id.desc())
        .limit(1)
    )
    row = (await conn.execute(stmt)).first()
    return None if row is None else tournament_record(row)


async def live(conn: AsyncConnection) -> list[TournamentRecord]:
    """Every tournament still registering or running, by id."""
    stmt = sa.select(tournaments).where(tournaments.c.status.in_(LIVE)).order_by(tournaments.c.id)
    return [tournament_record(row) for row in await conn.execute(stmt)]


async def due(conn: AsyncConnection, now: datetime | None) -> list[TournamentRecord]:
    """The tournaments still registering whose start time is at or before ``now``, earliest
    first."""
    stmt = (
        sa.select(tournaments)
        .where(
            tournaments.c.status == "registering",
            tournaments.c.deadline.is_not(None),
            tournaments.c.deadline <= now,
        )
        .order_by(tournaments.c.deadline, tournaments.c.id)
    )
    return [tournament_record(row) for row in await conn.execute(stmt)]
