"""`/history`, `/stats` and `/leaderboard` at the store level on a SQLite database holding a
million hands (target: under 50 ms each).

The database is migrated by `Store.open`, then filled in bulk with the standard library's
sqlite3 (`executemany`, not the Store one result at a time): players with wallets, tables, and
`--hands` hands of three players each (Türk pokeri and Açık poker hands with their statistics
detail, Okey rounds, and an Okey match row with its penalty totals every three rounds). The
indexes the history queries read by, `game_results (player_id, game, at)` and
`(player_id, at)`, come with migration 0004; the script creates them when the schema does not
have them yet (and says so). The bulk fill bypasses `Store.commit`, so it then fills the win
tallies with migration 0005's own backfill statement; a file kept (`--keep`) from an older schema
is migrated to the newest (the time it took is printed: 0005 counts every won result). Then, for `--players-asked` random players, it times the Store
calls each command makes and prints the median and the 95th percentile, and the query plans.

Run: ``.venv/bin/python -m benchmarks.bench_history [--hands 1000000] [--keep PATH]``.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import random
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from benchmarks.timing import summary, timed
from storage import Store
from storage.migrate import current_revision, head_revision

INDEXES = {
    "ix_game_results_player_id_game_at": "game_results (player_id, game, at)",
    "ix_game_results_player_id_at": "game_results (player_id, at)",
}
START = datetime(2025, 1, 1)
BATCH = 50_000


def _detail(rng: random.Random, game: str, delta: int) -> dict[str, Any]:
    won = delta > 0
    detail: dict[str, Any] = {
        "v": 1,
        "won": won,
        "pot_won": delta * 2 if won else 0,
        "pot": abs(delta) * 3 + 30,
        "showdown": rng.random() < 0.3,
        "showdown_won": won and rng.random() < 0.5,
        "folded": None
        if won or rng.random() < 0.5
        else rng.randint(1, 2 if game == "turkish" else 4),
    }
    if game == "turkish":
        detail.update(
            opened=rng.random() < 0.3, passed=rng.random() < 0.5, drew=rng.choice([None, 1, 2, 3])
        )
    return detail


def fill(path: Path, hands: int, players: int, tables: int, seed: int) -> None:
    """Bulk-insert players, wallets, tables and `hands` hands' results into the database."""
    rng = random.Random(seed)
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=OFF")
    now = START.isoformat(" ")
    db.executemany(
        "INSERT INTO players (id, platform, user_id, name, created_at) VALUES (?, ?, ?, ?, ?)",
        [(i, "bench", f"u{i}", f"Player {i}", now) for i in range(1, players + 1)],
    )
    db.executemany(
        "INSERT INTO wallets (account, player_id, balance, updated_at) VALUES (?, ?, ?, ?)",
        [(f"player:{i}", i, rng.randint(0, 50_000), now) for i in range(1, players + 1)],
    )
    games = [("turkish", 0.45), ("acik", 0.35), ("okey", 0.20)]
    table_game = [
        rng.choices([g for g, _ in games], [w for _, w in games])[0] for _ in range(tables)
    ]
    db.executemany(
        "INSERT INTO tables (id, platform, channel_id, game, options, status, snapshot, version,"
        " last_seq, created_at, updated_at) VALUES (?, 'bench', ?, ?, '{}', 'closed', '{}', 1, 0,"
        " ?, ?)",
        [(t + 1, f"ch{t}", g, now, now) for t, g in enumerate(table_game)],
    )
    seats = {t: rng.sample(range(1, players + 1), 3) for t in range(tables)}
    hand_no = [0] * tables
    rounds = [0] * tables
    totals: dict[int, list[int]] = {}
    rows: list[tuple[Any, ...]] = []
    penalties: list[tuple[Any, ...]] = []
    at = START
    for _ in range(hands):
        t = rng.randrange(tables)
        game = table_game[t]
        hand_no[t] += 1
        at += timedelta(seconds=1)
        stamp = at.isoformat(" ")
        hand_id = f"{t + 1}-{hand_no[t]}"
        if game == "okey":
            winner = rng.randrange(3)
            charges = [0 if s == winner else rng.choice([2, 4, 8]) for s in range(3)]
            acc = totals.setdefault(t, [0, 0, 0])
            for s, pid in enumerate(seats[t]):
                detail = {
                    "v": 1, "kind": "round", "match": f"{t + 1}-m", "won": s == winner,
                    "okey_discard": s == winner and rng.random() < 0.1,
                    "pairs": s == winner and rng.random() < 0.05,
                    "penalty": charges[s], "indicator": rng.random() < 0.05,
                }  # fmt: skip
                acc[s] += charges[s]
                rows.append((t + 1, pid, game, 0, hand_id, json.dumps(detail), stamp))
            rounds[t] += 1
            if rounds[t] % 3 == 0:
                match_id = f"{t + 1}-m{rounds[t] // 3}"
                best = min(acc)
                for s, pid in enumerate(seats[t]):
                    delta = 100 if acc[s] == best else -50
                    detail = {"v": 1, "kind": "match", "points": acc[s], "rounds": 3}
                    rows.append((t + 1, pid, game, delta, match_id, json.dumps(detail), stamp))
                    penalties.append((pid, match_id, t + 1, acc[s], stamp))
                totals[t] = [0, 0, 0]
        else:
            winner = rng.randrange(3)
            for s, pid in enumerate(seats[t]):
                delta = rng.randint(20, 400) if s == winner else -rng.randint(10, 200)
                detail = json.dumps(_detail(rng, game, delta))
                rows.append((t + 1, pid, game, delta, hand_id, detail, stamp))
        if len(rows) >= BATCH:
            _flush(db, rows, penalties)
    _flush(db, rows, penalties)
    db.commit()
    db.close()


def _flush(
    db: sqlite3.Connection, rows: list[tuple[Any, ...]], penalties: list[tuple[Any, ...]]
) -> None:
    db.executemany(
        "INSERT INTO game_results (table_id, player_id, game, chips_delta, hand_id, detail, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    db.executemany(
        "INSERT INTO okey_penalties (player_id, match_id, table_id, points, updated_at)"
        " VALUES (?, ?, ?, ?, ?)",
        penalties,
    )
    rows.clear()
    penalties.clear()


def backfill_win_tallies(path: Path) -> None:
    """Fill ``win_tallies`` from the results the way migration 0005 does (its own statement)."""
    script = Path(__file__).resolve().parents[1] / "storage/migrations/versions/0005_win_tallies.py"
    spec = importlib.util.spec_from_file_location("migration_0005", script)
    assert spec is not None and spec.loader is not None
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    db = sqlite3.connect(path)
    db.execute(migration.BACKFILL)
    db.commit()
    db.close()


async def migrate(path: Path) -> str | None:
    """Migrate a kept file to the newest schema; what was done, or None when it was there."""
    store = await Store.open(f"sqlite+aiosqlite:///{path}", migrate=False)
    try:
        was = await current_revision(store.engine)
    finally:
        await store.close()
    if was == head_revision():
        return None
    start = time.perf_counter()
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    await store.close()
    return f"migrated {was} -> {head_revision()} in {time.perf_counter() - start:.1f} s"


def ensure_indexes(path: Path) -> list[str]:
    """Create the history indexes migration 0004 brings when they are missing; their names."""
    db = sqlite3.connect(path)
    have = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    made = []
    for name, target in INDEXES.items():
        if name not in have:
            db.execute(f"CREATE INDEX {name} ON {target}")
            made.append(name)
    db.execute("ANALYZE")
    db.commit()
    db.close()
    return made


async def measure(path: Path, players: int, asked: int, seed: int) -> None:
    """Time the Store calls behind each command for `asked` random players."""
    rng = random.Random(seed)
    store = await Store.open(f"sqlite+aiosqlite:///{path}", migrate=False)
    try:
        pids = [rng.randint(1, players) for _ in range(asked)]
        await store.history(pids[0])  # warm the pool and the statement cache

        async def each(call: Callable[[int], Awaitable[Any]]) -> list[float]:
            ms: list[float] = []
            for pid in pids:
                ms += await timed(lambda pid=pid: call(pid), 1)
            return ms

        async def stats_all(pid: int) -> None:
            for game in ("turkish", "acik", "okey"):
                await store.player_stats(pid, game)
            await store.chip_history(pid, None, 100)

        rows = [
            ("/history (all games)", await each(lambda p: store.history(p, None, 10))),
            ("/history turkish", await each(lambda p: store.history(p, ["turkish"], 10))),
            ("/history poker (two games)", await each(lambda p: store.history(p, ["turkish", "acik"], 10))),
            ("/stats turkish (stats + chart)", await each(lambda p: _stats_one(store, p, "turkish"))),
            ("/stats okey (stats + chart)", await each(lambda p: _stats_one(store, p, "okey"))),
            ("/stats (all three games + chart)", await each(stats_all)),
        ]  # fmt: skip
        for kind in ("chips", "okey", "wins"):
            ms = await timed(lambda kind=kind: store.leaderboard(kind, limit=10), asked)  # type: ignore[misc]
            rows.append((f"/leaderboard {kind}", ms))
        for name, ms in rows:
            print(summary(name, ms))
    finally:
        await store.close()


async def _stats_one(store: Store, pid: int, game: str) -> None:
    await store.player_stats(pid, game)
    await store.chip_history(pid, [game], 100)


def plans(path: Path) -> None:
    """The query plans of the history queries (an index search, never a scan)."""
    from sqlalchemy.dialects import sqlite

    from storage import history as h

    db = sqlite3.connect(path)
    dialect = sqlite.dialect()
    stmts = {"stats turkish": h._POKER_STATS, "stats okey": h._OKEY_STATS}
    for name, stmt in stmts.items():
        compiled = stmt.compile(dialect=dialect)
        values = compiled.construct_params({"player_id": 1, "game": "turkish"})
        positional = [values[key] for key in compiled.positiontup or ()]
        plan = db.execute("EXPLAIN QUERY PLAN " + str(compiled), positional).fetchall()
        print(f"plan {name}: " + "; ".join(r[3] for r in plan))
    for name, where in (("history all", ""), ("history turkish", "AND game = 'turkish'")):
        sql = (
            "SELECT * FROM game_results WHERE player_id = 1 "
            + where
            + " ORDER BY at DESC, id DESC LIMIT 10"
        )
        print(f"plan {name}: " + "; ".join(r[3] for r in db.execute("EXPLAIN QUERY PLAN " + sql)))
    from storage.boards import board_query

    for community in (None, "g1"):
        stmt = board_query("wins", 10, None, community)
        sql = str(stmt.compile(dialect=dialect, compile_kwargs={"literal_binds": True}))
        plan = "; ".join(r[3] for r in db.execute("EXPLAIN QUERY PLAN " + sql))
        print(f"plan leaderboard wins ({community or 'everyone'}): {plan}")
    db.close()


async def main() -> None:
    """Fill (or reuse with --keep) the database and measure."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=3_000)
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--players-asked", type=int, default=200)
    parser.add_argument("--keep", type=Path, help="database file to fill once and reuse")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "history.db"
        fresh = not path.exists()
        if fresh:
            store = await Store.open(f"sqlite+aiosqlite:///{path}")
            await store.close()
            start = time.perf_counter()
            fill(path, args.hands, args.players, args.tables, seed=18)
            print(f"filled {args.hands:,} hands in {time.perf_counter() - start:.0f} s")
            start = time.perf_counter()
            backfill_win_tallies(path)
            print(f"filled the win tallies in {time.perf_counter() - start:.1f} s")
        else:
            done = await migrate(path)
            if done:
                print(done)
        made = ensure_indexes(path)
        if made:
            print("created (migration 0004 not in this schema yet): " + ", ".join(made))
        db = sqlite3.connect(path)
        count = db.execute("SELECT count(*) FROM game_results").fetchone()[0]
        db.close()
        print(
            f"game_results rows: {count:,}; players: {args.players:,}; file {path.stat().st_size / 1e6:.0f} MB"
        )
        plans(path)
        await measure(path, args.players, args.players_asked, seed=1)


if __name__ == "__main__":
    asyncio.run(main())
