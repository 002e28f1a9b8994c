"""The chip audit: the ledger's invariants, checked over the whole database in one snapshot."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from storage import ledger as ledger_ops
from storage.models import ledger, tournaments, wallets
from storage.records import HOUSE_ACCOUNTS, tournament_escrow


async def audit(conn: AsyncConnection) -> list[str]:
    """One line per broken invariant (an empty list when the chips are sound): each cached
    balance equals the sum of its ledger entries, none but the house accounts is negative, all balances
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
        if account not in HOUSE_ACCOUNTS and cached.get(account, 0) < 0:
            problems.append(f"{account}: negative balance {cached[account]}")
    if sum(cached.values()) != 0:
        problems.append(f"balances add up to {sum(cached.values())}, not 0")
    return problems


@dataclass(frozen=True)
class HouseFlows:
    """One house account (`HOUSE`: the chips issued; `COMPUTERS`: the computer players' bank):
    its balance and the chips it paid out and took in, by reason (the text of a transfer's reason
    before any ``:``, so every ``reset: ...`` adds up as ``reset``)."""

    account: str
    balance: int
    paid: dict[str, int] = field(default_factory=dict)
    taken: dict[str, int] = field(default_factory=dict)

    def lines(self) -> list[str]:
        """The account as text, one line per flow (what `python -m storage audit` prints)."""
        out = [f"{self.account}: balance {self.balance}"]
        out += [f"  paid {amount} for {why}" for why, amount in sorted(self.paid.items())]
        out += [f"  took {amount} for {why}" for why, amount in sorted(self.taken.items())]
        return out


async def house_report(conn: AsyncConnection) -> list[HouseFlows]:
    """The house accounts' balances and flows by reason, from the ledger (two grouped reads
    through the ledger's `src` and `dst` indexes)."""
    report: list[HouseFlows] = []
    for account in HOUSE_ACCOUNTS:
        paid: dict[str, int] = defaultdict(int)
        taken: dict[str, int] = defaultdict(int)
        for column, into in ((ledger.c.src, paid), (ledger.c.dst, taken)):
            stmt: sa.Select[str, int] = (
                sa.select(ledger.c.reason, sa.func.sum(ledger.c.amount))
                .where(column == account)
                .group_by(ledger.c.reason)
            )
            for reason, total in await conn.execute(stmt):
                into[str(reason).partition(":")[0].strip()] += int(total)
        balance = await ledger_ops.balance(conn, account)
        report.append(HouseFlows(account, balance, dict(paid), dict(taken)))
    return report
