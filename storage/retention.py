"""Retention: a closed table's action log and snapshot go once it has been closed long enough.

What stays: the table row (its id, game, community, status, version and `pruned_at`), its
results (`game_results`, which `/history`, `/stats` and the boards read), Okey penalty totals,
win and 101 tallies, the ledger, the hands' seeds (`hand_seeds`, so `/verify` still shows a seed
and its hash) and, of the log, the closing entry alone (its time is `Store.closed_at`, from which
seeds are shown). The snapshot becomes `{"pruned": true, "hands": ...}`: only the last hands'
`/verify` entries the table kept (a bounded map) survive. `/replay` and `/export` of a pruned
hand answer that its moves are no longer kept.

`prune_sync` handles one batch in one write transaction: the oldest closed, unpruned tables
last changed before the cut-off (through `tables (status, updated_at)`), skipping tables of a
tournament still registering or running. On PostgreSQL the rows are locked `FOR UPDATE SKIP
LOCKED`, so processes pruning at once take different tables; on SQLite the one writer at a
time does the same. Pruning a table twice changes nothing (`pruned_at IS NULL` is re-checked).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa

from storage.models import action_log, tables, tournaments

LIVE_TOURNAMENT = ("registering", "running")


def due_tables(conn: sa.Connection, cutoff: datetime, limit: int) -> list[Any]:
    """The closed, unpruned tables last changed before `cutoff`, oldest first (locked, skipping
    rows another process holds, on PostgreSQL): id, last_seq and snapshot."""
    live = sa.select(tournaments.c.id).where(tournaments.c.status.in_(LIVE_TOURNAMENT))
    stmt = (
        sa.select(tables.c.id, tables.c.last_seq, tables.c.snapshot)
        .where(
            tables.c.status == "closed",
            tables.c.updated_at < cutoff,
            tables.c.pruned_at.is_(None),
            sa.or_(tables.c.tournament_id.is_(None), tables.c.tournament_id.not_in(live)),
        )
        .order_by(tables.c.updated_at, tables.c.id)
        .limit(limit)
    )
    if conn.dialect.name == "postgresql":
        stmt = stmt.with_for_update(of=tables, skip_locked=True)
    return list(conn.execute(stmt))


def stub(snapshot: dict[str, Any] | None) -> dict[str, Any]:
    """What stays of a pruned table's snapshot: the marker and its hands' `/verify` entries."""
    hands = (snapshot or {}).get("hands")
    return {"pruned": True, "hands": hands if isinstance(hands, dict) else {}}


def prune_sync(conn: sa.Connection, cutoff: datetime, now: datetime, limit: int) -> int:
    """Prune one batch of at most `limit` tables (see the module docstring); how many."""
    rows = due_tables(conn, cutoff, limit)
    for row in rows:
        conn.execute(
            sa.delete(action_log).where(
                action_log.c.table_id == row.id, action_log.c.seq < row.last_seq
            )
        )
        conn.execute(
            sa.update(tables)
            .where(tables.c.id == row.id, tables.c.pruned_at.is_(None))
            .values(snapshot=stub(row.snapshot), pruned_at=now)
        )
    return len(rows)
