"""Retention (`Store.prune`): a closed table's action log (but its closing entry) and snapshot
go once it has been closed long enough; results, ledger, seeds, penalty totals, `closed_at`
and the audit stay as they were; open tables, recent ones and a live tournament's are left
alone; pruning twice, or from two stores at once, prunes each table once."""

from __future__ import annotations

import asyncio
import hashlib
from datetime import timedelta

import sqlalchemy as sa

from storage import (
    ActionEntry,
    GameResult,
    PenaltyEntry,
    SeedRecord,
    Store,
    Transfer,
    escrow,
    wallet,
)
from storage.models import action_log, game_results, ledger, tables
from testkit.databases import Clock
from tests.storage.helpers import AT, funded_player

SEED = bytes(range(32))


async def played_table(store: Store, channel: str, players: list[int], hands: int = 3) -> int:
    """A table of `hands` logged hands (results, seeds, a penalty total), then closed."""
    table = await store.create_table("discord", channel, "turkish", {}, {"n": 0}, community="g")
    version = table.version
    for p in players:
        version = await store.commit(
            table.id,
            version,
            {"n": 0},
            transfers=[Transfer(wallet(p), escrow(table.id), 50, "buy-in")],
        )
    for hand in range(1, hands + 1):
        seed = hashlib.sha256(SEED + channel.encode() + bytes([hand])).digest()
        hand_id = f"{table.id}-{hand}"
        deal = {"kind": "start", "deals": [{"hand": hand_id, "setup": {}}]}
        version = await store.commit(
            table.id,
            version,
            {"n": hand, "hands": {hand_id: {"root": "r"}}},
            action=ActionEntry(seat=None, player_id=None, action=deal, at=AT),
            seeds=[SeedRecord(hand_id, table.id, hashlib.sha256(seed).hexdigest())],
        )
        for p in players:
            version = await store.commit(
                table.id, version, {"n": hand},
                action=ActionEntry(seat=0, player_id=p, action={"kind": "check"}, at=AT),
            )  # fmt: skip
        version = await store.commit(
            table.id,
            version,
            {"n": hand, "hands": {hand_id: {"root": "r"}}},
            action=ActionEntry(seat=0, player_id=players[0], action={"kind": "call"}, at=AT),
            results=[GameResult(p, "turkish", 0, hand_id, {"v": 1}) for p in players],
            penalties=[PenaltyEntry(players[0], 3, f"{table.id}-m1")],
            seeds=[
                SeedRecord(hand_id, table.id, hashlib.sha256(seed).hexdigest(), seed_hex=seed.hex())
            ],
        )
    await store.commit(
        table.id,
        version,
        {"n": hands, "hands": {f"{table.id}-{hands}": {"root": "r"}}, "big": "x" * 1000},
        action=ActionEntry(seat=None, player_id=None, action={"kind": "close"}, at=AT),
        transfers=[Transfer(escrow(table.id), wallet(p), 50, "cash-out") for p in players],
        status="closed",
    )
    return table.id


async def counts(store: Store, table_id: int) -> tuple[int, int, int]:
    """(action log entries, results, ledger rows) of the table."""
    async with store.engine.connect() as conn:

        async def count(table: sa.Table, where: sa.ColumnElement[bool]) -> int:
            query = sa.select(sa.func.count()).select_from(table).where(where)
            return int(await conn.scalar(query) or 0)

        account = escrow(table_id)
        return (
            await count(action_log, action_log.c.table_id == table_id),
            await count(game_results, game_results.c.table_id == table_id),
            await count(ledger, sa.or_(ledger.c.src == account, ledger.c.dst == account)),
        )


async def test_prune_keeps_results_ledger_seeds_and_closing_time(store: Store, clock: Clock):
    a = await funded_player(store, "ayse", 500)
    b = await funded_player(store, "bora", 500)
    old = await played_table(store, "old", [a, b])
    closed = await store.closed_at(old)
    logged, results, moves = await counts(store, old)
    assert logged > 1
    cutoff = clock.now + timedelta(seconds=1)
    clock.now += timedelta(days=400)
    recent = await played_table(store, "recent", [a, b])
    still_open = await store.create_table("discord", "open", "turkish", {}, {"n": 0})
    history = await store.history(a, limit=50)
    stats = await store.player_stats(a, "turkish")
    board = await store.leaderboard("okey", community="g")

    assert await store.prune(cutoff) == 1
    assert await counts(store, old) == (1, results, moves)  # the closing entry alone
    assert await store.closed_at(old) == closed
    assert (await store.get_table(old)).snapshot == {
        "pruned": True,
        "hands": {f"{old}-3": {"root": "r"}},
    }
    assert await store.pruned_at(old) is not None
    assert (await store.seed(f"{old}-2")).seed_hex is not None
    assert await store.history(a, limit=50) == history
    assert await store.player_stats(a, "turkish") == stats
    assert await store.leaderboard("okey", community="g") == board
    assert await store.audit() == []
    assert await store.pruned_at(recent) is None
    assert (await counts(store, recent))[0] > 1
    assert await store.pruned_at(still_open.id) is None
    assert await store.hand_actions(old, f"{old}-1") != []  # what is left: the closing entry
    assert await store.prune(cutoff) == 0  # twice: nothing more


async def test_a_live_tournaments_tables_are_kept(store: Store, clock: Clock):
    a = await funded_player(store, "ayse", 500)
    b = await funded_player(store, "bora", 500)
    table = await played_table(store, "t", [a, b], hands=1)
    tournament = await store.create_tournament("discord", "t", "okey", {})
    async with store.engine.begin() as conn:
        await conn.execute(
            sa.update(tables).where(tables.c.id == table).values(tournament_id=tournament.id)
        )
    clock.now += timedelta(days=400)
    assert await store.prune(clock.now) == 0
    await store.commit_tournament(tournament.id, tournament.version, {}, status="cancelled")
    assert await store.prune(clock.now) == 1


async def test_batches_and_two_stores_prune_each_table_once(db_url: str, clock: Clock):
    first = await Store.open(db_url, clock=clock)
    second = await Store.open(db_url, clock=clock)
    try:
        a = await funded_player(first, "ayse", 5000)
        b = await funded_player(first, "bora", 5000)
        ids = [await played_table(first, f"c{i}", [a, b], hands=1) for i in range(12)]
        clock.now += timedelta(days=400)
        done = await asyncio.gather(
            first.prune(clock.now, batch=2, batches=3), second.prune(clock.now, batch=2)
        )
        rest = await first.prune(clock.now, batch=5)
        assert sum(done) + rest == len(ids)
        for table_id in ids:
            assert (await counts(first, table_id))[0] == 1
        assert await first.audit() == []
    finally:
        await first.close()
        await second.close()
