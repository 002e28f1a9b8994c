"""The event loop's lag while Açık poker's live odds are worked out: in a worker thread (as the
bot did) against the worker processes of `bot.core.poker.odds_cache` (as it does), beside the
same loop with no odds at all, in the same run.

    .venv/bin/python -m benchmarks.bench_odds_loop [--tables 4] [--hands 8] [--rounds 3]
        [--workers 2]

- A ticker on the loop sleeps 1 ms at a time; its lag is how late each wake-up comes (what a
  button press on any table waits for the loop on top of its own work).
- `--tables` tables work their odds out at once, each its share of `--hands` random 10-player
  positions per street 1-4 (`bench_odds.views`, mostly the numpy Monte Carlo, some exact), one
  after the other like a table's streets: "thread" awaits `asyncio.to_thread(estimate, view)`,
  "process" awaits `odds_cache.prepare([view])` (its cache emptied first) with `--workers`
  processes at most (`odds_cache.WORKERS`).
- "none" is the ticker alone for as long as the thread run took. The three run in turn
  `--rounds` times (the machine is shared) and their lags are pooled: the ticks per second (a
  starved loop ticks less often), p50 / p99 / max, and the positions worked out per second. The pool's start (spawned processes) is
  timed apart, before the rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from benchmarks.bench_odds import RULES, p99, views
from bot.core.poker import odds_cache
from games.poker.odds import estimate
from games.poker.odds_vector import evaluator

TICK = 0.001  # the ticker's sleep, seconds
Work = Callable[[dict[str, Any]], Awaitable[Any]]


async def in_thread(view: dict[str, Any]) -> Any:
    """The odds in a worker thread of the loop's default executor (the bot before)."""
    return await asyncio.to_thread(estimate, view)


async def in_process(view: dict[str, Any]) -> Any:
    """The odds through `odds_cache.prepare`: in its worker processes (the bot now)."""
    await odds_cache.prepare([view])
    return odds_cache.odds(view)


async def measure(
    positions: Sequence[dict[str, Any]], tables: int, work: Work | None, seconds: float
) -> tuple[list[float], float]:
    """The ticker's lags (seconds) while `tables` tables work out `positions` with `work` (none:
    the ticker alone for `seconds`), and the wall time the work took."""
    lags: list[float] = []
    stop = asyncio.Event()

    async def ticker() -> None:
        while not stop.is_set():
            start = time.perf_counter()
            await asyncio.sleep(TICK)
            lags.append(time.perf_counter() - start - TICK)

    async def table(mine: Sequence[dict[str, Any]]) -> None:
        assert work is not None
        for view in mine:
            await work(view)

    running = asyncio.create_task(ticker())
    await asyncio.sleep(0.05)  # the ticker settles
    lags.clear()
    start = time.perf_counter()
    if work is None:
        await asyncio.sleep(seconds)
    else:
        odds_cache.ODDS.clear()
        await asyncio.gather(*(table(positions[t::tables]) for t in range(tables)))
    wall = time.perf_counter() - start
    stop.set()
    await running
    return lags, wall


def line(name: str, lags: list[float], walls: list[float], count: int) -> str:
    """One result line of a mode: the ticks the loop managed per second, the lag's p50 / p99 /
    max in ms and the odds' pace."""
    ms = [lag * 1e3 for lag in lags]
    pace = f", odds {count / sum(walls):4.0f} positions/s" if count else ""
    return (
        f"  {name:<8} {len(ms) / sum(walls):4.0f} ticks/s  lag p50 {statistics.median(ms):5.2f} ms  "
        f"p99 {p99(ms):6.2f} ms  max {max(ms):6.2f} ms{pace}"
    )


async def run(tables: int, hands: int, rounds: int) -> None:
    """Print the three modes' lags."""
    positions = [view for street in range(1, 5) for view in views(street, hands)]
    evaluator(RULES)  # the thread's tables built once, like the workers' below
    start = time.perf_counter()
    await in_process(views(4, 1, players=2)[0])
    await in_process(positions[0])  # every worker has built its tables at least once
    await in_process(positions[1])
    print(f"worker processes started and warmed in {(time.perf_counter() - start) * 1e3:.0f} ms")
    print(f"{len(positions)} positions (10 players, streets 1-4), {tables} tables at once:")
    pooled: dict[str, list[float]] = {"none": [], "thread": [], "process": []}
    walls: dict[str, list[float]] = {"none": [], "thread": [], "process": []}
    for _ in range(rounds):
        lags, wall = await measure(positions, tables, in_thread, 0)
        pooled["thread"] += lags
        walls["thread"].append(wall)
        lags, wall = await measure(positions, tables, in_process, 0)
        pooled["process"] += lags
        walls["process"].append(wall)
        lags, wall = await measure(positions, tables, None, walls["thread"][-1])
        pooled["none"] += lags
        walls["none"].append(wall)
    for name in ("none", "thread", "process"):
        count = 0 if name == "none" else len(positions) * rounds
        print(line(name, pooled[name], walls[name], count))
    odds_cache.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=odds_cache.WORKERS)
    args = parser.parse_args()
    odds_cache.WORKERS = args.workers
    asyncio.run(run(args.tables, args.hands, args.rounds))


if __name__ == "__main__":
    main()
