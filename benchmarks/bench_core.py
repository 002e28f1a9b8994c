"""Bot core speed with SQLite persistence: commands per second, latency percentiles, tables
opened per second, memory per open table, and where the time of one command goes.

1. Commands: 20 Türk pokeri tables of 3 players on a fresh SQLite file (WAL), played by the
   computer player's moves typed as commands, round-robin across tables. Every accepted command
   is committed (snapshot + action log + ledger) before its reply, as in production. Reported:
   commands per second (wall clock), median and 99th percentile latency per command, and the
   process's CPU time per command (every thread: the writer's too). Beside it, the same moves
   applied to the bare engine (no core, no database): the cost of the core and the commit per
   command is the difference.
2. Tables: `tables` tables opened, seated (three players buy in) and dealt through the core
   (`/poker open`, three `/poker join`, `/poker start`: five commits), milliseconds a table;
   the players' chips are topped up once before. Beside it, the bare engine dealing as many hands.
3. Memory: as many tables again, each holding a running hand, measured with tracemalloc (Python
   allocations of the whole process, the store's caches included) and divided by their number.
4. `--breakdown`: the commands of 1. once more with the core's parts timed
   (`benchmarks/press_time.py`): wall and event-loop CPU milliseconds per command.

`--baseline PATH` runs the same measurements on another checkout of the project (e.g. `main`'s
worktree) in a child process, alternating with this one `--rounds` times (default 3), and prints
both side by side: the machine is shared, so only figures of the same run compare.

Run: `.venv/bin/python -m benchmarks.bench_core [commands] [tables] [--breakdown]
[--baseline PATH] [--rounds N]` (default 2000, 1000).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import importlib.util
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from bot.core.app import Core
from bot.core.config import CoreConfig
from bot.core.messages import Command
from bot.core.table import ai
from bot.core.table.fairness import SeededSource
from games.poker import turkish
from storage import HOUSE, Store, wallet
from testkit.drive import ai_move  # the computer's move as a typed command

PLAYERS = ("ayse", "mehmet", "cem")
BUY_IN = 300


def command(user: str, line: str, channel: str) -> Command:
    """A command as an adapter would build it."""
    words = line.lstrip("/").split()
    return Command("bench", channel, user, user.capitalize(), words[0], tuple(words[1:]), "en")


async def top_up(core: Core, chips: int) -> None:
    """Make the players known and give each at least `chips` chips."""
    for user in PLAYERS:
        await core.handle(command(user, "/balance", "lobby"))
        player = await core.store.player("bench", user, user.capitalize())
        held = await core.store.balance(wallet(player.id))
        if held < chips:
            await core.store.transfer(HOUSE, wallet(player.id), chips - held, "benchmark top-up")


async def seat_table(core: Core, channel: str, start: bool = True) -> None:
    """Open a table in `channel`, seat three players and deal (their chips topped up before)."""
    await core.handle(command(PLAYERS[0], "/poker open turkish 5", channel))
    for user in PLAYERS:
        await core.handle(command(user, f"/poker join {BUY_IN}", channel))
    if start:
        await core.handle(command(PLAYERS[0], "/poker start", channel))


def new_core(store: Store, seed: str) -> Core:
    """A core on `store` as the benchmark runs it."""
    return Core(store, CoreConfig(default_locale="en"), seeds=SeededSource(seed))


async def commands_per_second(
    folder: Path, total: int, tables: int = 20, breakdown: bool = False
) -> dict[str, Any]:
    """Play `total` commands across `tables` tables; per-command latency in milliseconds."""
    store = await Store.open(f"sqlite+aiosqlite:///{folder}/bench-{breakdown}.db")
    core = new_core(store, "bench")
    channels = [f"t{i}" for i in range(tables)]
    for channel in channels:
        await top_up(core, BUY_IN)
        await seat_table(core, channel)
    parts = None
    if breakdown:
        parts = press_time().instrument(core)
    latencies: list[float] = []
    loop_cpu = 0.0
    cpu_started, started = time.process_time(), time.perf_counter()
    while len(latencies) < total:
        for channel in channels:
            live = core.tables.in_channel("bench", channel)
            if live is None:
                await top_up(core, BUY_IN)
                await seat_table(core, channel)
                continue
            if live.session.actor() is None:  # someone went broke: everyone stands up
                for user in PLAYERS:
                    await core.handle(command(user, "/poker leave", channel))
                continue
            user, line = ai_move(live.session)
            if parts is not None:
                parts.active = True
            c0, t0 = time.thread_time(), time.perf_counter()
            await core.handle(command(user, line, channel))
            latencies.append((time.perf_counter() - t0) * 1000)
            loop_cpu += time.thread_time() - c0
            if parts is not None:
                parts.active = False
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    await store.close()
    done = len(latencies)
    result: dict[str, Any] = {
        "commands": done,
        "per_second": done / elapsed,
        "cpu_ms": cpu / done * 1000,
        "p50_ms": statistics.median(latencies),
        "p99_ms": sorted(latencies)[int(done * 0.99) - 1],
    }
    if parts is not None:
        parts.undo()
        parts.total(sum(latencies) / 1000, loop_cpu)
        result["wall_parts"] = {k: v / done * 1000 for k, v in parts.wall.items()}
        result["cpu_parts"] = {k: v / done * 1000 for k, v in parts.cpu.items()}
        result["writer_ms"] = parts.writer / done * 1000
        result["writer_commit_ms"] = parts.writer_commit / done * 1000
    return result


def press_time() -> Any:
    """The module `press_time.py` beside this file (also when run on another checkout)."""
    spec = importlib.util.spec_from_file_location(
        "press_time", Path(__file__).with_name("press_time.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bare_engine(total: int) -> dict[str, float]:
    """The same kind of moves on the bare Türk pokeri engine, no core and no database."""
    seeds = SeededSource("bench")
    done = 0
    started = time.perf_counter()
    for number in itertools.count():
        if done >= total:
            break
        hand = turkish.new(["1", "2", "3"], [BUY_IN] * 3, None, seeds(f"bare-{number}"), 0, ante=5)
        while not hand.finished and done < total:
            seat = hand.to_act()
            hand.apply(seat, ai.poker_move(hand, seat, cautious=False))
            done += 1
    return {"per_second": done / (time.perf_counter() - started)}


def bare_deals(count: int) -> dict[str, float]:
    """The bare engine dealing `count` hands of three players: milliseconds a hand."""
    seeds = SeededSource("deals")
    started = time.perf_counter()
    for number in range(count):
        turkish.new(["1", "2", "3"], [BUY_IN] * 3, None, seeds(f"deal-{number}"), 0, ante=5)
    return {"ms_per_hand": (time.perf_counter() - started) * 1000 / count}


async def tables_opened(folder: Path, count: int) -> dict[str, float]:
    """Open, seat and deal `count` tables: wall and CPU milliseconds a table."""
    store = await Store.open(f"sqlite+aiosqlite:///{folder}/tables.db")
    core = new_core(store, "tables")
    await top_up(core, BUY_IN * (count + 1))
    await seat_table(core, "warm-up")
    cpu_started, started = time.process_time(), time.perf_counter()
    for i in range(count):
        await seat_table(core, f"o{i}")
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    dealt = sum(1 for live in core.tables.tables.values() if live.session.running())
    await store.close()
    return {"tables": dealt - 1, "ms": elapsed * 1000 / count, "cpu_ms": cpu * 1000 / count}


async def memory_per_table(folder: Path, count: int) -> dict[str, float]:
    """Bytes allocated per open table with `count` tables open (hands dealt)."""
    store = await Store.open(f"sqlite+aiosqlite:///{folder}/memory.db")
    core = new_core(store, "memory")
    await top_up(core, BUY_IN * (count + 1))
    await seat_table(core, "warm-up")  # engine tables, catalogues and caches load once
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for i in range(count):
        await seat_table(core, f"m{i}")
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    open_tables = len(core.tables.tables) - 1
    await store.close()
    return {"tables": open_tables, "bytes_per_table": (after - before) / max(open_tables, 1)}


async def measure(total: int, tables: int, breakdown: bool) -> dict[str, Any]:
    """Every measurement once, on fresh databases."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        out: dict[str, Any] = {"commands": await commands_per_second(folder, total)}
        out["bare"] = bare_engine(total)
        out["tables"] = await tables_opened(folder, tables)
        out["bare_deals"] = bare_deals(tables)
        out["memory"] = await memory_per_table(folder, tables)
        if breakdown:
            out["breakdown"] = await commands_per_second(folder, total, breakdown=True)
        return out


def report(name: str, r: dict[str, Any]) -> None:
    """Print one run's figures."""
    c, tb, m = r["commands"], r["tables"], r["memory"]
    print(
        f"{name}: core + SQLite: {c['commands']} commands, {c['per_second']:.0f} commands/s, "
        f"p50 {c['p50_ms']:.2f} ms, p99 {c['p99_ms']:.2f} ms, CPU {c['cpu_ms']:.2f} ms a command"
    )
    print(f"{name}: bare engine, same moves: {r['bare']['per_second']:.0f} moves/s")
    print(
        f"{name}: {tb['tables']} tables opened, seated and dealt: {tb['ms']:.2f} ms a table "
        f"(CPU {tb['cpu_ms']:.2f} ms); bare engine dealing: {r['bare_deals']['ms_per_hand']:.3f}"
        f" ms a hand"
    )
    print(f"{name}: memory: {m['tables']} open tables, {m['bytes_per_table'] / 1024:.1f} KiB each")
    if "breakdown" in r:
        b = r["breakdown"]
        parts = sorted(b["wall_parts"], key=lambda k: -b["wall_parts"][k])
        print(f"{name}: one command ({b['p50_ms']:.2f} ms p50), ms wall / event-loop CPU:")
        for part in parts:
            print(
                f"    {part:<9} {b['wall_parts'][part]:6.3f} / {b['cpu_parts'].get(part, 0):6.3f}"
            )
        print(
            f"    (store: the writer thread's transactions {b['writer_ms']:.3f} ms a command, "
            f"{b['writer_commit_ms']:.3f} of it COMMIT and its fsync)"
        )


def child(path: str, args: list[str]) -> dict[str, Any]:
    """This benchmark run on the checkout at `path` (its packages first on the path)."""
    env = {**os.environ, "PYTHONPATH": str(Path(path).resolve())}
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), *args, "--json"],
        env=env,
        cwd=path,
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    """Parse the arguments, run, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("commands", type=int, nargs="?", default=2000)
    parser.add_argument("tables", type=int, nargs="?", default=1000)
    parser.add_argument("--breakdown", action="store_true")
    parser.add_argument("--baseline", help="another checkout of the project to compare with")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    a = parser.parse_args()
    if a.json:
        print(json.dumps(asyncio.run(measure(a.commands, a.tables, a.breakdown))))
        return
    if a.baseline is None:
        report("ours", asyncio.run(measure(a.commands, a.tables, a.breakdown)))
        return
    args = [str(a.commands), str(a.tables)] + (["--breakdown"] if a.breakdown else [])
    for number in range(a.rounds):
        print(f"-- round {number + 1} of {a.rounds}")
        report("baseline", child(a.baseline, args))
        report("ours", child(".", args))


if __name__ == "__main__":
    main()
