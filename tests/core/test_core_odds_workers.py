"""Açık poker's live odds in the worker processes (`bot.core.poker.odds_cache`): the same figures
as `estimate` on the spot for every kind of position, and no process left once the core closes,
nor once the process that started them is killed (`kill -9`)."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.core.poker import odds_cache, parent_watch
from games.poker.odds import estimate
from testkit.helpers import make_core
from testkit.odds import positions


async def test_the_workers_give_the_same_odds_as_on_the_spot():
    odds_cache.ODDS.clear()
    views = positions()
    await odds_cache.prepare(views)
    assert len(odds_cache.ODDS) == len(views)
    kinds = set()
    for view in views:
        kept = odds_cache.ODDS[odds_cache.position(view)]
        assert kept == estimate(view)
        kinds.add((kept.exact, kept.error > 0))
    assert kinds == {(True, False), (False, True)}  # exact and Monte Carlo both came by


async def test_closing_the_core_ends_the_worker_processes(memory_store):
    odds_cache.ODDS.clear()
    await odds_cache.prepare(positions()[:2])  # in the pool, started now or by an earlier test
    workers = {p.pid for p in multiprocessing.active_children()}  # the tests start no others
    pool = odds_cache.Workers.running
    assert workers and pool is not None
    core = make_core(memory_store)
    await core.close()
    assert odds_cache.Workers.running is None
    assert not workers & {p.pid for p in multiprocessing.active_children()}
    await core.close()  # again: nothing to do
    assert odds_cache.Workers.pool() is not pool  # the next odds would start a new pool
    odds_cache.shutdown()


async def test_a_dead_worker_costs_no_odds_and_a_new_pool_takes_over(caplog):
    odds_cache.ODDS.clear()
    views = positions()
    await odds_cache.prepare(views[:1])
    broken = odds_cache.Workers.running
    for worker in multiprocessing.active_children():
        os.kill(worker.pid, signal.SIGKILL)
        worker.join()
    await odds_cache.prepare(views[1:3])  # the first in a thread, the broken pool ended
    assert "odds_workers_broken" in caplog.text
    assert [odds_cache.ODDS[odds_cache.position(v)] for v in views[1:3]] == [
        estimate(v) for v in views[1:3]
    ]
    assert odds_cache.Workers.running is not None and odds_cache.Workers.running is not broken


ROOT = Path(__file__).resolve().parents[2]
# A process that starts the odds pool (a worker and the resource tracker), says so and waits.
STARTS_THE_POOL = """
import asyncio, sys, time
from bot.core.poker import odds_cache
from testkit.odds import positions
asyncio.run(odds_cache.prepare(positions()[:2]))
print("ready", flush=True)
time.sleep(600)
"""
GONE_WITHIN = 15.0  # seconds: a bound on waiting for the processes, not a speed asserted


def _stat(pid: int) -> tuple[str, int] | None:
    """A live process's state letter and parent pid (from /proc), None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    state, ppid = text.rsplit(")", 1)[1].split()[:2]
    return state, int(ppid)


def children_of(parent: int) -> set[int]:
    """The pids whose parent is `parent` (every process under /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None and stat[1] == parent:
                found.add(int(entry.name))
    return found


def running(pids: set[int]) -> set[int]:
    """Those of `pids` still running (a zombie has ended: it only waits to be reaped)."""
    return {pid for pid in pids if (stat := _stat(pid)) is not None and stat[0] != "Z"}


def test_the_workers_and_their_tracker_end_when_the_bot_is_killed():
    proc = subprocess.Popen(
        [sys.executable, "-c", STARTS_THE_POOL],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    left: set[int] = set()
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        left = children_of(proc.pid)
        assert len(left) >= 2  # at least one worker and the resource tracker
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + GONE_WITHIN
        while running(left) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not running(left), f"still running after the bot was killed: {running(left)}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in running(left):  # only what this test started
            os.kill(pid, signal.SIGKILL)


def test_a_worker_started_after_its_parent_died_ends_at_once(monkeypatch):
    exits: list[int] = []

    def exit_now(code: int) -> None:
        exits.append(code)
        raise SystemExit(code)

    monkeypatch.setattr(parent_watch.os, "_exit", exit_now)
    monkeypatch.setattr(parent_watch.threading, "Thread", None)  # no watcher may start here
    with contextlib.suppress(SystemExit):
        parent_watch.watch_parent(os.getppid() + 1)
    assert exits == [parent_watch.ORPHAN_EXIT]
