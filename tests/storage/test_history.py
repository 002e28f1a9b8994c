"""History and statistics queries: the database's sums equal a plain-Python recount of the same
results, newest first, per game, with old rows (no detail) still counted."""

from __future__ import annotations

import random

import pytest

from storage import GameResult, InvalidRequest, Store
from storage.history import POKER_STREETS

GAMES = ("turkish", "acik", "okey")


def poker_detail(rng: random.Random, game: str, delta: int) -> dict:
    won = delta > 0 or rng.random() < 0.05  # now and then a pot won in a losing hand
    showdown = rng.random() < 0.4
    detail = {
        "v": 1,
        "won": won,
        "pot_won": rng.randint(1, 500) if won else 0,
        "pot": rng.randint(1, 900),
        "showdown": showdown,
        "showdown_won": showdown and won,
        "folded": rng.choice([None, None, *POKER_STREETS[: 2 if game == "turkish" else 4]]),
    }
    if game == "turkish":
        detail.update(
            opened=rng.random() < 0.3,
            passed=rng.random() < 0.4,
            drew=rng.choice([None, 0, 1, 2, 3]),
        )
    return detail


def okey_round(rng: random.Random) -> dict:
    won = rng.random() < 0.3
    return {
        "v": 1,
        "kind": "round",
        "match": "x",
        "won": won,
        "okey_discard": won and rng.random() < 0.3,
        "pairs": won and rng.random() < 0.2,
        "penalty": rng.randint(0, 8),
        "indicator": rng.random() < 0.1,
    }


def recount(rows: list[tuple[str, int, dict]], game: str) -> dict:
    """The statistics of `game` counted one row at a time, the way a person would."""
    mine = [(d, r) for g, d, r in rows if g == game]
    if game == "okey":
        rounds = [r for _, r in mine if r.get("kind") == "round"]
        matches = [(d, r) for d, r in mine if r.get("kind") != "round"]
        return {
            "hands": len(rounds),
            "matches": len(matches),
            "chips_won": sum(d for d, _ in matches if d > 0),
            "chips_lost": sum(-d for d, _ in matches if d < 0),
            "rounds_won": sum(r["won"] for r in rounds),
            "okey_discards": sum(r["okey_discard"] for r in rounds),
            "pairs": sum(r["pairs"] for r in rounds),
            "penalty": sum(r["penalty"] for r in rounds),
            "indicators": sum(r["indicator"] for r in rounds),
        }
    folded: dict[int, int] = {}
    for _, r in mine:
        if r.get("folded"):
            folded[r["folded"]] = folded.get(r["folded"], 0) + 1
    return {
        "hands": len(mine),
        "won": sum(r.get("won", d > 0) for d, r in mine),
        "chips_won": sum(d for d, _ in mine if d > 0),
        "chips_lost": sum(-d for d, _ in mine if d < 0),
        "biggest_pot": max([r.get("pot_won", 0) for _, r in mine] or [0]),
        "showdowns": sum(r.get("showdown", False) for _, r in mine),
        "showdowns_won": sum(r.get("showdown_won", False) for _, r in mine),
        "opened": sum(r.get("opened", False) for _, r in mine),
        "passed": sum(r.get("passed", False) for _, r in mine),
        "went_to_draw": sum(r.get("drew") is not None for _, r in mine),
        "cards_drawn": sum(r.get("drew") or 0 for _, r in mine),
        "folded": folded,
    }


async def play(store: Store, rng: random.Random, hands: int) -> tuple[list[int], dict]:
    """Commit `hands` random results of three players on three tables; returns the players and
    each one's rows `(game, delta, detail)` in commit order."""
    pids = [(await store.player("discord", f"u{i}", f"Player {i}")).id for i in range(3)]
    tables = {g: await store.create_table("discord", f"ch-{g}", g, {}, {}) for g in GAMES}
    versions = {g: t.version for g, t in tables.items()}
    rows: dict[int, list[tuple[str, int, dict]]] = {p: [] for p in pids}
    for number in range(1, hands + 1):
        game = rng.choice(GAMES)
        results = []
        for pid in pids:
            delta = rng.randint(-60, 60)
            if game == "okey":
                detail = okey_round(rng) if rng.random() < 0.8 else {"points": 3}
                if detail.get("kind") == "round":
                    delta = 0
            else:
                detail = poker_detail(rng, game, delta) if rng.random() < 0.9 else {}
            results.append(GameResult(pid, game, delta, hand_id=f"{number}", detail=detail))
            rows[pid].append((game, delta, detail))
        versions[game] = await store.commit(tables[game].id, versions[game], {}, results=results)
    return pids, rows


async def test_stats_equal_a_recount(store: Store) -> None:
    rng = random.Random(18)
    pids, rows = await play(store, rng, 120)
    for pid in pids:
        for game in GAMES:
            stats = await store.player_stats(pid, game)
            expected = recount(rows[pid], game)
            got = {key: getattr(stats, key) for key in expected}
            assert got == expected, (pid, game)


async def test_history_is_newest_first_per_game(store: Store) -> None:
    rng = random.Random(7)
    pids, rows = await play(store, rng, 40)
    pid = pids[1]
    mine = rows[pid]
    newest = await store.history(pid, limit=10)
    assert [e.hand_id for e in newest] == [str(n) for n in range(40, 30, -1)]
    assert [(e.game, e.chips_delta, e.detail) for e in newest] == mine[::-1][:10]
    poker = await store.history(pid, ["turkish", "acik"], limit=5)
    expected = [r for r in mine if r[0] != "okey"][::-1][:5]
    assert [(e.game, e.chips_delta, e.detail) for e in poker] == expected
    assert all(e.at.tzinfo is not None for e in poker)


async def test_chip_history_leaves_out_okey_rounds(store: Store) -> None:
    rng = random.Random(3)
    pids, rows = await play(store, rng, 60)
    pid = pids[0]
    moved = [d for g, d, r in rows[pid] if r.get("kind") != "round"]
    assert await store.chip_history(pid, limit=25) == moved[-25:]
    okey = [d for g, d, r in rows[pid] if g == "okey" and r.get("kind") != "round"]
    assert await store.chip_history(pid, ["okey"], limit=100) == okey


async def test_a_player_with_no_results_has_empty_stats(store: Store) -> None:
    pid = (await store.player("discord", "new", "New")).id
    stats = await store.player_stats(pid, "turkish")
    assert (stats.hands, stats.won, stats.net, stats.folded) == (0, 0, 0, {})
    assert await store.history(pid) == []
    assert await store.chip_history(pid) == []
    with pytest.raises(InvalidRequest):
        await store.player_stats(pid, "chess")


async def test_find_players_by_user_id_or_name(store: Store) -> None:
    ayse = await store.player("discord", "42", "Ayse")
    await store.player("discord", "43", "Mehmet")
    await store.player("telegram", "42", "Ayse")
    assert [p.id for p in await store.find_players("discord", "42")] == [ayse.id]
    assert [p.id for p in await store.find_players("discord", "aYSE")] == [ayse.id]
    assert await store.find_players("discord", "nobody") == []
