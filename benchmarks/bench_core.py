"""Bot core speed with SQLite persistence: commands per second, latency percentiles, and memory
per open table.

1. Commands: 20 Türk pokeri tables of 3 players on a fresh SQLite file (WAL), played by the
   computer player's moves typed as commands, round-robin across tables. Every accepted command
   is committed (snapshot + action log + ledger) before its reply, as in production. Reported:
   commands per second (wall clock), median and 99th percentile latency per command. Beside it,
   the same moves applied to the bare engine (no core, no database): the cost of the core and
   the commit per command is the difference.
2. Memory: 1,000 tables opened, seated and dealt through the core (each holds a running hand),
   measured with tracemalloc (Python allocations of the whole process, the store's caches
   included) and divided by 1,000.

Run: `.venv/bin/python -m benchmarks.bench_core [commands] [tables for memory]`
(default 2000, 1000). The machine is shared: numbers vary with load.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from bot.core.app import Core
from bot.core.config import CoreConfig
from bot.core.messages import Command
from bot.core.table import ai
from bot.core.table.fairness import SeededSource
from games.poker import turkish
from storage import HOUSE, Store, wallet
from testkit.drive import ai_move  # the computer's move as a typed command

PLAYERS = ("ayse", "mehmet", "cem")


def command(user: str, line: str, channel: str) -> Command:
    """A command as an adapter would build it."""
    words = line.lstrip("/").split()
    return Command("bench", channel, user, user.capitalize(), words[0], tuple(words[1:]), "en")


async def seat_table(core: Core, channel: str, start: bool = True) -> None:
    """Open a table in `channel`, seat three players and deal (topping up broke wallets)."""
    for user in PLAYERS:
        await core.handle(command(user, "/balance", channel))
        player = await core.store.player("bench", user, user.capitalize())
        if await core.store.balance(wallet(player.id)) < 300:
            await core.store.transfer(HOUSE, wallet(player.id), 1000, "benchmark top-up")
    await core.handle(command(PLAYERS[0], "/poker open turkish 5", channel))
    for user in PLAYERS:
        await core.handle(command(user, "/poker join 300", channel))
    if start:
        await core.handle(command(PLAYERS[0], "/poker start", channel))


async def commands_per_second(folder: Path, total: int, tables: int = 20) -> dict[str, float]:
    """Play `total` commands across `tables` tables; per-command latency in milliseconds."""
    store = await Store.open(f"sqlite+aiosqlite:///{folder}/bench.db")
    core = Core(store, CoreConfig(default_locale="en"), seeds=SeededSource("bench"))
    channels = [f"t{i}" for i in range(tables)]
    for channel in channels:
        await seat_table(core, channel)
    latencies: list[float] = []
    started = time.perf_counter()
    done = 0
    while done < total:
        for channel in channels:
            live = core.tables.in_channel("bench", channel)
            if live is None:
                await seat_table(core, channel)
                continue
            if live.session.actor() is None:  # someone went broke: everyone stands up
                for user in PLAYERS:
                    await core.handle(command(user, "/poker leave", channel))
                continue
            user, line = ai_move(live.session)
            t0 = time.perf_counter()
            await core.handle(command(user, line, channel))
            latencies.append((time.perf_counter() - t0) * 1000)
            done += 1
    elapsed = time.perf_counter() - started
    await store.close()
    latencies.sort()
    return {
        "commands": len(latencies),
        "per_second": len(latencies) / elapsed,
        "p50_ms": statistics.median(latencies),
        "p99_ms": latencies[int(len(latencies) * 0.99) - 1],
    }


def bare_engine(total: int) -> dict[str, float]:
    """The same kind of moves on the bare Türk pokeri engine, no core and no database."""
    seeds = SeededSource("bench")
    done = 0
    started = time.perf_counter()
    for number in itertools.count():
        if done >= total:
            break
        hand = turkish.new(
            ["1", "2", "3"], [300, 300, 300], None, seeds(f"bare-{number}"), 0, ante=5
        )
        while not hand.finished and done < total:
            seat = hand.to_act()
            hand.apply(seat, ai.poker_move(hand, seat, cautious=False))
            done += 1
    return {"per_second": done / (time.perf_counter() - started)}


async def memory_per_table(folder: Path, count: int) -> dict[str, float]:
    """Bytes allocated per open table with `count` tables open (hands dealt)."""
    store = await Store.open(f"sqlite+aiosqlite:///{folder}/memory.db")
    core = Core(store, CoreConfig(default_locale="en"), seeds=SeededSource("memory"))
    await seat_table(core, "warm-up")  # engine tables, catalogues and caches load once
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    started = time.perf_counter()
    for i in range(count):
        await seat_table(core, f"m{i}")
    elapsed = time.perf_counter() - started
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    open_tables = len(core.tables.tables) - 1
    await store.close()
    return {
        "tables": open_tables,
        "bytes_per_table": (after - before) / max(open_tables, 1),
        "seconds_to_open": elapsed,
    }


async def main(total: int, tables: int) -> None:
    """Run both measurements and print them."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        speed = await commands_per_second(folder, total)
        bare = bare_engine(total)
        print(
            f"core + SQLite: {speed['commands']} commands, {speed['per_second']:.0f} commands/s, "
            f"p50 {speed['p50_ms']:.2f} ms, p99 {speed['p99_ms']:.2f} ms"
        )
        print(f"bare engine, same moves: {bare['per_second']:.0f} moves/s")
        memory = await memory_per_table(folder, tables)
        print(
            f"memory: {memory['tables']} open tables, "
            f"{memory['bytes_per_table'] / 1024:.1f} KiB per table "
            f"(opened, seated and dealt in {memory['seconds_to_open']:.1f} s)"
        )


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    asyncio.run(main(*(args + [2000, 1000][len(args) :])))
