"""Shared helpers of the storage tests."""

from __future__ import annotations

from datetime import UTC, date, datetime

from storage import Store

AT = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
DAY = date(2026, 1, 1)


async def funded_player(store: Store, user: str, chips: int, platform: str = "discord") -> int:
    """Create a player holding ``chips`` from a daily grant; returns the player id."""
    player = await store.player(platform, user, user.title())
    if chips:
        assert await store.daily_grant(player.id, chips, DAY)
    return player.id


async def ledger_rows(store: Store) -> int:
    """How many ledger entries exist."""
    import sqlalchemy as sa

    from storage.models import ledger

    async with store.engine.connect() as conn:
        return int(await conn.scalar(sa.select(sa.func.count()).select_from(ledger)) or 0)
