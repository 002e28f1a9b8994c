"""The chip ledger: apply a batch of transfers atomically, and claim idempotency keys.

Every function here runs inside a write transaction opened by storage.db.Writer.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from storage.errors import InsufficientFunds, NotFound
from storage.models import applied_keys, ledger, players, tables, wallets
from storage.records import HOUSE, Transfer, parse_account
from storage.sql import upsert


async def claim_key(conn: AsyncConnection, key: str | None, now: datetime) -> bool:
    """Record ``key`` as applied; False when it already was (then the caller must write nothing)."""
    if key is None:
        return True
    stmt = (
        upsert(conn, applied_keys)
        .values(key=key, created_at=now)
        .on_conflict_do_nothing(index_elements=["key"])
        .returning(applied_keys.c.key)
    )
    return (await conn.execute(stmt)).first() is not None


async def key_result(conn: AsyncConnection, key: str) -> int | None:
    """The result (a table version) stored with an applied key."""
    return await conn.scalar(sa.select(applied_keys.c.result).where(applied_keys.c.key == key))


async def set_key_result(conn: AsyncConnection, key: str | None, result: int) -> None:
    """Remember what applying ``key`` produced, so a repeat can answer the same."""
    if key is not None:
        await conn.execute(
            sa.update(applied_keys).where(applied_keys.c.key == key).values(result=result)
        )


def net_changes(transfers: Iterable[Transfer]) -> dict[str, int]:
    """The change of each account's balance when all ``transfers`` are applied."""
    deltas: dict[str, int] = defaultdict(int)
    for transfer in transfers:
        deltas[transfer.src] -= transfer.amount
        deltas[transfer.dst] += transfer.amount
    return dict(deltas)


async def lock_wallets(
    conn: AsyncConnection, accounts: Iterable[str], now: datetime
) -> dict[str, int]:
    """Lock the wallet rows of ``accounts`` (creating missing ones) and return their balances.

    Rows are locked in account-name order so concurrent batches on PostgreSQL never deadlock.
    A player or table that does not exist raises NotFound.
    """
    names = sorted(set(accounts))
    balances = await _select_for_update(conn, names)
    missing = [name for name in names if name not in balances]
    if missing:
        await _create_wallets(conn, missing, now)
        balances.update(await _select_for_update(conn, missing))
    return balances


async def _select_for_update(conn: AsyncConnection, names: list[str]) -> dict[str, int]:
    stmt = (
        sa.select(wallets.c.account, wallets.c.balance)
        .where(wallets.c.account.in_(names))
        .order_by(wallets.c.account)
        .with_for_update()
    )
    return {row.account: row.balance for row in await conn.execute(stmt)}


async def _create_wallets(conn: AsyncConnection, names: list[str], now: datetime) -> None:
    rows = []
    for name in names:
        kind, number = parse_account(name)
        rows.append(
            {
                "account": name,
                "player_id": number if kind == "player" else None,
                "table_id": number if kind == "table" else None,
                "balance": 0,
                "updated_at": now,
            }
        )
    await _check_owners_exist(conn, rows)
    for row in rows:  # one by one, in name order, so concurrent creators queue the same way
        stmt = (
            upsert(conn, wallets).values(**row).on_conflict_do_nothing(index_elements=["account"])
        )
        await conn.execute(stmt)


async def _check_owners_exist(conn: AsyncConnection, rows: list[dict]) -> None:
    for owner, column, key in (
        (players, players.c.id, "player_id"),
        (tables, tables.c.id, "table_id"),
    ):
        wanted = {row[key] for row in rows if row[key] is not None}
        if not wanted:
            continue
        found = set((await conn.scalars(sa.select(column).where(column.in_(wanted)))).all())
        if wanted - found:
            what = "player" if owner is players else "table"
            raise NotFound(f"no {what} with id {min(wanted - found)}")


async def apply_transfers(
    conn: AsyncConnection, transfers: Sequence[Transfer], now: datetime, key: str | None = None
) -> dict[str, int]:
    """Append ``transfers`` to the ledger and update the cached balances; return new balances.

    All or nothing: InsufficientFunds (checked on each account's net change) is raised inside
    the transaction, which the caller then rolls back. The transfers must already be validated.
    """
    if not transfers:
        return {}
    deltas = net_changes(transfers)
    if conn.dialect.name != "sqlite":
        # Row locks in a stable order; SQLite already holds the whole database (BEGIN IMMEDIATE).
        await lock_wallets(conn, deltas, now)
    after = await _add(conn, deltas, now)
    missing = [account for account in sorted(deltas) if account not in after]
    if missing:
        await _create_wallets(conn, missing, now)
        after.update(await _add(conn, {a: deltas[a] for a in missing}, now))
    for account in sorted(deltas):
        if account != HOUSE and after[account] < 0:
            raise InsufficientFunds(account, after[account] - deltas[account], -deltas[account])
    await conn.execute(
        ledger.insert(),
        [
            {
                "src": t.src,
                "dst": t.dst,
                "amount": t.amount,
                "reason": t.reason[:200],
                "idempotency_key": key,
                "created_at": now,
            }
            for t in transfers
        ],
    )
    return after


async def _add(conn: AsyncConnection, deltas: dict[str, int], now: datetime) -> dict[str, int]:
    """Add each delta to its wallet in one statement; returns the new balances of existing rows."""
    stmt = (
        sa.update(wallets)
        .where(wallets.c.account.in_(list(deltas)))
        .values(
            balance=wallets.c.balance + sa.case(deltas, value=wallets.c.account, else_=0),
            updated_at=now,
        )
        .returning(wallets.c.account, wallets.c.balance)
    )
    return {row.account: int(row.balance) for row in await conn.execute(stmt)}


async def balance(conn: AsyncConnection, account: str) -> int:
    """The cached balance of ``account`` (0 when it never held chips)."""
    value = await conn.scalar(sa.select(wallets.c.balance).where(wallets.c.account == account))
    return int(value or 0)


async def ledger_sums(conn: AsyncConnection) -> dict[str, int]:
    """Every account's balance recomputed from the ledger entries alone."""
    sums: dict[str, int] = defaultdict(int)
    for column, sign in ((ledger.c.dst, 1), (ledger.c.src, -1)):
        stmt = sa.select(column, sa.func.sum(ledger.c.amount)).group_by(column)
        for account, total in await conn.execute(stmt):
            sums[account] += sign * int(total)
    return dict(sums)
