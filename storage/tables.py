"""Table rows, the action log, results, Okey penalties and shuffle seeds (inside a transaction).

Writes are synchronous SQLAlchemy Core (``*_sync``, run whole by ``Writer.run_sync`` inside one
transaction); the async functions are the timers' claim and re-arm and the unknown-player
look-up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from storage.errors import InvalidRequest, NotFound, StaleVersion, TableClosed
from storage.models import (
    action_log,
    game_results,
    hand_seeds,
    ledger,
    okey_penalties,
    players,
    tables,
)
from storage.records import (
    ActionEntry,
    ActionRecord,
    GameResult,
    PenaltyEntry,
    SeedRecord,
    TableHead,
    TableRecord,
    escrow,
)
from storage.sql import aware, upsert
from storage.tallies import record_tallies


def table_record(row: Any) -> TableRecord:
    """A TableRecord from a ``tables`` row."""
    return TableRecord(
        id=row.id,
        platform=row.platform,
        channel_id=row.channel_id,
        game=row.game,
        options=dict(row.options),
        status=row.status,
        snapshot=dict(row.snapshot),
        version=row.version,
        community=row.community,
    )


def table_head(row: Any) -> TableHead:
    """A TableHead from a ``tables`` row (or a select of its head columns)."""
    return TableHead(
        id=row.id,
        platform=row.platform,
        channel_id=row.channel_id,
        game=row.game,
        status=row.status,
        version=row.version,
        community=row.community,
    )


HEAD_COLUMNS = (
    tables.c.id,
    tables.c.platform,
    tables.c.channel_id,
    tables.c.game,
    tables.c.status,
    tables.c.version,
    tables.c.community,
)


async def claim_due(
    conn: AsyncConnection,
    now: datetime,
    until: datetime,
    platforms: Sequence[str] | None,
    limit: int,
) -> list[TableHead]:
    """Select open tables due at ``now`` (earliest first, locked and skipping rows locked by
    another claim on PostgreSQL) and move their deadline to ``until``; their heads."""
    stmt = (
        sa.select(*HEAD_COLUMNS)
        .where(tables.c.status == "open", tables.c.deadline <= now)
        .order_by(tables.c.deadline, tables.c.id)
        .limit(limit)
    )
    if platforms is not None:
        stmt = stmt.where(tables.c.platform.in_(list(platforms)))
    if conn.dialect.name == "postgresql":
        stmt = stmt.with_for_update(skip_locked=True)
    heads = [table_head(row) for row in await conn.execute(stmt)]
    if heads:
        await conn.execute(
            sa.update(tables).where(tables.c.id.in_([h.id for h in heads])).values(deadline=until)
        )
    return heads


async def rearm(
    conn: AsyncConnection, table_id: int, version: int, deadline: datetime | None
) -> bool:
    """Set the deadline of the open table at ``version``; False when it moved on or closed."""
    stmt = (
        sa.update(tables)
        .where(
            tables.c.id == table_id,
            tables.c.version == version,
            tables.c.status == "open",
        )
        .values(deadline=deadline)
        .returning(tables.c.id)
    )
    return (await conn.execute(stmt)).first() is not None


def action_record(row: Any) -> ActionRecord:
    """An ActionRecord from an ``action_log`` row."""
    return ActionRecord(
        table_id=row.table_id,
        seq=row.seq,
        seat=row.seat,
        player_id=row.player_id,
        action=dict(row.action),
        at=aware(row.at),
    )


def lock_table_sync(conn: sa.Connection, table_id: int) -> Any:
    """The table row, locked for this transaction; NotFound when there is none."""
    row = conn.execute(_LOCK_TABLE, {"table_id": table_id}).first()
    if row is None:
        raise NotFound(f"no table with id {table_id}")
    return row


# Built once: the compiled-statement cache then only has to look their keys up.
_LOCK_TABLE = sa.select(tables).where(tables.c.id == sa.bindparam("table_id")).with_for_update()
_TABLE_STATE = sa.select(tables.c.version, tables.c.status).where(
    tables.c.id == sa.bindparam("table_id")
)
_APPEND_ACTION = action_log.insert()
_INSERT_RESULTS = game_results.insert()
_SEED = sa.select(hand_seeds).where(hand_seeds.c.hand_id == sa.bindparam("hand_id"))
_LOCK_SEED = _SEED.with_for_update()
_INSERT_SEED = hand_seeds.insert()
_REVEAL_SEED = (
    sa.update(hand_seeds)
    .where(hand_seeds.c.hand_id == sa.bindparam("hand"))
    .values(seed_hex=sa.bindparam("new_seed_hex"), revealed_at=sa.bindparam("new_revealed_at"))
)


def _advance_statement(with_snapshot: bool, with_status: bool) -> sa.Update:
    values: dict[str, Any] = {
        "version": tables.c.version + 1,
        "last_seq": tables.c.last_seq + sa.bindparam("log_entries"),
        "updated_at": sa.bindparam("now"),
        "deadline": sa.bindparam("new_deadline", type_=tables.c.deadline.type),
    }
    if with_snapshot:
        values["snapshot"] = sa.bindparam("new_snapshot", type_=tables.c.snapshot.type)
    if with_status:
        values["status"] = sa.bindparam("new_status", type_=tables.c.status.type)
    return (
        sa.update(tables)
        .where(
            tables.c.id == sa.bindparam("table_id"),
            tables.c.version == sa.bindparam("expected_version"),
            tables.c.status == "open",
        )
        .values(**values)
        .returning(tables.c.version, tables.c.last_seq, tables.c.community)
    )


_ADVANCE = {(a, b): _advance_statement(a, b) for a in (False, True) for b in (False, True)}


def advance_sync(
    conn: sa.Connection,
    table_id: int,
    expected_version: int,
    snapshot: dict[str, Any] | None,
    status: str | None,
    log_entries: int,
    now: datetime,
    deadline: datetime | None = None,
) -> tuple[int, int, str | None]:
    """Compare-and-set the table's version; return (new version, last action sequence number,
    the table's community).
    The table's ``deadline`` (when its timer is next due, UTC; None: no timer) is written with it.

    Raises NotFound, TableClosed or StaleVersion (in that order of checking) and writes nothing
    when the table is missing, closed or at another version.
    """
    params: dict[str, Any] = {
        "table_id": table_id,
        "expected_version": expected_version,
        "log_entries": log_entries,
        "now": now,
        "new_deadline": deadline,
    }
    if snapshot is not None:
        params["new_snapshot"] = snapshot
    if status is not None:
        params["new_status"] = status
    stmt = _ADVANCE[snapshot is not None, status is not None]
    row = conn.execute(stmt, params).first()
    if row is not None:
        return row.version, row.last_seq, row.community
    current = conn.execute(_TABLE_STATE, {"table_id": table_id}).first()
    if current is None:
        raise NotFound(f"no table with id {table_id}")
    if current.status != "open":
        raise TableClosed(table_id)
    raise StaleVersion(table_id, expected_version, current.version)


def append_action_sync(conn: sa.Connection, table_id: int, seq: int, entry: ActionEntry) -> None:
    """Append one action log entry with sequence number ``seq``."""
    conn.execute(
        _APPEND_ACTION,
        {
            "table_id": table_id,
            "seq": seq,
            "seat": entry.seat,
            "player_id": entry.player_id,
            "action": entry.action,
            "at": entry.at,
        },
    )


def check_players_exist_sync(conn: sa.Connection, ids: Iterable[int]) -> None:
    """Raise NotFound naming the smallest id in ``ids`` that is not a player."""
    wanted = set(ids)
    if not wanted:
        return
    found: set[int] = set(
        conn.scalars(sa.select(players.c.id).where(players.c.id.in_(wanted))).all()
    )
    if wanted - found:
        raise NotFound(f"no player with id {min(wanted - found)}")


async def check_players_exist(conn: AsyncConnection, ids: Iterable[int]) -> None:
    """``check_players_exist_sync`` on an async connection."""
    await conn.run_sync(check_players_exist_sync, list(ids))


def record_results(
    conn: sa.Connection,
    table_id: int,
    results: Sequence[GameResult],
    now: datetime,
    community: str | None = None,
) -> None:
    """Insert game result rows, in the table's ``community``, and add them to the win and 101
    tallies (``storage/tallies.py``, the same transaction)."""
    if results:
        conn.execute(
            _INSERT_RESULTS,
            [
                {
                    "table_id": table_id,
                    "player_id": r.player_id,
                    "game": r.game,
                    "chips_delta": r.chips_delta,
                    "hand_id": r.hand_id,
                    "detail": dict(r.detail),
                    "at": now,
                    "community": community,
                }
                for r in results
            ],
        )
        record_tallies(conn, results, community)


def record_penalties(
    conn: sa.Connection,
    table_id: int,
    penalties: Sequence[PenaltyEntry],
    now: datetime,
    community: str | None = None,
) -> None:
    """Upsert each player's penalty total for a match (a later total replaces an earlier one),
    in the table's ``community``."""
    for p in penalties:
        stmt = upsert(conn, okey_penalties).values(
            player_id=p.player_id,
            match_id=p.match_id,
            table_id=table_id,
            points=p.points,
            updated_at=now,
            community=community,
        )
        stmt = stmt.on_conflict_do_update(
            index_elements=["player_id", "match_id"],
            set_={"points": stmt.excluded.points, "updated_at": stmt.excluded.updated_at},
        )
        conn.execute(stmt)


def record_seeds(
    conn: sa.Connection, seeds: Sequence[SeedRecord], now: datetime, deal_seq: int | None = None
) -> None:
    """Store each hand's seed hash, and its seed once revealed; a hash never changes.
    `deal_seq`: the action log entry of this step, kept with a new hash (the step that dealt the
    hand) so that `/replay` reads the hand's entries by key (migration 0007)."""
    for seed in seeds:
        row = conn.execute(_LOCK_SEED, {"hand_id": seed.hand_id}).first()
        if row is None:
            conn.execute(
                _INSERT_SEED,
                {
                    "hand_id": seed.hand_id,
                    "table_id": seed.table_id,
                    "seed_hash": seed.seed_hash.lower(),
                    "seed_hex": seed.seed_hex.lower() if seed.seed_hex else None,
                    "created_at": now,
                    "revealed_at": now if seed.seed_hex else None,
                    "deal_seq": deal_seq,
                },
            )
            continue
        if row.table_id != seed.table_id or row.seed_hash != seed.seed_hash.lower():
            raise InvalidRequest(f"hand {seed.hand_id} already has another table or seed hash")
        if seed.seed_hex is None or row.seed_hex == seed.seed_hex.lower():
            continue
        if row.seed_hex is not None:
            raise InvalidRequest(f"hand {seed.hand_id} already has its seed revealed")
        conn.execute(
            _REVEAL_SEED,
            {"hand": seed.hand_id, "new_seed_hex": seed.seed_hex.lower(), "new_revealed_at": now},
        )


def seed_record(row: Any) -> SeedRecord:
    """A SeedRecord from a ``hand_seeds`` row."""
    return SeedRecord(
        hand_id=row.hand_id, table_id=row.table_id, seed_hash=row.seed_hash, seed_hex=row.seed_hex
    )


def net_deposits(conn: sa.Connection, table_id: int) -> dict[int, int]:
    """Each player's chips moved into the table's escrow minus those moved back out."""
    account = escrow(table_id)
    deposits: dict[int, int] = {}
    stmt: sa.Select[str, str, int] = (
        sa.select(ledger.c.src, ledger.c.dst, sa.func.sum(ledger.c.amount))
        .where(
            sa.or_(
                sa.and_(ledger.c.dst == account, ledger.c.src.like("player:%")),
                sa.and_(ledger.c.src == account, ledger.c.dst.like("player:%")),
            )
        )
        .group_by(ledger.c.src, ledger.c.dst)
    )
    for src, dst, total in conn.execute(stmt):
        if dst == account:
            player, sign = int(src.split(":")[1]), 1
        else:
            player, sign = int(dst.split(":")[1]), -1
        deposits[player] = deposits.get(player, 0) + sign * int(total)
    return deposits


def scaled_refunds(deposits: Mapping[int, int], escrow_balance: int) -> dict[int, int]:
    """Split ``escrow_balance`` in proportion to each player's positive net deposit.

    Shares are rounded down and the chips left over go one each to the largest remainders
    (ties: lower player id), so the refunds add up to the escrow exactly.
    """
    positive = {p: d for p, d in deposits.items() if d > 0}
    total = sum(positive.values())
    if total == 0 or escrow_balance <= 0:
        return {}
    shares = {p: d * escrow_balance // total for p, d in positive.items()}
    left = escrow_balance - sum(shares.values())
    order = sorted(positive, key=lambda p: (-(positive[p] * escrow_balance % total), p))
    for player in order[:left]:
        shares[player] += 1
    return {p: s for p, s in sorted(shares.items()) if s > 0}
