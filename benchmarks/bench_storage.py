"""Settled hands per second: Store.commit on SQLite and PostgreSQL, beside hand-written raw SQL.

A hand = one transaction holding a new snapshot (~2 KB of JSON), one action log entry and five
chip transfers (escrow -> three winners, two rake/tip transfers). The peer in the same run does the
same statements by hand (sqlite3 from the standard library; asyncpg for PostgreSQL), so the figure
shows what the Store's safety (version compare-and-set, locked wallets, validation) costs.

Run: ``.venv/bin/python -m benchmarks.bench_storage [--hands N] [--no-postgres]``. PostgreSQL is
measured on BENCH_DATABASE_URL, or else on a fresh database of the throwaway cluster `.ci/run` uses
(see benchmarks/scratch_postgres.py); its tables are dropped, so never point BENCH_DATABASE_URL at a
deployment (nor at TEST_DATABASE_URL while tests run).
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
from sqlalchemy.ext.asyncio import create_async_engine

from benchmarks.scratch_postgres import scratch_database
from storage import HOUSE, ActionEntry, Store, Transfer, escrow, wallet
from storage.models import metadata

PLAYERS = 5
SNAPSHOT = {
    "hand": 0,
    "deck": [f"{r}{s}" for r in "23456789TJQKA" for s in "hsdc"] * 4,
    "log": "x" * 600,
}
AT = datetime(2026, 1, 1, tzinfo=UTC)
WARM_UP = 10  # hands per table before the clock starts


def hand_transfers(table_id: int, players: list[int], n: int) -> list[Transfer]:
    """The five transfers of hand ``n``."""
    pot = escrow(table_id)
    return [
        Transfer(pot, wallet(players[n % PLAYERS]), 3, "pot"),
        Transfer(pot, wallet(players[(n + 1) % PLAYERS]), 2, "side pot"),
        Transfer(wallet(players[(n + 2) % PLAYERS]), pot, 4, "ante"),
        Transfer(wallet(players[(n + 3) % PLAYERS]), pot, 1, "ante"),
        Transfer(pot, HOUSE, 0 + 1, "rake"),
    ]


async def setup(store: Store, channel: str) -> tuple[int, list[int]]:
    """A table with five funded players sitting at it."""
    players = [(await store.player("bench", f"{channel}-{i}", f"P{i}")).id for i in range(PLAYERS)]
    table = await store.create_table("bench", channel, "turkish", {}, SNAPSHOT)
    for p in players:
        await store.transfer(HOUSE, wallet(p), 1_000_000, "grant")
        await store.buy_in(table.id, p, 500_000)
    return table.id, players


async def play(store: Store, table_id: int, players: list[int], hands: int) -> None:
    """Settle ``hands`` hands one after another on one table."""
    version = (await store.get_table(table_id)).version
    for n in range(hands):
        version = await store.commit(
            table_id,
            version,
            SNAPSHOT | {"hand": n},
            action=ActionEntry(0, players[0], {"kind": "call"}, AT),
            transfers=hand_transfers(table_id, players, n),
        )


async def bench_store(url: str, hands: int, tables: int) -> float:
    """Hands per second through Store.commit, with ``tables`` tables played concurrently."""
    store = await Store.open(url)
    try:
        seats = [await setup(store, f"c{t}") for t in range(tables)]
        for t, ps in seats:  # warm up: connections opened, statements compiled and cached
            await play(store, t, ps, WARM_UP)
        start = time.perf_counter()
        await asyncio.gather(*(play(store, t, ps, hands // tables) for t, ps in seats))
        elapsed = time.perf_counter() - start
        assert await store.audit() == []
        return (hands // tables) * tables / elapsed
    finally:
        await store.close()


RAW_SQL = {
    "table": "UPDATE tables SET version=version+1, last_seq=last_seq+1, snapshot=?, updated_at=? "
    "WHERE id=? AND version=? RETURNING last_seq",
    "action": "INSERT INTO action_log (table_id, seq, seat, player_id, action, at) "
    "VALUES (?,?,?,?,?,?)",
    "ledger": "INSERT INTO ledger (src, dst, amount, reason, created_at) VALUES (?,?,?,?,?)",
    "wallet": "UPDATE wallets SET balance=balance+?, updated_at=? WHERE account=?",
}


def raw_hand(table_id: int, players: list[int], n: int, version: int) -> dict[str, Any]:
    """The parameters of the raw peers' statements for hand ``n`` (the action's seq comes later)."""
    now = AT.isoformat()
    items = hand_transfers(table_id, players, n)
    deltas: dict[str, int] = {}
    for t in items:
        deltas[t.src] = deltas.get(t.src, 0) - t.amount
        deltas[t.dst] = deltas.get(t.dst, 0) + t.amount
    return {
        "table": (json.dumps(SNAPSHOT | {"hand": n}), now, table_id, version),
        "action": (0, players[0], '{"kind": "call"}', now),
        "ledger": [(t.src, t.dst, t.amount, t.reason, now) for t in items],
        "wallet": [(d, now, a) for a, d in deltas.items()],
    }


def bench_raw_sqlite(path: Path, table_id: int, players: list[int], hands: int) -> float:
    """The same hands as hand-written SQL over the standard library's sqlite3 (no asyncio)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    version = conn.execute("SELECT version FROM tables WHERE id=?", (table_id,)).fetchone()[0]
    start = time.perf_counter()
    for n in range(hands):
        args = raw_hand(table_id, players, n, version)
        conn.execute("BEGIN IMMEDIATE")
        seq = conn.execute(RAW_SQL["table"], args["table"]).fetchone()[0]
        conn.execute(RAW_SQL["action"], (table_id, seq, *args["action"]))
        conn.executemany(RAW_SQL["ledger"], args["ledger"])
        conn.executemany(RAW_SQL["wallet"], args["wallet"])
        conn.execute("COMMIT")
        version += 1
    elapsed = time.perf_counter() - start
    conn.close()
    return hands / elapsed


async def bench_raw_aiosqlite(path: Path, table_id: int, players: list[int], hands: int) -> float:
    """The same hand-written SQL through aiosqlite: what asyncio's thread hop costs alone."""
    import aiosqlite

    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA synchronous=FULL")
        async with conn.execute("SELECT version FROM tables WHERE id=?", (table_id,)) as cur:
            version = (await cur.fetchone())[0]  # type: ignore[index]
        start = time.perf_counter()
        for n in range(hands):
            args = raw_hand(table_id, players, n, version)
            await conn.execute("BEGIN IMMEDIATE")
            async with conn.execute(RAW_SQL["table"], args["table"]) as cur:
                seq = (await cur.fetchone())[0]  # type: ignore[index]
            await conn.execute(RAW_SQL["action"], (table_id, seq, *args["action"]))
            await conn.executemany(RAW_SQL["ledger"], args["ledger"])
            await conn.executemany(RAW_SQL["wallet"], args["wallet"])
            await conn.execute("COMMIT")
            version += 1
        return hands / (time.perf_counter() - start)


async def bench_raw_asyncpg(url: str, table_id: int, players: list[int], hands: int) -> float:
    """The same hands as hand-written SQL over asyncpg directly."""
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    version = await conn.fetchval("SELECT version FROM tables WHERE id=$1", table_id)
    start = time.perf_counter()
    for n in range(hands):
        items = hand_transfers(table_id, players, n)
        deltas: dict[str, int] = {}
        for t in items:
            deltas[t.src] = deltas.get(t.src, 0) - t.amount
            deltas[t.dst] = deltas.get(t.dst, 0) + t.amount
        async with conn.transaction():
            seq = await conn.fetchval(
                "UPDATE tables SET version=version+1, last_seq=last_seq+1, snapshot=$1::jsonb, "
                "updated_at=now() WHERE id=$2 AND version=$3 RETURNING last_seq",
                json.dumps(SNAPSHOT | {"hand": n}),
                table_id,
                version,
            )
            await conn.execute(
                "INSERT INTO action_log (table_id, seq, seat, player_id, action, at) "
                'VALUES ($1,$2,0,$3,\'{"kind": "call"}\'::jsonb, now())',
                table_id,
                seq,
                players[0],
            )
            await conn.fetch(
                "SELECT balance FROM wallets WHERE account = ANY($1::text[]) "
                "ORDER BY account FOR UPDATE",
                sorted(deltas),
            )
            await conn.executemany(
                "INSERT INTO ledger (src, dst, amount, reason, created_at) VALUES ($1,$2,$3,$4,now())",
                [(t.src, t.dst, t.amount, t.reason) for t in items],
            )
            await conn.executemany(
                "UPDATE wallets SET balance=balance+$1, updated_at=now() WHERE account=$2",
                [(d, a) for a, d in deltas.items()],
            )
        version += 1
    elapsed = time.perf_counter() - start
    await conn.close()
    return hands / elapsed


async def drop_all(url: str) -> None:
    """Empty the PostgreSQL benchmark database."""
    engine = create_async_engine(url)
    async with engine.begin() as conn:
        await conn.run_sync(metadata.drop_all)
        await conn.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
    await engine.dispose()


async def raw_setup(url: str) -> tuple[int, list[int]]:
    """A fresh table for the raw peer, made through the Store."""
    store = await Store.open(url)
    try:
        return await setup(store, "raw")
    finally:
        await store.close()


async def sqlite_round(tmp: str, n: int, hands: int) -> dict[tuple[str, str], float]:
    """One round of every SQLite measurement, each on a fresh database file."""
    rates = {}
    for tables in (1, 8):
        url = f"sqlite+aiosqlite:///{tmp}/store{n}-{tables}.db"
        rates["sqlite", f"store{tables}"] = await bench_store(url, hands, tables)
    path = Path(tmp) / f"raw{n}.db"
    table_id, players = await raw_setup(f"sqlite+aiosqlite:///{path}")
    rates["sqlite", "raw"] = bench_raw_sqlite(path, table_id, players, hands)
    rates["sqlite", "raw aiosqlite"] = await bench_raw_aiosqlite(path, table_id, players, hands)
    return rates


async def postgres_round(url: str, hands: int) -> dict[tuple[str, str], float]:
    """One round of every PostgreSQL measurement, each on freshly created tables."""
    rates = {}
    for tables in (1, 8):
        await drop_all(url)
        rates["postgresql", f"store{tables}"] = await bench_store(url, hands, tables)
    await drop_all(url)
    table_id, players = await raw_setup(url)
    rates["postgresql", "raw"] = await bench_raw_asyncpg(url, table_id, players, hands)
    await drop_all(url)
    return rates


PEERS = {"sqlite": "sqlite3", "postgresql": "asyncpg"}


def report(best: dict[tuple[str, str], float]) -> list[str]:
    """The table of best rates: Store.commit beside the raw peer of the same run, and their ratio."""
    lines = [
        f"{'backend':<11} {'Store.commit':>13} {'8 tables':>10} {'raw peer':>13} {'ratio':>16}",
    ]
    for backend, peer in PEERS.items():
        if (backend, "raw") not in best:
            continue
        store, raw = best[backend, "store1"], best[backend, "raw"]
        lines.append(
            f"{backend:<11} {store:>11.0f}/s {best[backend, 'store8']:>8.0f}/s "
            f"{raw:>9.0f}/s {'(' + peer + ')':<11} {store / raw:>5.2f}"
        )
    if ("sqlite", "raw aiosqlite") in best:
        lines.append(
            f"{'':<11} {'':>13} {'':>10} {best['sqlite', 'raw aiosqlite']:>9.0f}/s (aiosqlite)"
        )
    return lines


async def main() -> None:
    """Measure and print hands per second for each backend (best of a few rounds)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-postgres", action="store_true", help="measure SQLite only")
    args = parser.parse_args()
    pg, source = (
        (None, "--no-postgres") if args.no_postgres else await scratch_database("ttb_bench")
    )
    best: dict[tuple[str, str], float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.rounds):
            rates = await sqlite_round(tmp, n, args.hands)
            if pg:
                rates |= await postgres_round(pg, args.hands)
            for name, rate in rates.items():
                best[name] = max(best.get(name, 0.0), rate)
    print(
        f"settled hands per second, best of {args.rounds} rounds of {args.hands} hands "
        "(1 hand = snapshot + log entry + 5 transfers in one transaction); "
        "ratio = Store.commit (1 table) / raw peer"
    )
    for line in report(best):
        print("  " + line)
    print(f"  postgresql: {source}" if pg else f"  postgresql skipped: {source}")


if __name__ == "__main__":
    asyncio.run(main())
