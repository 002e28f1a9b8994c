"""Database size per 100,000 hands before and after retention (`Store.prune`, issue 25).

Real tables are played first through the core (`testkit.replaying.play`: Türk pokeri, Açık
poker and Okey, three players, random legal moves), and their rows (table, action log, results,
seeds, ledger) are copied, renumbered, into a temporary SQLite file until it holds `--hands`
hands; every copy is a closed table (the wallets' cached balances are not filled: this file
is for its size, not for the audit). The file's size is printed after a checkpoint and
`VACUUM`, then every table is pruned through `Store.prune` (batches of 500) and the size
printed again after `VACUUM` (SQLite reuses freed pages without one; PostgreSQL's autovacuum
does the same for new rows). The pruning time is printed too.

Run: ``.venv/bin/python -m benchmarks.bench_retention [--hands 100000]`` (a minute or two).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from storage import Store
from testkit.replaying import play

TEMPLATE_HANDS = 12
COPIED = ("action_log", "game_results", "hand_seeds", "okey_penalties")


async def templates() -> list[dict[str, Any]]:
    """One played table per game: its rows by table name (ids and keys to renumber)."""
    found = []
    for number, game in enumerate(("turkish", "acik", "okey")):
        played = await play(game, 3, 100 + number, hands=TEMPLATE_HANDS)
        try:
            table_id = int(played.finished[0].split("-")[0])
            rows: dict[str, Any] = {"hands": len(played.finished)}
            async with played.store.engine.connect() as conn:

                async def rows_of(query: str, **bind: Any) -> list[dict[str, Any]]:
                    result = await conn.execute(sa.text(query), bind)
                    return [dict(r._mapping) for r in result]

                rows["tables"] = (await rows_of("SELECT * FROM tables"))[0]
                for name in COPIED:
                    query = f"SELECT * FROM {name} WHERE table_id = :t"
                    rows[name] = await rows_of(query, t=table_id)
                rows["players"] = await rows_of("SELECT * FROM players")
                rows["ledger"] = await rows_of("SELECT * FROM ledger")
                rows["old_id"] = table_id
        finally:
            await played.store.close()
        found.append(rows)
    return found


def _renumber(value: Any, old: int, new: int) -> Any:
    """Hand ids `old-…` in a text become `new-…`."""
    if isinstance(value, str):
        return value.replace(f"{old}-", f"{new}-")
    return value


def fill(path: Path, found: list[dict[str, Any]], hands: int) -> tuple[int, int]:
    """Copy the templates round robin until `hands` hands are stored; (tables, hands)."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA synchronous=OFF")
    players = {row["id"]: row for t in found for row in t["players"]}
    db.executemany(
        "INSERT INTO players (id, platform, user_id, name, created_at) VALUES (?, ?, ?, ?, ?)",
        [(r["id"], "bench", r["user_id"], r["name"], r["created_at"]) for r in players.values()],
    )
    old = datetime(2020, 1, 1, tzinfo=UTC).isoformat(" ")
    stored = table_id = 0
    while stored < hands:
        template = found[table_id % len(found)]
        table_id += 1
        stored += template["hands"]
        source = template["old_id"]
        row = dict(template["tables"], id=table_id, channel_id=f"ch{table_id}")
        row.update(status="closed", updated_at=old, tournament_id=None)
        row["snapshot"] = _renumber(row["snapshot"], source, table_id)
        _insert(db, "tables", [row])
        for name in COPIED:
            copies = []
            for item in template[name]:
                copy = {k: _renumber(v, source, table_id) for k, v in item.items()}
                copy["table_id"] = table_id
                copy.pop("id", None)
                copies.append(copy)
            _insert(db, name, copies)
        account = f"table:{source}"
        moved = [dict(r) for r in template["ledger"] if account in (r["src"], r["dst"])]
        for item in moved:
            item.pop("id")
            for side in ("src", "dst"):
                if item[side] == account:
                    item[side] = f"table:{table_id}"
            item["idempotency_key"] = None
        _insert(db, "ledger", moved)
    db.commit()
    db.close()
    return table_id, stored


def _insert(db: sqlite3.Connection, name: str, rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    columns = list(rows[0])
    marks = ", ".join("?" for _ in columns)
    db.executemany(
        f"INSERT INTO {name} ({', '.join(columns)}) VALUES ({marks})",
        [tuple(r[c] for c in columns) for r in rows],
    )


def vacuumed_size(path: Path) -> float:
    """The file's size in MB after a checkpoint and VACUUM."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("VACUUM")
    db.close()
    return path.stat().st_size / 1e6


def parts(path: Path) -> str:
    """The bytes of the pruned columns: action log JSON and snapshots."""
    db = sqlite3.connect(path)
    entries, log_bytes = db.execute(
        "SELECT count(*), coalesce(sum(length(action)), 0) FROM action_log"
    ).fetchone()
    snapshots = db.execute("SELECT coalesce(sum(length(snapshot)), 0) FROM tables").fetchone()[0]
    results = db.execute("SELECT count(*) FROM game_results").fetchone()[0]
    db.close()
    return (
        f"{entries:,} log entries ({log_bytes / 1e6:.1f} MB of JSON), snapshots"
        f" {snapshots / 1e6:.1f} MB, {results:,} results"
    )


async def main() -> None:
    """Play the templates, fill, measure, prune, measure."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=100_000)
    args = parser.parse_args()
    found = await templates()
    print("templates:", ", ".join(f"{t['tables']['game']} {t['hands']} hands" for t in found))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "retention.db"
        url = f"sqlite+aiosqlite:///{path}"
        store = await Store.open(url)
        await store.close()
        started = time.perf_counter()
        tables, hands = fill(path, found, args.hands)
        print(f"{hands:,} hands on {tables:,} closed tables, filled in"
              f" {time.perf_counter() - started:.0f} s")  # fmt: skip
        before = vacuumed_size(path)
        print(f"before: {before:8.1f} MB  ({parts(path)})")
        store = await Store.open(url, migrate=False)
        try:
            started = time.perf_counter()
            pruned = await store.prune(datetime.now(UTC), batch=500, batches=10**6)
            took = time.perf_counter() - started
        finally:
            await store.close()
        after = vacuumed_size(path)
        print(f"pruned {pruned:,} tables in {took:.1f} s")
        print(f"after:  {after:8.1f} MB  ({parts(path)})")
        per = 100_000 / hands
        print(
            f"per 100,000 hands: {before * per:.1f} MB before, {after * per:.1f} MB after"
            f" ({100 * (1 - after / before):.0f} % less)"
        )
        print(json.dumps({"hands": hands, "before_mb": before, "after_mb": after}))


if __name__ == "__main__":
    asyncio.run(main())
