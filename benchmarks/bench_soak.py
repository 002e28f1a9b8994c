"""Memory while tables open and close for a long time (issue 25): `--tables` tables (10,000 by
default) opened and closed one after another through the core, console-like (an in-memory
SQLite store, the core's own clock moved by hand), each in its own channel: two players of a
pool of `--players` join, a hand of Türk pokeri is dealt and a moderator's `/table reset`
closes it. Every 1,000 tables (after a garbage collection) the Python heap in use
(`tracemalloc`) and the process's resident memory (RSS, /proc/self/statm) are printed, with
the core's own maps; the heap should stay flat once the caches are warm (the store's pages
grow with the rows, which is the database's, not a leak).

Run: ``.venv/bin/python -m benchmarks.bench_soak [--tables 10000] [--database URL]`` (a SQLite
file, `sqlite+aiosqlite:////tmp/soak.db`, keeps the database's pages out of the process).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import time
import tracemalloc
from datetime import UTC, datetime, timedelta

from bot.core.app import Core
from bot.core.config import CoreConfig
from bot.core.messages import Command, OutKind
from bot.core.table.fairness import SeededSource
from storage import Store


class Clock:
    """The core's clock, a second further at each read."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def rss_mb() -> float:
    """The resident memory of this process, in MB."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def command(user: str, line: str, channel: str, mod: bool = False) -> Command:
    """A console-like command."""
    words = line.lstrip("/").split()
    return Command(
        "console", channel, user, user.title(), words[0], tuple(words[1:]), "en", mod, "console"
    )


async def one_table(core: Core, number: int, players: int) -> None:
    """Open, seat two, deal and reset one table in channel `number`."""
    channel = f"room-{number}"
    a, b = f"p{number % players}", f"p{(number + 1) % players}"
    for user, line, mod in (
        (a, "/poker open turkish 10", False),
        (a, "/poker join 200", False),
        (b, "/poker join 200", False),
        (a, "/poker start", False),
        ("moderator", "/table reset soak", True),
    ):
        out = await core.handle(command(user, line, channel, mod))
        refused = [o.text for o in out if o.kind is OutKind.ERROR]
        assert not refused, (line, refused)


async def main() -> None:
    """Open and close the tables, printing memory every 1,000."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--every", type=int, default=1_000)
    parser.add_argument(
        "--database", default="sqlite+aiosqlite://", help="a file keeps the rows out of the RSS"
    )
    args = parser.parse_args()
    store = await Store.open(args.database)
    core = Core(store, CoreConfig(default_locale="en"), clock=Clock(), seeds=SeededSource("soak"))
    tracemalloc.start()
    started = time.perf_counter()
    print(f"{'tables':>7} {'heap MB':>8} {'RSS MB':>8} {'open':>5} {'players':>8} {'s':>6}")
    try:
        for number in range(1, args.tables + 1):
            await one_table(core, number, args.players)
            if number % args.every == 0:
                gc.collect()
                heap, _ = tracemalloc.get_traced_memory()
                cached = len(core.accounts._players)
                print(
                    f"{number:>7,} {heap / 1e6:>8.1f} {rss_mb():>8.1f}"
                    f" {len(core.tables.tables):>5} {cached:>8} "
                    f"{time.perf_counter() - started:>6.0f}"
                )
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main())
