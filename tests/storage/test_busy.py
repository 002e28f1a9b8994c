"""A SQLite file another connection keeps locked: a write waits only its budget (then Busy,
nothing written), the timer's writes give way to players' writes, and nothing is applied twice.

The budgets run on an injected clock (`storage.busy.monotonic`): the test checks that the write
gave up on the budget's path, never how long it took on the wall clock."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

import storage.busy
from storage import Busy, StaleVersion, Store, background_writes
from storage.busy import WriteGate
from testkit.stores import open_file_store
from tests.storage.helpers import funded_player

STEP = 0.25  # seconds the injected clock moves on each reading


class SteppingClock:
    """A monotonic clock that moves `STEP` seconds each time it is read."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += STEP
        return self.now


@pytest.fixture
async def file_store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await open_file_store(tmp_path)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def locker(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    """Another connection to the same file (as another process would have), not locking yet."""
    other = sqlite3.connect(tmp_path / "bot.db", isolation_level=None, check_same_thread=False)
    try:
        yield other
    finally:
        if other.in_transaction:
            other.execute("ROLLBACK")
        other.close()


async def open_table(store: Store) -> int:
    player = await funded_player(store, "p", 100)
    table = await store.create_table("discord", "c", "turkish", {}, {"n": 0})
    await store.buy_in(table.id, player, 50)
    return table.id


async def test_a_players_write_behind_a_locked_file_gives_up_at_its_budget(
    file_store: Store, locker: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await open_table(file_store)
    clock = SteppingClock()
    monkeypatch.setattr(storage.busy, "monotonic", clock)
    locker.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    began = clock.now
    with pytest.raises(Busy) as refused:
        await file_store.commit(table, 1, {"n": 1})
    waited = clock.now - began
    assert refused.value.seconds == storage.busy.WRITE_BUDGET_S and not refused.value.yielded
    assert storage.busy.WRITE_BUDGET_S <= waited <= storage.busy.WRITE_BUDGET_S + 2 * STEP
    with pytest.raises(Busy):  # the async write path keeps the same budget
        await file_store.player("discord", "q", "Q")
    locker.execute("ROLLBACK")
    assert (await file_store.get_table(table)).version == 1  # nothing was written
    assert await file_store.commit(table, 1, {"n": 1}) == 2  # the retry applies it, once
    with pytest.raises(StaleVersion):
        await file_store.commit(table, 1, {"n": 1})
    assert (await file_store.get_table(table)).snapshot == {"n": 1}


async def test_a_timer_write_gives_way_to_a_players_write(
    file_store: Store, locker: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await open_table(file_store)
    # Budgets far beyond the test: only the giving way and the lock's release end the waits.
    monkeypatch.setattr(storage.busy, "TIMER_BUDGET_S", 3600.0)
    monkeypatch.setattr(storage.busy, "WRITE_BUDGET_S", 3600.0)
    gate = file_store._writer._gate
    assert gate is not None
    locker.execute("BEGIN IMMEDIATE")

    async def timer_write() -> int:
        with background_writes():
            return await file_store.commit(table, 1, {"by": "timer"})

    timer = asyncio.create_task(timer_write())
    while not gate.locked():  # the timer's write now waits for the file's lock
        await asyncio.sleep(0)
    player = asyncio.create_task(file_store.commit(table, 1, {"by": "player"}))
    with pytest.raises(Busy) as gave_way:
        await timer
    assert gave_way.value.yielded
    assert not player.done()  # still waiting for the other connection, not for the timer
    locker.execute("ROLLBACK")
    assert await player == 2
    assert (await file_store.get_table(table)).snapshot == {"by": "player"}


async def test_the_async_timer_write_gives_way_too(
    file_store: Store, locker: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    await open_table(file_store)
    monkeypatch.setattr(storage.busy, "TIMER_BUDGET_S", 3600.0)
    monkeypatch.setattr(storage.busy, "WRITE_BUDGET_S", 3600.0)
    gate = file_store._writer._gate
    assert gate is not None
    locker.execute("BEGIN IMMEDIATE")
    from datetime import UTC, datetime

    async def claim() -> object:
        with background_writes():
            return await file_store.claim_due(datetime(2030, 1, 1, tzinfo=UTC))

    timer = asyncio.create_task(claim())
    while not gate.locked():
        await asyncio.sleep(0)
    player = asyncio.create_task(file_store.player("discord", "q", "Q"))
    with pytest.raises(Busy):
        await timer
    locker.execute("ROLLBACK")
    assert (await player).name == "Q"


async def test_the_gate_lets_waiting_players_pass_waiting_timer_writes() -> None:
    gate = WriteGate()
    order: list[str] = []
    await gate.acquire(background=False)

    async def take(name: str, background: bool) -> None:
        await gate.acquire(background=background)
        order.append(name)
        gate.release()

    waiters = [
        asyncio.create_task(take("timer 1", True)),
        asyncio.create_task(take("player 1", False)),
        asyncio.create_task(take("timer 2", True)),
        asyncio.create_task(take("player 2", False)),
    ]
    await asyncio.sleep(0)
    assert gate.players_waiting() == 2
    gate.release()
    await asyncio.gather(*waiters)
    assert order == ["player 1", "player 2", "timer 1", "timer 2"]
    assert not gate.locked()


async def test_a_cancelled_waiter_passes_the_gate_on() -> None:
    gate = WriteGate()
    await gate.acquire(background=False)
    first = asyncio.create_task(gate.acquire(background=False))
    second = asyncio.create_task(gate.acquire(background=True))
    await asyncio.sleep(0)
    gate.release()  # handed to `first`...
    first.cancel()  # ...which is cancelled before it runs: `second` must get it
    with pytest.raises(asyncio.CancelledError):
        await first
    await second
    assert gate.locked() and gate.players_waiting() == 0
    gate.release()
    assert not gate.locked()


async def test_a_write_past_its_budget_still_runs_when_the_file_is_free(
    file_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await open_table(file_store)
    readings = iter(range(0, 10**6, 100))  # every reading: 100 s later (a long queue, say)
    monkeypatch.setattr(storage.busy, "monotonic", lambda: float(next(readings)))
    assert await file_store.commit(table, 1, {"n": 1}) == 2
    with background_writes():
        assert (await file_store.player("discord", "q", "Q")).name == "Q"
