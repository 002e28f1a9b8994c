"""Win tallies (migration 0005): after any mix of committed and failed commits each tally equals a
recount of the won results; a failed commit, a repeated key or a table reset leaves the tallies as
they were; a commit without a win writes none; the migration fills them from older results."""

from __future__ import annotations

import hashlib
import random
from collections import Counter

import pytest
import sqlalchemy as sa

from storage import (
    GameResult,
    InsufficientFunds,
    InvalidRequest,
    NotFound,
    SeedRecord,
    StaleVersion,
    Store,
    TableClosed,
    Transfer,
    escrow,
    wallet,
)
from storage.migrate import downgrade, upgrade
from storage.models import game_results, win_tallies
from tests.storage.helpers import funded_player, insert_old_results, old_player, table_names

Tallies = dict[tuple[int, str], int]


async def tallies(store: Store) -> Tallies:
    """The ``win_tallies`` rows as (player, community) -> wins."""
    stmt = sa.select(win_tallies.c.player_id, win_tallies.c.community, win_tallies.c.wins)
    async with store.engine.connect() as conn:
        return {(p, c): w for p, c, w in await conn.execute(stmt)}


async def recount(store: Store) -> Tallies:
    """The won results counted directly in ``game_results`` (no community counts under '')."""
    stmt = sa.select(game_results.c.player_id, game_results.c.community).where(
        game_results.c.chips_delta > 0
    )
    async with store.engine.connect() as conn:
        return dict(Counter((p, c or "") for p, c in await conn.execute(stmt)))


def _hash(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


async def test_tally_equals_a_recount_after_random_commits_and_failures(store: Store) -> None:
    rng = random.Random(1805)
    people = [await funded_player(store, f"p{n}", 1000) for n in range(6)]
    communities = ["g1", "g2", None]
    open_tables = {}
    for n, community in enumerate(communities):
        record = await store.create_table(
            "discord", f"ch{n}", "turkish", {}, {}, community=community
        )
        open_tables[community] = [record.id, record.version]
    closed = await store.create_table("discord", "gone", "turkish", {}, {}, community="g1")
    await store.commit(closed.id, closed.version, {}, status="closed")
    seeded = open_tables["g2"]
    seeded[1] = await store.commit(
        seeded[0], seeded[1], {}, seeds=[SeedRecord("h-1", seeded[0], _hash(b"one"))]
    )
    failures: Counter[str] = Counter()
    for step in range(80):
        community = rng.choice(communities)
        table = open_tables[community]
        seated = rng.sample(people, rng.randrange(1, 4))
        hand = [
            GameResult(p, "turkish", rng.randrange(-20, 21), hand_id=f"h{step}") for p in seated
        ]
        if rng.random() < 0.2:  # the same player twice in one commit: both wins count
            hand.append(GameResult(seated[0], "turkish", rng.randrange(1, 9), hand_id=f"h{step}b"))
        before = await tallies(store)
        failure = rng.choice(["none", "none", "none", "stale", "funds", "player", "closed", "seed"])
        won = [*hand, GameResult(people[0], "turkish", 5)]  # every failing commit holds a win
        if failure == "stale":
            with pytest.raises(StaleVersion):
                await store.commit(table[0], table[1] + 1, {}, results=won)
        elif failure == "funds":
            over = Transfer(escrow(table[0]), wallet(people[0]), 10**9, "pot")
            with pytest.raises(InsufficientFunds):
                await store.commit(table[0], table[1], {}, results=won, transfers=[over])
        elif failure == "player":
            with pytest.raises(NotFound):
                await store.commit(
                    table[0], table[1], {}, results=[*won, GameResult(10**6, "turkish", 3)]
                )
        elif failure == "closed":
            with pytest.raises(TableClosed):
                await store.commit(closed.id, closed.version + 1, {}, results=won)
        elif failure == "seed":  # fails after the results and the tallies were written
            bad = SeedRecord("h-1", seeded[0], _hash(b"another"))
            with pytest.raises(InvalidRequest, match="seed hash"):
                await store.commit(seeded[0], seeded[1], {}, results=won, seeds=[bad])
        else:
            key = f"k{step}"
            table[1] = await store.commit(table[0], table[1], {}, results=hand, idempotency_key=key)
            after = await tallies(store)
            # a repeated key returns the first version and counts nothing twice
            assert (
                await store.commit(table[0], table[1] - 1, {}, results=hand, idempotency_key=key)
                == table[1]
            )
            assert await tallies(store) == after
            continue
        failures[failure] += 1
        assert await tallies(store) == before, failure
    assert await tallies(store) == await recount(store)
    assert set(failures) == {"stale", "funds", "player", "closed", "seed"}
    assert all(w > 0 for w in (await tallies(store)).values())


async def test_a_commit_without_a_win_writes_no_tally(store: Store) -> None:
    a = await funded_player(store, "a", 10)
    b = await funded_player(store, "b", 10)
    table = await store.create_table("discord", "c", "okey", {}, {}, community="g")
    version = await store.commit(
        table.id,
        table.version,
        {},
        results=[GameResult(a, "okey", 0), GameResult(b, "okey", -4)],
    )
    assert await tallies(store) == {}
    version = await store.commit(table.id, version, {}, results=[GameResult(b, "okey", 4)])
    await store.commit(table.id, version, {}, results=[GameResult(b, "okey", 1)])
    assert await tallies(store) == {(b, "g"): 2}
    assert await store.leaderboard("wins", community="g") == [("B", 2)]


async def test_a_reset_leaves_the_tallies_alone(store: Store) -> None:
    a = await funded_player(store, "a", 100)
    b = await funded_player(store, "b", 100)
    table = await store.create_table("discord", "c", "turkish", {}, {}, community="g")
    await store.commit(
        table.id,
        table.version,
        {},
        transfers=[Transfer(wallet(a), escrow(table.id), 30, "bet")],
        results=[GameResult(b, "turkish", 7)],
    )
    before = await tallies(store)
    assert await store.reset_table(table.id, a, "stuck") == {a: 30}
    assert await tallies(store) == before == await recount(store) == {(b, "g"): 1}


async def test_migration_0005_fills_the_tallies_from_the_results(unmigrated_url: str) -> None:
    store = await Store.open(unmigrated_url, migrate=False)
    try:
        await upgrade(store.engine, "0004")
        a = await old_player(store, "a", 40)
        b = await old_player(store, "b", 40)
        rows = [  # (table, player, chips_delta): tables 1 and 2 in g1, table 3 without community
            (1, a, 9), (1, a, 3), (1, b, -12), (2, b, 5), (2, a, 0), (3, a, 2), (3, b, 1), (3, b, 8),
        ]  # fmt: skip
        await insert_old_results(
            store, "turkish", ["g1", "g1", None], [(t, p, "turkish", d, {}) for t, p, d in rows]
        )
        await upgrade(store.engine, "0005")
        assert await tallies(store) == {(a, "g1"): 2, (b, "g1"): 1, (a, ""): 1, (b, ""): 2}
        assert await tallies(store) == await recount(store)
        assert await store.leaderboard("wins") == [("A", 3), ("B", 3)]
        assert await store.leaderboard("wins", community="g1") == [("A", 2), ("B", 1)]
        # the tally goes on from the backfilled counts
        await store.commit(3, 1, {}, results=[GameResult(b, "turkish", 1)])
        assert await store.leaderboard("wins") == [("B", 4), ("A", 3)]
        await downgrade(store.engine, "0004")
        async with store.engine.connect() as conn:
            indexes = await conn.run_sync(
                lambda sync: {i["name"] for i in sa.inspect(sync).get_indexes("game_results")}
            )
        assert "win_tallies" not in await table_names(store)
        assert {"ix_game_results_wins", "ix_game_results_community_wins"} <= indexes
        await upgrade(store.engine, "head")
        assert await tallies(store) == await recount(store)
    finally:
        await store.close()
