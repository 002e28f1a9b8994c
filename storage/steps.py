"""The write transactions that touch the ledger: a transfer, a table's buy-in or cash-out, a
computer player's bankroll, one step of play and a moderator's reset. Each runs whole inside
``Writer.run_sync``.

Lock order, the same in each: the idempotency key, then the table row, then the wallets.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from storage import community as community_ops
from storage import ledger as ledger_ops
from storage import ratings as rating_ops
from storage import tables as table_ops
from storage import validators as check
from storage.community import ComputerLimit
from storage.errors import InvalidRequest, TableClosed
from storage.records import (
    COMPUTERS,
    HOUSE,
    ActionEntry,
    GameResult,
    PenaltyEntry,
    SeedRecord,
    Transfer,
    escrow,
    wallet,
)


def transfer_sync(conn: sa.Connection, item: Transfer, key: str | None, now: datetime) -> bool:
    """Apply ``item``; False (nothing written) when ``key`` was applied before."""
    if not ledger_ops.claim_key_sync(conn, key, now):
        return False
    ledger_ops.apply_transfers_sync(conn, [item], now, key)
    return True


def settle_bankroll_sync(conn: sa.Connection, player_id: int, bankroll: int, now: datetime) -> int:
    """Bring a computer player's wallet back to ``bankroll`` through ``COMPUTERS``: topped up when
    it holds less than half of it, what it holds beyond twice the bankroll taken back; its balance
    after. The balance is read under the lock of both wallet rows (PostgreSQL: ``FOR UPDATE``, in
    account-name order like every batch; SQLite: the one writer), so settlements at once, in one
    process or several, each see the one before and never overdraw the wallet."""
    account = wallet(player_id)
    held = ledger_ops.lock_wallets_sync(conn, (account, COMPUTERS), now)[account]
    if held < bankroll // 2:
        item = Transfer(COMPUTERS, account, bankroll - held, "computer bankroll")
    elif held > 2 * bankroll:
        item = Transfer(account, COMPUTERS, held - bankroll, "computer winnings")
    else:
        return held
    return ledger_ops.apply_transfers_sync(conn, [item], now)[account]


def table_transfer_sync(
    conn: sa.Connection,
    table_id: int,
    item: Transfer,
    key: str | None,
    now: datetime,
    *,
    need_open: bool,
) -> bool:
    """Apply ``item`` to or from the table's escrow (TableClosed when ``need_open`` and the
    table is closed); False (nothing written) when ``key`` was applied before."""
    if not ledger_ops.claim_key_sync(conn, key, now):
        return False
    row = table_ops.lock_table_sync(conn, table_id)
    if need_open and row.status != "open":
        raise TableClosed(table_id)
    ledger_ops.apply_transfers_sync(conn, [item], now, key)
    return True


def commit_sync(
    conn: sa.Connection,
    table_id: int,
    expected_version: int,
    snapshot: dict[str, Any],
    *,
    action: ActionEntry | None,
    transfers: list[Transfer],
    status: str | None,
    results: list[GameResult],
    penalties: list[PenaltyEntry],
    seeds: list[SeedRecord],
    key: str | None,
    deadline: datetime | None,
    now: datetime,
    computers: ComputerLimit | None = None,
    people: Collection[int] = (),
) -> int:
    """One step of play (see ``Store.commit``); the table's new version, or for a repeated
    ``key`` the version it produced first."""
    if key is not None and not ledger_ops.claim_key_sync(conn, key, now):
        return ledger_ops.key_result_sync(conn, key) or 0
    version, last_seq, community = table_ops.advance_sync(
        conn,
        table_id,
        expected_version,
        snapshot,
        status,
        int(action is not None),
        now,
        deadline,
    )
    if computers is not None:
        community_ops.check_computers_sync(conn, table_id, computers)
    if action is not None:
        table_ops.append_action_sync(conn, table_id, last_seq, action)
    ledger_ops.apply_transfers_sync(conn, transfers, now, key)
    table_ops.record_results(conn, table_id, results, now, community)
    if people:
        rating_ops.record_ratings(conn, results, people, community, now)
    table_ops.record_penalties(conn, table_id, penalties, now, community)
    table_ops.record_seeds(conn, seeds, now, last_seq if action is not None else None)
    ledger_ops.set_key_result_sync(conn, key, version)
    notify_version_sync(conn, table_id, version)
    return version


VERSION_CHANNEL = "table_version"  # PostgreSQL NOTIFY channel: "<table id>:<version>"


def notify_version_sync(conn: sa.Connection, table_id: int, version: int) -> None:
    """On PostgreSQL, tell every listening process (`storage.notify`) that the table has a new
    version; the notification is sent when the transaction commits, never for a rolled-back one.
    Nothing on SQLite (one process)."""
    if conn.dialect.name == "postgresql":
        conn.execute(
            sa.text("SELECT pg_notify(:channel, :payload)"),
            {"channel": VERSION_CHANNEL, "payload": f"{table_id}:{version}"},
        )


def reset_sync(
    conn: sa.Connection,
    table_id: int,
    moderator_id: int,
    reason: str,
    refunds: Mapping[int, int] | None,
    now: datetime,
    refunds_of: Callable[[dict[str, Any]], Mapping[int, int] | None] | None = None,
) -> dict[int, int]:
    """Close the open table and pay its escrow out (see ``Store.reset_table``); what each
    player got. ``refunds_of`` computes the refunds from the locked row's committed snapshot,
    so that a hand another process committed meanwhile is counted."""
    row = table_ops.lock_table_sync(conn, table_id)
    if row.status != "open":
        raise TableClosed(table_id)
    if refunds_of is not None:
        computed = refunds_of(dict(row.snapshot))
        refunds = None if computed is None else check.refunds(computed)
    table_ops.check_players_exist_sync(conn, [moderator_id, *(refunds or {})])
    account = escrow(table_id)
    held = ledger_ops.lock_wallets_sync(conn, [account], now)[account]
    if refunds is None:
        paid = table_ops.scaled_refunds(table_ops.net_deposits(conn, table_id), held)
    else:
        paid = {p: c for p, c in sorted(refunds.items()) if c > 0}
        if sum(paid.values()) != held:
            raise InvalidRequest(
                f"refunds add up to {sum(paid.values())} but table {table_id} holds {held} chips"
            )
    items = [Transfer(account, wallet(p), c, f"reset: {reason}") for p, c in paid.items()]
    if held > 0 and not paid:  # the chips came from the house: they go back there
        items.append(Transfer(account, HOUSE, held, f"reset: {reason}"))
    _, seq, _ = table_ops.advance_sync(conn, table_id, row.version, None, "closed", 1, now)
    entry = ActionEntry(
        seat=None,
        player_id=moderator_id,
        action={
            "kind": "reset",
            "moderator_id": moderator_id,
            "reason": reason,
            "refunds": {str(p): c for p, c in paid.items()},
        },
        at=now,
    )
    table_ops.append_action_sync(conn, table_id, seq, entry)
    ledger_ops.apply_transfers_sync(conn, items, now)
    notify_version_sync(conn, table_id, row.version + 1)
    return paid
