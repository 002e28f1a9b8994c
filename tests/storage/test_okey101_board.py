"""The 101 board and its tallies (migration 0009): each tally equals a recount of the stored 101
rounds whatever commits failed; the board ranks by the average score per round, lowest first,
leaves off players with too few rounds, and keeps communities and platforms apart; the
migration fills the tallies from older rounds."""

from __future__ import annotations

import random
from collections import Counter

import pytest
import sqlalchemy as sa

from storage import MIN_OKEY101_ROUNDS, GameResult, NotFound, StaleVersion, Store
from storage.migrate import downgrade, upgrade
from storage.models import game_results, okey101_tallies
from tests.storage.helpers import funded_player, insert_old_results, old_player, table_names

Tallies = dict[tuple[int, str], tuple[int, int]]


def round_result(player: int, penalty: int, game: str = "okey101") -> GameResult:
    """One player's result of a finished 101 round (as `Okey101Session` records it)."""
    return GameResult(player, game, 0, hand_id="r", detail={"kind": "round", "penalty": penalty})


async def tallies(store: Store) -> Tallies:
    """The ``okey101_tallies`` rows as (player, community) -> (rounds, penalty)."""
    t = okey101_tallies.c
    stmt = sa.select(t.player_id, t.community, t.rounds, t.penalty)
    async with store.engine.connect() as conn:
        return {(p, c): (n, s) for p, c, n, s in await conn.execute(stmt)}


async def recount(store: Store) -> Tallies:
    """The 101 rounds counted directly in ``game_results`` (no community counts under '')."""
    r = game_results.c
    stmt = sa.select(r.player_id, r.community, r.game, r.detail)
    rounds: Counter[tuple[int, str]] = Counter()
    penalty: Counter[tuple[int, str]] = Counter()
    async with store.engine.connect() as conn:
        for player, community, game, detail in await conn.execute(stmt):
            if game == "okey101" and detail.get("kind") == "round":
                rounds[(player, community or "")] += 1
                penalty[(player, community or "")] += detail["penalty"]
    return {key: (n, penalty[key]) for key, n in rounds.items()}


async def test_tally_equals_a_recount_after_random_commits_and_failures(store: Store) -> None:
    rng = random.Random(101)
    people = [await funded_player(store, f"p{n}", 0) for n in range(5)]
    tables = {}
    for n, community in enumerate(["g1", "g2", None]):
        record = await store.create_table(
            "discord", f"c{n}", "okey101", {}, {}, community=community
        )
        tables[community] = [record.id, record.version]
    for step in range(60):
        table = tables[rng.choice(list(tables))]
        seated = rng.sample(people, rng.randrange(2, 5))
        results = [round_result(p, rng.randrange(-202, 400)) for p in seated]
        if rng.random() < 0.3:  # the match's result and classic Okey rounds are no 101 rounds
            results.append(
                GameResult(seated[0], "okey101", 40, hand_id="m", detail={"kind": "match"})
            )
            results.append(round_result(seated[1], 55, game="okey"))
        before = await tallies(store)
        failure = rng.choice(["none", "none", "stale", "player"])
        if failure == "stale":
            with pytest.raises(StaleVersion):
                await store.commit(table[0], table[1] + 1, {}, results=results)
        elif failure == "player":
            with pytest.raises(NotFound):
                await store.commit(
                    table[0], table[1], {}, results=[*results, round_result(10**6, 1)]
                )
        else:
            table[1] = await store.commit(table[0], table[1], {}, results=results)
            continue
        assert await tallies(store) == before, f"{failure} at step {step}"
    assert await tallies(store) == await recount(store)
    assert await tallies(store)


async def play(store: Store, table_id: int, version: int, scores: dict[int, list[int]]) -> int:
    """Commit one round result per player and score, round by round; the new version."""
    for n in range(max(len(s) for s in scores.values())):
        results = [round_result(p, s[n]) for p, s in scores.items() if n < len(s)]
        version = await store.commit(table_id, version, {}, results=results)
    return version


async def test_board_ranks_by_the_average_round_score_lowest_first(store: Store) -> None:
    ayse, can, deniz, ece = [await funded_player(store, name, 0) for name in "abcd"]
    other = await funded_player(store, "tg", 0, platform="telegram")
    g1 = await store.create_table("discord", "c1", "okey101", {}, {}, community="g1")
    g2 = await store.create_table("discord", "c2", "okey101", {}, {}, community="g2")
    tg = await store.create_table("telegram", "c3", "okey101", {}, {}, community="-5")
    ten = MIN_OKEY101_ROUNDS
    await play(
        store,
        g1.id,
        g1.version,
        {
            ayse: [-101] + [60] * (ten - 1),  # 439 over 10 rounds: 43.9
            can: [30] * (ten + 2),  # 360 over 12: 30.0
            deniz: [10] * (ten - 1),  # the best average, but too few rounds here
            ece: [25] * ten + [35] * ten,  # 600 over 20: 30.0, more rounds than can
        },
    )
    await play(store, g2.id, g2.version, {deniz: [20, 20], ayse: [400] * ten})
    await play(store, tg.id, tg.version, {other: [0] * ten})

    board = await store.okey101_board(community="g1")
    assert [(s.name, s.rounds, s.penalty) for s in board] == [
        ("D", 20, 600),
        ("B", 12, 360),
        ("A", 10, 439),
    ]
    assert [s.average for s in board] == [30.0, 30.0, 43.9]
    # everyone: each player's communities added up (deniz now has 11 rounds)
    everyone = await store.okey101_board(platform="discord")
    assert [(s.name, round(s.average, 2)) for s in everyone] == [
        ("C", 11.82),
        ("D", 30.0),
        ("B", 30.0),
        ("A", 221.95),
    ]
    assert [s.name for s in await store.okey101_board(platform="telegram")] == ["Tg"]
    assert [s.name for s in await store.okey101_board(limit=2)] == ["Tg", "C"]
    assert [s.name for s in await store.okey101_board(community="g2")] == ["A"]
    assert [s.name for s in await store.okey101_board(community="g2", min_rounds=2)] == ["C", "A"]


async def test_migration_0009_fills_the_tallies_from_the_rounds(unmigrated_url: str) -> None:
    store = await Store.open(unmigrated_url, migrate=False)
    try:
        await upgrade(store.engine, "0008")
        a = await old_player(store, "a", 0)
        b = await old_player(store, "b", 0)
        rows = [  # (table, player, game, chips, detail): table 1 in g1, table 2 without one
            (1, a, "okey101", 0, {"kind": "round", "penalty": 40}),
            (1, a, "okey101", 0, {"kind": "round", "penalty": -101}),
            (1, b, "okey101", 0, {"kind": "round", "penalty": 77}),
            (1, a, "okey101", 30, {"kind": "match", "points": -61}),
            (1, b, "okey", 0, {"kind": "round", "penalty": 3}),
            (2, b, "okey101", 0, {"kind": "round", "penalty": 12}),
            (2, a, "turkish", 5, {}),
        ]
        await insert_old_results(store, "okey101", ["g1", None], rows)
        await upgrade(store.engine, "0009")
        assert await tallies(store) == {(a, "g1"): (2, -61), (b, "g1"): (1, 77), (b, ""): (1, 12)}
        assert await tallies(store) == await recount(store)
        board = await store.okey101_board(min_rounds=1)
        assert [(s.name, s.rounds, s.penalty) for s in board] == [("A", 2, -61), ("B", 2, 89)]
        # the tally goes on from the backfilled rounds
        await store.commit(2, 1, {}, results=[round_result(b, -202)])
        assert await tallies(store) == await recount(store)
        await downgrade(store.engine, "0008")
        assert "okey101_tallies" not in await table_names(store)
        await upgrade(store.engine, "head")
        assert await tallies(store) == await recount(store)
    finally:
        await store.close()
