"""Skill ratings' cost (docs/ratings.md, docs/storage.md "Ratings").

1. Settling a hand: four people play Türk pokeri through the core (the computer player's moves
   typed as commands) on a fresh SQLite file, once with ratings on and once with them off
   (`CoreConfig.ratings`), the same seeds so both play the very same hands, alternating
   `--rounds` times. Timed: each `Store.commit` that carries a hand's results (the settling
   commit, where the rating update runs inside the transaction) and each whole command that
   settled a hand. Reported side by side: median and 99th percentile milliseconds and what the
   ratings add; and the update itself (`storage.ratings.record_ratings`), wall and the writer
   thread's CPU time (target < 1 ms p99). On a shared, loaded machine the whole-commit p99 is
   the disk's and the scheduler's, and only the update's own CPU time is steady.
2. The rating board: `players` (default 100,000) rated players in one game and community (plus
   their global rows and a second game's), then `Store.rating_board` of the community, of
   everyone, and of everyone on one platform, `--reads` times each: median and p99 (target
   < 20 ms), with the query plan. On SQLite, and on PostgreSQL when BENCH_DATABASE_URL or
   TEST_DATABASE_URL is set (a database `bench_ratings` is made on that server and dropped).

Run: `.venv/bin/python -m benchmarks.bench_ratings [--hands N] [--rounds N] [--players N]
[--reads N] [--dir /dev/shm]`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from benchmarks.rated_rows import rating_row
from benchmarks.scratch_postgres import fresh_database
from bot.core.app import Core
from bot.core.config import CoreConfig
from bot.core.messages import Command
from bot.core.table.fairness import SeededSource
from storage import HOUSE, Store, wallet
from storage.models import ALL_COMMUNITIES, players, ratings
from storage.ratings import board_query
from testkit.drive import ai_move

PEOPLE = ("ayse", "mehmet", "cem", "deniz")
BUY_IN = 300
NOW = datetime(2026, 12, 6, tzinfo=UTC)


def command(user: str, line: str, channel: str) -> Command:
    """A command as an adapter would build it, in the community `bench`."""
    words = line.lstrip("/").split()
    return Command(
        "bench", channel, user, user.capitalize(), words[0], tuple(words[1:]), "en", False, "bench"
    )


def percentiles(ms: list[float]) -> tuple[float, float]:
    """(median, 99th percentile)."""
    ordered = sorted(ms)
    return statistics.median(ordered), ordered[max(0, int(len(ordered) * 0.99) - 1)]


UPDATES: list[float] = []  # milliseconds of each rating update inside its transaction
UPDATES_CPU: list[float] = []  # and the writer thread's CPU milliseconds for it


def time_updates() -> None:
    """Time `storage.ratings.record_ratings` (the writer thread runs it inside the commit)."""
    from storage import ratings as rating_ops

    update = rating_ops.record_ratings

    def timed(*args: Any, **kwargs: Any) -> int:
        start, cpu = time.perf_counter(), time.thread_time()
        try:
            return update(*args, **kwargs)
        finally:
            UPDATES.append((time.perf_counter() - start) * 1000)
            UPDATES_CPU.append((time.thread_time() - cpu) * 1000)

    rating_ops.record_ratings = timed  # type: ignore[assignment]


async def settle_times(
    folder: Path, on: bool, hands: int, seed: str
) -> tuple[list[float], list[float]]:
    """Milliseconds of each settling commit of `hands` hands, and of each whole command that
    settled one (the move, its commit, its messages), ratings `on` or off."""
    store = await Store.open(f"sqlite+aiosqlite:///{folder}/settle-{on}-{seed}.db")
    core = Core(store, CoreConfig(default_locale="en", ratings=on), seeds=SeededSource(seed))
    commits: list[float] = []
    commands: list[float] = []
    commit = store.commit

    async def timed_commit(*args: Any, **kwargs: Any) -> int:
        start = time.perf_counter()
        version = await commit(*args, **kwargs)
        if kwargs.get("results"):
            commits.append((time.perf_counter() - start) * 1000)
        return version

    store.commit = timed_commit  # type: ignore[method-assign]
    table = 0
    try:
        while len(commits) < hands:
            channel = f"t{table}"
            for user in PEOPLE:
                await core.handle(command(user, "/balance", "lobby"))
                player = await store.player("bench", user, user.capitalize())
                held = await store.balance(wallet(player.id))
                if held < BUY_IN:
                    await store.transfer(HOUSE, wallet(player.id), BUY_IN - held, "top-up")
            await core.handle(command(PEOPLE[0], "/poker open turkish 5", channel))
            for user in PEOPLE:
                await core.handle(command(user, f"/poker join {BUY_IN}", channel))
            await core.handle(command(PEOPLE[0], "/poker start", channel))
            while len(commits) < hands:
                live = core.tables.in_channel("bench", channel)
                if live is None or live.session.actor() is None:
                    break
                user, line = ai_move(live.session)
                settled = len(commits)
                start = time.perf_counter()
                await core.handle(command(user, line, channel))
                if len(commits) > settled:
                    commands.append((time.perf_counter() - start) * 1000)
            for user in PEOPLE:
                await core.handle(command(user, "/poker leave", channel))
            table += 1
    finally:
        await store.close()
    return commits, commands


async def settling(hands: int, rounds: int, where: str | None) -> None:
    """Part 1: ratings on and off side by side (the SQLite files in `where`, default the
    system's temporary folder; `/dev/shm` takes the disk's fsync out)."""
    time_updates()
    on: dict[str, list[float]] = {"commit": [], "command": []}
    off: dict[str, list[float]] = {"commit": [], "command": []}
    with tempfile.TemporaryDirectory(dir=where) as folder:
        for n in range(rounds):
            seed = f"round-{n}"
            for side, flag in ((off, False), (on, True)):
                commits, commands = await settle_times(Path(folder), flag, hands, seed)
                side["commit"] += commits
                side["command"] += commands
    count = len(on["commit"])
    print(f"settling a hand, {count} hands each way (SQLite file, 4 people, Türk pokeri)")
    for what in ("commit", "command"):
        (m_off, p_off), (m_on, p_on) = percentiles(off[what]), percentiles(on[what])
        print(f"  {what}: ratings off median {m_off:6.2f} ms   p99 {p_off:6.2f} ms")
        print(f"  {what}: ratings on  median {m_on:6.2f} ms   p99 {p_on:6.2f} ms")
        print(f"  {what}: added       median {m_on - m_off:+6.2f} ms   p99 {p_on - p_off:+6.2f} ms")
    m_up, p_up = percentiles(UPDATES)
    print(f"  the update itself: wall median {m_up:6.2f} ms   p99 {p_up:6.2f} ms")
    m_up, p_up = percentiles(UPDATES_CPU)
    print(f"  the update itself: CPU  median {m_up:6.2f} ms   p99 {p_up:6.2f} ms")


async def fill(store: Store, count: int) -> None:
    """`count` players on platform `bench` with ratings in `turkish` (community `g1` and
    global) and in `okey` (global)."""
    rng = random.Random(36)
    people = [
        {"platform": "bench", "user_id": f"u{n}", "name": f"P{n}", "created_at": NOW}
        for n in range(count)
    ]
    async with store.engine.begin() as conn:
        for start in range(0, count, 5000):
            await conn.execute(players.insert(), people[start : start + 5000])
        ids = list(await conn.scalars(sa.select(players.c.id).where(players.c.platform == "bench")))
        rows = []
        for pid in ids:
            for game, community in (
                ("turkish", "g1"),
                ("turkish", ALL_COMMUNITIES),
                ("okey", ALL_COMMUNITIES),
            ):
                rows.append(rating_row(rng, pid, game, community, rng.randrange(1, 400), NOW))
        for start in range(0, len(rows), 5000):
            await conn.execute(ratings.insert(), rows[start : start + 5000])
        await conn.execute(sa.text("ANALYZE"))


async def plan_of(store: Store, stmt: Any) -> str:
    """The database's plan of `stmt`, one line."""
    async with store.engine.connect() as conn:
        sql = str(stmt.compile(dialect=conn.dialect, compile_kwargs={"literal_binds": True}))
        if conn.dialect.name == "postgresql":
            lines = [row[0] for row in await conn.execute(sa.text("EXPLAIN " + sql))]
            return " / ".join(line.strip() for line in lines)
        rows = await conn.execute(sa.text("EXPLAIN QUERY PLAN " + sql))
        return " / ".join(str(row[-1]) for row in rows)


async def boards(url: str, label: str, count: int, reads: int) -> None:
    """Part 2 on the database at `url`."""
    store = await Store.open(url)
    try:
        started = time.perf_counter()
        await fill(store, count)
        print(
            f"rating board over {count:,} rated players ({label}; filled in {time.perf_counter() - started:.0f} s)"
        )
        cases = {
            "community g1": ("g1", None),
            "everyone": (None, None),
            "everyone on the platform": (None, "bench"),
        }
        async with store.engine.connect() as conn:
            someone = int(await conn.scalar(sa.select(sa.func.min(ratings.c.player_id))) or 0)
        peer: list[float] = []  # a primary-key read between the board reads: the baseline
        for name, (community, platform) in cases.items():
            for _ in range(20):
                await store.rating_board("turkish", community, 10, platform)
            ms = []
            for _ in range(reads):
                start = time.perf_counter()
                rows = await store.rating_board("turkish", community, 10, platform)
                ms.append((time.perf_counter() - start) * 1000)
                start = time.perf_counter()
                await store.rating(someone, "turkish", "g1")
                peer.append((time.perf_counter() - start) * 1000)
            assert len(rows) == 10
            median, p99 = percentiles(ms)
            print(f"  {name:<26} median {median:6.2f} ms   p99 {p99:6.2f} ms")
            key = ALL_COMMUNITIES if community is None else community
            plan = await plan_of(store, board_query("turkish", key, 10 if platform is None else 40))
            print(f"    plan: {plan}")
        median, p99 = percentiles(peer)
        print(f"  {'peer: one rating by key':<26} median {median:6.2f} ms   p99 {p99:6.2f} ms")
    finally:
        await store.close()


async def postgres_url() -> str | None:
    """A fresh database `bench_ratings` on BENCH_DATABASE_URL's or TEST_DATABASE_URL's server."""
    base = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL")
    return await fresh_database(base, "bench_ratings") if base else None


async def main() -> None:
    """Both parts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--reads", type=int, default=500)
    parser.add_argument("--dir", default=None, help="where the settling part's SQLite files go")
    args = parser.parse_args()
    await settling(args.hands, args.rounds, args.dir)
    with tempfile.TemporaryDirectory() as folder:
        await boards(
            f"sqlite+aiosqlite:///{folder}/board.db", "SQLite file", args.players, args.reads
        )
    url = await postgres_url()
    if url is None:
        print("PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)")
        return
    await boards(url, "PostgreSQL", args.players, args.reads)


if __name__ == "__main__":
    asyncio.run(main())
