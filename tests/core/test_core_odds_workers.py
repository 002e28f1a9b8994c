"""Açık poker's live odds in the worker processes (`bot.core.poker.odds_cache`): the same figures
as `estimate` on the spot for every kind of position, and no process left once the core closes."""

from __future__ import annotations

import multiprocessing
import os
import signal

from bot.core.poker import odds_cache
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
