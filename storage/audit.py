"""The chip audit: the ledger's invariants, checked over the whole database in one snapshot."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from storage import ledger as ledger_ops
from storage.models import tournaments, wallets
from storage.records import HOUSE, tournament_escrow


async def audit(conn: AsyncConnection) -> list[str]:
    """One line per broken invariant (an empty list when the chips are sound): each cached
    balance equals the sum of its ledger entries, none but the house is negative, all balances
    add up to zero, and a finished or cancelled tournament holds no chips."""
    if conn.dialect.name == "postgresql":  # one snapshot for both reads (SQLite: WAL)
        conn = await conn.execution_options(isolation_level="REPEATABLE READ")
    sums = await ledger_ops.ledger_sums(conn)
    cached = {
        row.account: int(row.balance)
        for row in await conn.execute(sa.select(wallets.c.account, wallets.c.balance))
    }
    over: sa.ScalarResult[int] = (
        await conn.execute(
            sa.select(tournaments.c.id).where(tournaments.c.status.in_(("finished", "cancelled")))
        )
    ).scalars()
    ended = [tournament_escrow(number) for number in over]
    problems = [
        f"{account}: the tournament is over but holds {cached[account]}"
        for account in ended
        if cached.get(account, 0) != 0
    ]
    for account in sorted(set(sums) | set(cached)):
        if sums.get(account, 0) != cached.get(account, 0):
            problems.append(
                f"{account}: cached {cached.get(account, 0)} != ledger {sums.get(account, 0)}"
            )
        if account != HOUSE and cached.get(account, 0) < 0:
            problems.append(f"{account}: negative balance {cached[account]}")
    if sum(cached.values()) != 0:
        problems.append(f"balances add up to {sum(cached.values())}, not 0")
    return problems
