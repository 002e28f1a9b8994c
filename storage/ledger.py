"""The chip ledger: apply a batch of transfers atomically, and claim idempotency keys.

Writes are synchronous SQLAlchemy Core (``*_sync``, run whole by ``Writer.run_sync`` inside one
transaction); the few async functions are reads on an ``AsyncConnection``.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from storage.errors import InsufficientFunds, NotFound
from storage.models import applied_keys, ledger, players, tables, tournaments, wallets
from storage.records import HOUSE_ACCOUNTS, Transfer, parse_account
from storage.sql import upsert


def claim_key_sync(conn: sa.Connection, key: str | None, now: datetime) -> bool:
    """Record ``key`` as applied; False when it already was (then the caller must write nothing)."""
    if key is None:
        return True
    stmt = (
        upsert(conn, applied_keys)
        .values(key=key, created_at=now)
        .on_conflict_do_nothing(index_elements=["key"])
        .returning(applied_keys.c.key)
    )
    return conn.execute(stmt).first() is not None


def key_result_sync(conn: sa.Connection, key: str) -> int | None:
    """The result (a table version) stored with an applied key."""
    return conn.scalar(_KEY_RESULT, {"key": key})


def set_key_result_sync(conn: sa.Connection, key: str | None, result: int) -> None:
    """Remember what applying ``key`` produced, so a repeat can answer the same."""
    if key is not None:
        conn.execute(_SET_KEY_RESULT, {"applied": key, "new_result": result})


def net_changes(transfers: Iterable[Transfer]) -> dict[str, int]:
    """The change of each account's balance when all ``transfers`` are applied."""
    deltas: dict[str, int] = defaultdict(int)
    for transfer in transfers:
        deltas[transfer.src] -= transfer.amount
        deltas[transfer.dst] += transfer.amount
    return dict(deltas)


def lock_wallets_sync(
    conn: sa.Connection, accounts: Iterable[str], now: datetime
) -> dict[str, int]:
    """Lock the wallet rows of ``accounts`` (creating missing ones) and return their balances.

    Rows are locked in account-name order so concurrent batches on PostgreSQL never deadlock.
    A player or table that does not exist raises NotFound.
    """
    names = sorted(set(accounts))
    balances = _select_for_update(conn, names)
    missing = [name for name in names if name not in balances]
    if missing:
        _create_wallets(conn, missing, now)
        balances.update(_select_for_update(conn, missing))
    return balances


# Built once: the compiled-statement cache then only has to look their keys up.
_KEY_RESULT = sa.select(applied_keys.c.result).where(applied_keys.c.key == sa.bindparam("key"))
_SET_KEY_RESULT = (
    sa.update(applied_keys)
    .where(applied_keys.c.key == sa.bindparam("applied"))
    .values(result=sa.bindparam("new_result"))
)
_LOCK_WALLETS = (
    sa.select(wallets.c.account, wallets.c.balance)
    .where(wallets.c.account.in_(sa.bindparam("names", expanding=True)))
    .order_by(wallets.c.account)
    .with_for_update()
)
_INSERT_LEDGER = ledger.insert()
_ADD_TO_BALANCE = (
    sa.update(wallets)
    .where(wallets.c.account == sa.bindparam("which"))
    .values(balance=wallets.c.balance + sa.bindparam("delta"), updated_at=sa.bindparam("now"))
)


def _select_for_update(conn: sa.Connection, names: list[str]) -> dict[str, int]:
    return {row.account: row.balance for row in conn.execute(_LOCK_WALLETS, {"names": names})}


def _create_wallets(conn: sa.Connection, names: list[str], now: datetime) -> None:
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
                "tournament": number if kind == "tournament" else None,
            }
        )
    _check_owners_exist(conn, rows)
    for row in rows:
        del row["tournament"]  # a tournament's wallet row names no owner column
    for row in rows:  # one by one, in name order, so concurrent creators queue the same way
        stmt = (
            upsert(conn, wallets).values(**row).on_conflict_do_nothing(index_elements=["account"])
        )
        conn.execute(stmt)


def _check_owners_exist(conn: sa.Connection, rows: list[dict[str, Any]]) -> None:
    for owner, column, key in (
        (players, players.c.id, "player_id"),
        (tables, tables.c.id, "table_id"),
        (tournaments, tournaments.c.id, "tournament"),
    ):
        wanted = {row[key] for row in rows if row[key] is not None}
        if not wanted:
            continue
        found: set[int] = set(conn.scalars(sa.select(column).where(column.in_(wanted))).all())
        if wanted - found:
            what = {players: "player", tables: "table"}.get(owner, "tournament")
            raise NotFound(f"no {what} with id {min(wanted - found)}")


def apply_transfers_sync(
    conn: sa.Connection, transfers: Sequence[Transfer], now: datetime, key: str | None = None
) -> dict[str, int]:
    """Append ``transfers`` to the ledger and update the cached balances; return new balances.

    All or nothing: InsufficientFunds (checked on each account's net change) is raised inside
    the transaction, which the caller then rolls back. The transfers must already be validated.
    """
    if not transfers:
        return {}
    deltas = net_changes(transfers)
    if conn.dialect.name == "sqlite":
        # BEGIN IMMEDIATE holds the whole database already: update and read back in one go.
        after = _add_returning(conn, deltas, now)
        missing = [account for account in sorted(deltas) if account not in after]
        if missing:
            _create_wallets(conn, missing, now)
            after |= _add_returning(conn, {a: deltas[a] for a in missing}, now)
        before = {account: after[account] - delta for account, delta in deltas.items()}
    else:
        # Lock in account order (no deadlocks); nobody else can change these rows before
        # COMMIT, so each new balance is the one read plus the delta.
        before = lock_wallets_sync(conn, deltas, now)
        after = {account: before[account] + delta for account, delta in deltas.items()}
        conn.execute(
            _ADD_TO_BALANCE,
            [{"which": a, "delta": d, "now": now} for a, d in sorted(deltas.items())],
        )
    for account in sorted(deltas):  # on SQLite the update is rolled back with the transaction
        if account not in HOUSE_ACCOUNTS and after[account] < 0:
            raise InsufficientFunds(account, before[account], -deltas[account])
    conn.execute(
        _INSERT_LEDGER,
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


def _add_returning(conn: sa.Connection, deltas: dict[str, int], now: datetime) -> dict[str, int]:
    """Add each delta to its wallet in one statement; the new balances of the rows that exist."""
    params: dict[str, Any] = {"now": now}
    for n, (account, delta) in enumerate(sorted(deltas.items())):
        params[f"a{n}"], params[f"d{n}"] = account, delta
    rows = conn.execute(_add_statement(len(deltas)), params)
    return {row.account: int(row.balance) for row in rows}


@functools.cache
def _add_statement(count: int) -> sa.Update:
    """UPDATE wallets SET balance = balance + CASE account WHEN :a0 THEN :d0 ... RETURNING, for
    ``count`` accounts: built once per size, so the compiled cache is hit every time after."""
    accounts = [sa.bindparam(f"a{n}", type_=wallets.c.account.type) for n in range(count)]
    change = sa.case(
        *(
            (wallets.c.account == a, sa.bindparam(f"d{n}", type_=sa.BigInteger()))
            for n, a in enumerate(accounts)
        ),
        else_=0,
    )
    return (
        sa.update(wallets)
        .where(wallets.c.account.in_(accounts))
        .values(balance=wallets.c.balance + change, updated_at=sa.bindparam("now"))
        .returning(wallets.c.account, wallets.c.balance)
    )


async def balance(conn: AsyncConnection, account: str) -> int:
    """The cached balance of ``account`` (0 when it never held chips)."""
    value = await conn.scalar(sa.select(wallets.c.balance).where(wallets.c.account == account))
    return int(value or 0)


async def ledger_sums(conn: AsyncConnection) -> dict[str, int]:
    """Every account's balance recomputed from the ledger entries alone."""
    sums: dict[str, int] = defaultdict(int)
    for column, sign in ((ledger.c.dst, 1), (ledger.c.src, -1)):
        stmt: sa.Select[str, int] = sa.select(column, sa.func.sum(ledger.c.amount)).group_by(column)
        for account, total in await conn.execute(stmt):
            sums[account] += sign * int(total)
    return dict(sums)
