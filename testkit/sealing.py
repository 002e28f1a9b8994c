"""Test helpers for the seed's reveal rule (`bot.core.players.proofs`): close a table through the core
and move the core's clock to the moment its seeds may be shown (or just before it)."""

from __future__ import annotations

from datetime import timedelta

from bot.core.app import Core
from testkit.helpers import cmd, errors


async def close_table(core: Core, table_id: int, channel: str = "c1") -> None:
    """End the channel's table by a moderator's `/table reset` (a running hand is refunded)."""
    out = await core.handle(cmd("moderator", "/table reset", mod=True, channel=channel))
    assert not errors(out), errors(out)
    assert await core.store.closed_at(table_id) is not None


async def reach_reveal(core: Core, table_id: int, early: float = 0.0) -> None:
    """Set the core's clock to the table's reveal time less `early` seconds."""
    closed = await core.store.closed_at(table_id)
    assert closed is not None, "the table is still open"
    hours = timedelta(hours=core.config.seed_reveal_hours)
    core.clock.now = closed + hours - timedelta(seconds=early)  # type: ignore[attr-defined]


async def close_and_reveal(core: Core, table_id: int, channel: str = "c1") -> None:
    """Close the table and move the clock to the time its seeds are shown."""
    await close_table(core, table_id, channel)
    await reach_reveal(core, table_id)
