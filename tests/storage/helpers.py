"""Shared helpers of the storage tests."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Any

from storage import Store

AT = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
DAY = date(2026, 1, 1)


async def funded_player(store: Store, user: str, chips: int, platform: str = "discord") -> int:
    """Create a player holding ``chips`` from a daily grant; returns the player id."""
    player = await store.player(platform, user, user.title())
    if chips:
        assert await store.daily_grant(player.id, chips, DAY)
    return player.id


async def old_player(store: Store, user: str, chips: int, platform: str = "discord") -> int:
    """`funded_player` on a database migrated only part of the way (a migration's test): the
    player row written with the columns of the first schema only, as the code of that time
    wrote it (`Store.player` reads and writes every column of today's `players`)."""
    import sqlalchemy as sa

    row = sa.table(
        "players",
        sa.column("id", sa.Integer),
        sa.column("platform"),
        sa.column("user_id"),
        sa.column("name"),
        sa.column("created_at", sa.DateTime(timezone=True)),
    )
    insert = row.insert().values(platform=platform, user_id=user, name=user.title(), created_at=AT)
    async with store.engine.begin() as conn:
        player_id = int((await conn.execute(insert.returning(row.c.id))).scalar_one())
    if chips:
        assert await store.daily_grant(player_id, chips, DAY)
    return player_id


async def ledger_rows(store: Store) -> int:
    """How many ledger entries exist."""
    import sqlalchemy as sa

    from storage.models import ledger

    async with store.engine.connect() as conn:
        return int(await conn.scalar(sa.select(sa.func.count()).select_from(ledger)) or 0)


async def table_names(store: Store) -> set[str]:
    """The names of the tables the database holds now (after a migration step)."""
    import sqlalchemy as sa

    async with store.engine.connect() as conn:
        return set(await conn.run_sync(lambda sync: sa.inspect(sync).get_table_names()))


async def insert_old_results(
    store: Store,
    game: str,
    communities: list[str | None],
    rows: list[tuple[int, int, str, int, dict[str, Any]]],
) -> None:
    """Write in plain SQL, as an older schema revision holds them, open tables of ``game``
    numbered from 1, one per community (None: without one), and results ``(table, player, game,
    chips_delta, detail)`` in their table's community."""
    at = "2026-01-01 00:00:00+00:00"
    async with store.engine.begin() as conn:
        for n, community in enumerate(communities, start=1):
            where = "NULL" if community is None else f"'{community}'"
            await conn.exec_driver_sql(
                "INSERT INTO tables (platform, channel_id, game, options, status, snapshot,"
                " version, last_seq, created_at, updated_at, community) VALUES ('discord',"
                f" 'c{n}', '{game}', '{{}}', 'open', '{{}}', 1, 0, '{at}', '{at}', {where})"
            )
        for table, player, result_game, delta, detail in rows:
            await conn.exec_driver_sql(
                "INSERT INTO game_results (table_id, player_id, game, chips_delta, hand_id,"
                f" detail, at, community) VALUES ({table}, {player}, '{result_game}', {delta},"
                f" 'h', '{json.dumps(detail)}', '{at}',"
                f" (SELECT community FROM tables WHERE id = {table}))"
            )
