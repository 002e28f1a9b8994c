"""Child process of the crash test: runs big settlements and gets SIGKILLed by the parent.

``python -m tests.storage.crash_child URL TABLE_ID MODE``. With MODE ``hook`` a test-only
SQLAlchemy event freezes the process right after the wallet balances were updated (snapshot,
action and ledger rows already written, nothing committed) and says ``MIDWAY``. With MODE ``loop``
it commits settlements one after another, printing ``COMMITTED <version>`` after each.
"""

from __future__ import annotations

import asyncio
import sys
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from storage import ActionEntry, GameResult, Store, Transfer, escrow, wallet

TRANSFERS = 400
NET_WIN = TRANSFERS // 2
PLAYERS = (1, 2)


def settlement(table_id: int) -> list[Transfer]:
    """A big hand: 400 transfers through the escrow that move NET_WIN chips from player 2 to 1."""
    items = []
    for _ in range(TRANSFERS // 2):
        items.append(Transfer(wallet(PLAYERS[1]), escrow(table_id), 1, "bet"))
        items.append(Transfer(escrow(table_id), wallet(PLAYERS[0]), 1, "pot"))
    return items


def freeze_after_balance_update(store: Store) -> None:
    """Test hook: block forever (until killed) inside the transaction, once balances changed."""

    @sa.event.listens_for(store.write_engine, "after_cursor_execute")
    def _hook(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().upper().startswith("UPDATE WALLETS"):
            print("MIDWAY", flush=True)
            sys.stdin.readline()  # the parent never writes: we wait here for SIGKILL


async def main(url: str, table_id: int, mode: str) -> None:
    """Run the settlements of ``mode`` against the store at ``url``."""
    store = await Store.open(url, migrate=False)
    if mode == "hook":
        freeze_after_balance_update(store)
    version = (await store.get_table(table_id)).version
    while True:
        version = await store.commit(
            table_id,
            version,
            {"hand": version, "padding": "x" * 2000},
            action=ActionEntry(None, PLAYERS[0], {"kind": "settle"}, datetime.now(UTC)),
            transfers=settlement(table_id),
            results=[GameResult(p, "turkish", 0) for p in PLAYERS],
        )
        print(f"COMMITTED {version}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
