"""`/stats <name>` and the `/replay` check at a million stored hands, before and after the
changes of issue 25 (migration 0007), in one run.

The database (a temporary SQLite file) is migrated by `Store.open`, then filled in bulk with the
standard library's sqlite3: `--players` players, `--tables` closed tables in 200 communities,
`--hands` hands of three players each with their `game_results` rows, their `hand_seeds` row
(with `deal_seq`) and their action log (the dealing entry and `--moves` moves). Then:

- `/stats <name>`: the name look-up and the three games' statistics of a random player. Before:
  the look-up as it was (one `OR` of the user id and `lower(name)`) with the name index
  dropped; after: `Store.find_players` with the `(platform, lower(name))` index.
- `/replay` check of a random hand by someone of another community who did not play it. Before:
  the seed, the head and the table's whole action log read and searched for the hand's deal,
  then the asker looked up in it; after: `bot.core.players.replay.may_see` (the seed, the head
  and the asker's own result row).
- reading an allowed hand's entries. Before: the whole log; after: `Store.hand_actions`.

Run: ``.venv/bin/python -m benchmarks.bench_reads [--hands 1000000]`` (about two minutes here).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from benchmarks import timing
from benchmarks.timing import timed
from bot.core.errors import Refusal
from bot.core.messages import Command
from bot.core.players.replay import may_see, moves_after
from bot.core.table.session import Who
from storage import Store
from storage.models import players

START = datetime(2025, 1, 1)
BATCH = 100_000
NAME_INDEX = "ix_players_platform_lower_name"
NAME_INDEX_SQL = f"CREATE INDEX {NAME_INDEX} ON players (platform, lower(name))"
MOVES = ('{"kind": "call", "amount": 20}', '{"kind": "raise", "amount": 40}', '{"kind": "fold"}')


def fill(path: Path, hands: int, people: int, tables: int, moves: int, seed: int) -> None:
    """Bulk-insert players, tables, and `hands` hands (results, seeds, action log)."""
    rng = random.Random(seed)
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=OFF")
    now = START.isoformat(" ")
    # secondary indexes are built after the rows (much faster than row by row)
    indexes = db.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
        " AND tbl_name IN ('players', 'game_results', 'action_log', 'hand_seeds')"
    ).fetchall()
    for name, _ in indexes:
        db.execute(f"DROP INDEX {name}")
    db.executemany(
        "INSERT INTO players (id, platform, user_id, name, created_at) VALUES (?, ?, ?, ?, ?)",
        [(i, "bench", f"u{i}", f"Player {i}", now) for i in range(1, people + 1)],
    )
    db.executemany(
        "INSERT INTO tables (id, platform, channel_id, game, options, status, snapshot, version,"
        " last_seq, created_at, updated_at, community) VALUES (?, 'bench', ?, 'turkish', '{}',"
        " 'closed', '{}', 1, 0, ?, ?, ?)",
        [(t, f"ch{t}", now, now, f"c{t % 200}") for t in range(1, tables + 1)],
    )
    seats = {t: rng.sample(range(1, people + 1), 3) for t in range(1, tables + 1)}
    hand_no = dict.fromkeys(seats, 0)
    seq = dict.fromkeys(seats, 0)
    results: list[tuple[Any, ...]] = []
    seeds: list[tuple[Any, ...]] = []
    log: list[tuple[Any, ...]] = []
    at = START
    for _ in range(hands):
        t = rng.randrange(1, tables + 1)
        hand_no[t] += 1
        at += timedelta(seconds=1)
        stamp = at.isoformat(" ")
        hand = f"{t}-{hand_no[t]}"
        who = seats[t]
        setup = {"game": "turkish", "players": [str(p) for p in who], "names": ["a", "b", "c"]}
        seq[t] += 1
        deal_seq = seq[t]
        log.append((t, deal_seq, None, None, json.dumps({"kind": "start", "deals": [
            {"hand": hand, "setup": setup}]}), stamp))  # fmt: skip
        for m in range(moves):
            seq[t] += 1
            log.append((t, seq[t], m % 3, who[m % 3], MOVES[m % 3], stamp))
        seeds.append((hand, t, "ab" * 32, "cd" * 32, stamp, stamp, deal_seq))
        winner = rng.randrange(3)
        for s, pid in enumerate(who):
            delta = rng.randint(20, 400) if s == winner else -rng.randint(10, 200)
            detail = '{"v": 1, "won": true}' if s == winner else '{"v": 1, "won": false}'
            results.append((t, pid, "turkish", delta, hand, detail, stamp, f"c{t % 200}"))
        if len(results) >= BATCH:
            _flush(db, results, seeds, log)
    _flush(db, results, seeds, log)
    db.executemany("UPDATE tables SET last_seq = ? WHERE id = ?", [(s, t) for t, s in seq.items()])
    for _, sql in indexes:
        db.execute(sql)
    db.commit()
    db.execute("ANALYZE")
    db.close()


def _flush(db: sqlite3.Connection, *batches: list[tuple[Any, ...]]) -> None:
    results, seeds, log = batches
    db.executemany(
        "INSERT INTO game_results (table_id, player_id, game, chips_delta, hand_id, detail, at,"
        " community) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        results,
    )
    db.executemany(
        "INSERT INTO hand_seeds (hand_id, table_id, seed_hash, seed_hex, created_at, revealed_at,"
        " deal_seq) VALUES (?, ?, ?, ?, ?, ?, ?)",
        seeds,
    )
    db.executemany(
        "INSERT INTO action_log (table_id, seq, seat, player_id, action, at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        log,
    )
    for batch in batches:
        batch.clear()


def summary(name: str, ms: list[float]) -> str:
    """One result line, with the longer names of this benchmark."""
    return timing.summary(name, ms, width=52, digits=8)


async def old_find(store: Store, text: str) -> list[Any]:
    """The name look-up as it was before migration 0007 (one OR; the baseline)."""
    stmt = (
        sa.select(players.c.id, players.c.user_id, players.c.name)
        .where(players.c.platform == "bench")
        .where(sa.or_(players.c.user_id == text, sa.func.lower(players.c.name) == text.lower()))
        .order_by(sa.case((players.c.user_id == text, 0), else_=1), players.c.id)
        .limit(5)
    )
    async with store.engine.connect() as conn:
        return list(await conn.execute(stmt))


async def stats_of(store: Store, pid: int) -> None:
    """The three games' statistics `/stats` reads after the look-up."""
    for game in ("turkish", "acik", "okey"):
        await store.player_stats(pid, game)


async def old_check(store: Store, hand_id: str, table_id: int, player_id: int, community: str):
    """The `/replay` check as it was: the whole log read before the asker was checked."""
    record = await store.seed(hand_id)
    head = await store.table_head(table_id)
    found = moves_after(await store.actions(table_id), hand_id)
    assert record is not None and head is not None and found is not None
    deal = next(d for d in found[0].action["deals"] if d["hand"] == hand_id)
    played = str(player_id) in deal["setup"]["players"]
    return played or head.community == community


def plan(path: Path, sql: str) -> str:
    """SQLite's plan of one query, on one line."""
    db = sqlite3.connect(path)
    try:
        return " / ".join(str(row[-1]) for row in db.execute(f"EXPLAIN QUERY PLAN {sql}"))
    finally:
        db.close()


async def measure(path: Path, args: argparse.Namespace) -> None:
    """Time the look-ups and checks before and after, on random players and hands."""
    rng = random.Random(args.seed + 1)
    url = f"sqlite+aiosqlite:///{path}"
    names = [f"player {rng.randint(1, args.players)}" for _ in range(args.asked)]
    name_sql = "SELECT id FROM players WHERE platform = 'bench' AND lower(name) = 'player 7'"
    db = sqlite3.connect(path)
    db.execute(f"DROP INDEX {NAME_INDEX}")
    db.close()
    print("plan without the name index:", plan(path, name_sql))
    store = await Store.open(url, migrate=False)
    try:
        before_find = [await old_find(store, n) for n in names[:5]]
        find_old = await timed(lambda: old_find(store, rng.choice(names)), args.asked)

        async def stats_old() -> None:
            found = await old_find(store, rng.choice(names))
            await stats_of(store, found[0].id)

        stats_old_ms = await timed(stats_old, args.asked)
    finally:
        await store.close()
    db = sqlite3.connect(path)
    db.execute(NAME_INDEX_SQL)
    db.execute("ANALYZE players")
    db.close()
    print("plan with the name index:   ", plan(path, name_sql))
    store = await Store.open(url, migrate=False)
    try:
        after_find = [
            [(p.id, p.user_id, p.name) for p in await store.find_players("bench", n)]
            for n in names[:5]
        ]
        assert after_find == [[tuple(r) for r in rows] for rows in before_find]
        find_new = await timed(lambda: store.find_players("bench", rng.choice(names)), args.asked)

        async def stats_new() -> None:
            found = await store.find_players("bench", rng.choice(names))
            await stats_of(store, found[0].id)

        stats_new_ms = await timed(stats_new, args.asked)

        hands = await _sample_hands(store, rng, args.asked)
        stranger = await store.player("bench", "stranger", "Stranger")
        command = Command("bench", "x", "stranger", "Stranger", "replay", (), "en", False, "other")
        who = Who(stranger.id, "stranger", "Stranger", "en")

        async def check_old() -> None:
            hand_id, table_id, _ = rng.choice(hands)
            assert not await old_check(store, hand_id, table_id, stranger.id, "other")

        async def check_new() -> None:
            hand_id, table_id, _ = rng.choice(hands)
            try:
                await may_see(store, command, who, hand_id, table_id)
            except Refusal:
                return
            raise AssertionError("a stranger may not see it")

        async def read_old() -> None:
            hand_id, table_id, _ = rng.choice(hands)
            assert moves_after(await store.actions(table_id), hand_id) is not None

        async def read_new() -> None:
            hand_id, table_id, _ = rng.choice(hands)
            assert moves_after(await store.hand_actions(table_id, hand_id), hand_id) is not None

        check_old_ms = await timed(check_old, args.asked)
        check_new_ms = await timed(check_new, args.asked)
        read_old_ms = await timed(read_old, args.asked)
        read_new_ms = await timed(read_new, args.asked)
    finally:
        await store.close()
    print(summary("/stats <name> look-up, before (OR, no name index)", find_old))
    print(summary("/stats <name> look-up, after (name index)", find_new))
    print(summary("/stats <name> (look-up + 3 games), before", stats_old_ms))
    print(summary("/stats <name> (look-up + 3 games), after", stats_new_ms))
    print(summary("/replay check (refused stranger), before", check_old_ms))
    print(summary("/replay check (refused stranger), after", check_new_ms))
    print(summary("/replay read of an allowed hand, before (whole log)", read_old_ms))
    print(summary("/replay read of an allowed hand, after (by key)", read_new_ms))


async def _sample_hands(store: Store, rng: random.Random, count: int) -> list[tuple[str, int, int]]:
    """Random stored hands: (hand id, table id, entries in the table's log)."""
    async with store.engine.connect() as conn:
        top = (await conn.execute(sa.text("SELECT max(rowid) FROM hand_seeds"))).scalar() or 1
        out = []
        for _ in range(count):
            row = (
                await conn.execute(
                    sa.text(
                        "SELECT s.hand_id, s.table_id, t.last_seq FROM hand_seeds s"
                        " JOIN tables t ON t.id = s.table_id WHERE s.rowid >= :r LIMIT 1"
                    ),
                    {"r": rng.randint(1, top)},
                )
            ).first()
            if row is not None:
                out.append((row[0], row[1], row[2]))
        return out


async def main() -> None:
    """Fill a temporary database and print the timings."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--tables", type=int, default=2_000)
    parser.add_argument("--moves", type=int, default=3, help="logged moves per hand")
    parser.add_argument("--asked", type=int, default=100, help="look-ups and checks timed")
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "reads.db"
        store = await Store.open(f"sqlite+aiosqlite:///{path}")
        await store.close()
        started = time.perf_counter()
        fill(path, args.hands, args.players, args.tables, args.moves, args.seed)
        size = path.stat().st_size / 1e6
        print(
            f"{args.hands:,} hands ({args.hands * 3:,} results, {args.hands * (1 + args.moves):,}"
            f" log entries, {args.players:,} players, {args.tables:,} tables): {size:,.0f} MB,"
            f" filled in {time.perf_counter() - started:.0f} s"
        )
        await measure(path, args)


if __name__ == "__main__":
    asyncio.run(main())
