"""The tournament service's locks: one per tournament while a task holds or waits on it, none
left for a tournament nobody is acting on (the map never grows with every tournament seen)."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.tournament.locks import KeyedLocks
from testkit.helpers import Clock, cmd, errors, make_core
from tests.tournament.test_tournament_core import play_to_end, register


async def test_a_key_is_held_by_one_task_at_a_time_in_order() -> None:
    locks = KeyedLocks()
    order: list[str] = []
    release = asyncio.Event()

    async def first() -> None:
        async with locks.hold(1):
            order.append("first in")
            await release.wait()
            order.append("first out")

    async def second() -> None:
        async with locks.hold(1):
            order.append("second in")

    async def other() -> None:
        async with locks.hold(2):
            order.append("other in")

    tasks = [asyncio.create_task(first()), asyncio.create_task(second())]
    await asyncio.sleep(0)
    await other()  # another key never waits for this one
    assert order == ["first in", "other in"]
    assert len(locks) == 1  # key 1 held and waited on, key 2 already dropped
    release.set()
    await asyncio.gather(*tasks)
    assert order == ["first in", "other in", "first out", "second in"]
    assert len(locks) == 0


async def test_a_waiter_cancelled_leaves_the_holders_lock_in_place() -> None:
    locks = KeyedLocks()
    release = asyncio.Event()
    inside: list[int] = []

    async def hold(n: int) -> None:
        async with locks.hold(7):
            inside.append(n)
            await release.wait()

    holder = asyncio.create_task(hold(1))
    await asyncio.sleep(0)
    waiter = asyncio.create_task(hold(2))
    await asyncio.sleep(0)
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    assert len(locks) == 1  # the holder's lock is kept: a newcomer still waits for it
    late = asyncio.create_task(hold(3))
    await asyncio.sleep(0)
    assert inside == [1]
    release.set()
    await asyncio.gather(holder, late)
    assert inside == [1, 3] and len(locks) == 0


async def test_no_lock_is_left_once_tournaments_are_over(memory_store) -> None:
    clock = Clock()
    core = make_core(memory_store, clock=clock)
    await register(core, 4)
    assert len(core.tournaments.locks) == 0  # joined: the lock went with the join
    assert not errors(await core.handle(cmd("org", "/tournament start")))
    record, _ = await play_to_end(core, clock, memory_store)
    assert record.status == "finished"
    await register(core, 3, "/tournament okey 50 1")
    assert not errors(await core.handle(cmd("org", "/tournament cancel")))
    assert len(core.tournaments.locks) == 0
