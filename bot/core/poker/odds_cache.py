"""Açık poker's live odds, kept per position and worked out off the event loop.

The Monte Carlo of `games.poker.odds.estimate` costs tens of milliseconds. It depends only on
what its viewer sees: the hand's seed hash (its sampling seed), the house rules, every seat's up
cards, who folded and, for a player's own chance, their down card. That is the cache key
(`position`); bets, stacks and whose turn it is are not in it, so the same figures serve a whole
betting round and survive a refused press (which rebuilds the table's session from its snapshot).

`prepare` works the figures out in a small pool of worker processes (`WORKERS`, started on first
use) before the core builds a message that shows them (the table service calls it under the
table's lock, so the event loop serves other tables meanwhile); `odds` then reads them from the
cache and only computes on the spot for a position nobody prepared. Processes, not a thread:
`estimate` is mostly Python, which holds the GIL, so in a thread it slowed every table's buttons
(`benchmarks/bench_odds_loop.py`, docs/rules/acik.md). `shutdown` ends the pool (the bot's
shutdown path calls it through `Core.close`); a later `prepare` starts a new one. When the bot is
killed instead, each worker notices its parent is gone and ends (`parent_watch`), and with them
the resource tracker, so a supervisor restarting the bot piles nothing up.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
from collections.abc import Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.caches import Lru
from bot.core.poker.parent_watch import watch_parent
from bot.logs import kv
from games.poker.odds import Odds, estimate

log = logging.getLogger("bot.core")

# positions kept (a table holds a handful at a time: the public one and each asker's own)
ODDS: Lru[tuple[Any, ...], Odds] = Lru(2048)
WORKERS = 2  # worker processes at most (fewer on a machine with fewer cores)


class Counter:
    """How many times the odds were worked out (tests read it; nothing else)."""

    computed = 0


class Workers:
    """The process pool `prepare` uses, started on first use (`pool`) and ended by `shutdown`."""

    running: ProcessPoolExecutor | None = None

    @classmethod
    def pool(cls) -> ProcessPoolExecutor:
        """The running pool, started now if there is none. Spawned, not forked: the bot's
        process has threads (the database driver's, the default executor's) a fork would copy
        mid-step."""
        if cls.running is None:
            cls.running = ProcessPoolExecutor(
                max_workers=min(WORKERS, os.cpu_count() or 1),
                mp_context=multiprocessing.get_context("spawn"),
                initializer=watch_parent,  # a killed bot leaves no worker behind
                initargs=(os.getpid(),),
            )
        return cls.running


def shutdown(broken: bool = False) -> None:
    """End the worker processes, if any, and wait for them (idempotent). `broken`: a worker
    died, so the others are killed first: one started while the pool broke can be left
    waiting for the result queue's lock the dead worker held, and the pool's own clean-up
    would wait on it forever (CPython's `terminate_broken` misses a worker spawned meanwhile)."""
    pool, Workers.running = Workers.running, None
    if pool is None:
        return
    if broken:
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.kill()
    pool.shutdown(wait=True, cancel_futures=True)


def position(view: Mapping[str, Any]) -> tuple[Any, ...]:
    """The cache key of a view: everything `estimate` reads, nothing else."""
    seat = view.get("seat")
    down = view.get("down") if seat is not None and not view.get("down_hidden") else None
    return (
        view.get("seed_hash"),
        bool(view.get("finished")),
        json.dumps(view.get("rules"), sort_keys=True),
        tuple(tuple(cards) for cards in view["up"]),
        tuple(bool(out) for out in view["folded"]),
        seat,
        down,
    )


def _work_out(view: Mapping[str, Any]) -> Odds:
    Counter.computed += 1
    return estimate(view)


def odds(view: Mapping[str, Any]) -> Odds:
    """The odds of `view`'s position: from the cache, else worked out now (and kept)."""
    return ODDS.get_or_make(position(view), lambda: _work_out(view))


async def prepare(views: Iterable[Mapping[str, Any]]) -> None:
    """Work out, in a worker process, the odds of each view whose position is not kept yet
    (the same `Odds` as `odds` gives: `estimate` is deterministic)."""
    for view in views:
        key = position(view)
        if key not in ODDS:
            ODDS.put(key, await _in_worker(view))


async def _in_worker(view: Mapping[str, Any]) -> Odds:
    """`estimate(view)` in the pool; if a worker died (the pool is broken), in a thread this
    once, the broken pool ended so that the next odds start a new one."""
    Counter.computed += 1
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(Workers.pool(), estimate, dict(view))
    except BrokenProcessPool:
        log.warning(kv(event="odds_workers_broken"))
        await asyncio.to_thread(shutdown, True)
        return await asyncio.to_thread(estimate, view)
