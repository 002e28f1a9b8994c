"""Players' presses while the database misbehaves: a SQLite file another process keeps locked
answers a press with "busy, nothing was changed" within the write budget (on an injected clock,
never the wall clock), the turn timer's write gives way to a press, and PostgreSQL connections
the server killed between two presses cost neither press."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

import storage.busy
from bot.core.i18n import t
from storage import Busy, Store
from testkit.drive import ai_move, live_session
from testkit.helpers import Clock, cmd, errors, last_buttons, make_core, press

STEP = 0.25  # seconds the injected budget clock moves on each reading


class SteppingClock:
    """A monotonic clock that moves `STEP` seconds each time it is read."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        self.now += STEP
        return self.now


@pytest.fixture
def locker(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    """Another connection to the store's file, as another process would have."""
    other = sqlite3.connect(tmp_path / "bot.db", isolation_level=None, check_same_thread=False)
    try:
        yield other
    finally:
        if other.in_transaction:
            other.execute("ROLLBACK")
        other.close()


async def dealt(core) -> list:  # type: ignore[no-untyped-def]
    out = await core.handle(cmd("ayse", "/poker open turkish 10"))
    out += await core.handle(cmd("ayse", "/poker join 200"))
    out += await core.handle(cmd("mehmet", "/poker join 200"))
    return out + await core.handle(cmd("ayse", "/poker start"))


def next_press(core, out):  # type: ignore[no-untyped-def]
    """The press of the seat to act (the computer's choice), from the newest table buttons."""
    user, line = ai_move(live_session(core))
    kind, *args = line.split()[1:]
    return press(user, last_buttons(out)[kind], *args)


async def test_a_press_behind_a_locked_database_is_refused_within_the_budget(
    store: Store, locker: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    core = make_core(store, seed="busy")
    out = await dealt(core)
    table = live_session(core).table_id
    version = (await store.get_table(table)).version
    move = next_press(core, out)
    clock = SteppingClock()
    monkeypatch.setattr(storage.busy, "monotonic", clock)
    locker.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    began = clock.now
    refused = await core.press(move)
    waited = clock.now - began
    assert errors(refused) == [t("en", "err.busy")]
    assert storage.busy.WRITE_BUDGET_S <= waited <= storage.busy.WRITE_BUDGET_S + 4 * STEP
    locker.execute("ROLLBACK")
    assert (await store.get_table(table)).version == version  # nothing was changed
    assert not errors(await core.press(move))  # the same press again: applied now, once
    assert (await store.get_table(table)).version == version + 1
    assert errors(await core.press(move))  # a third time: a stale button, nothing applied
    assert (await store.get_table(table)).version == version + 1
    assert await store.audit() == []


def test_the_busy_refusal_is_in_both_languages() -> None:
    assert "nothing was changed" in t("en", "err.busy")
    assert "hiçbir şey değişmedi" in t("tr", "err.busy")


async def test_the_timer_never_keeps_a_press_waiting(
    store: Store, locker: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    core = make_core(store, seed="busy", clock=clock)
    out = await dealt(core)
    table = live_session(core).table_id
    version = (await store.get_table(table)).version
    move = next_press(core, out)
    # Budgets far beyond the test: only the timer giving way and the lock's release end waits.
    monkeypatch.setattr(storage.busy, "TIMER_BUDGET_S", 3600.0)
    monkeypatch.setattr(storage.busy, "WRITE_BUDGET_S", 3600.0)
    gate = store._writer._gate
    assert gate is not None
    locker.execute("BEGIN IMMEDIATE")
    tick = asyncio.create_task(core.tick(clock.advance(3600)))  # every turn timer is due
    while not gate.locked():  # the timer's write waits for the file's lock
        await asyncio.sleep(0)
    pressed = asyncio.create_task(core.press(move))
    with pytest.raises(Busy) as gave_way:
        await tick
    assert gave_way.value.yielded
    locker.execute("ROLLBACK")
    assert not errors(await pressed)
    after = await store.get_table(table)
    assert after.version == version + 1
    assert not any(entry.action.get("timeout") for entry in await store.actions(table))
    assert not errors(await core.tick(clock.now))  # the timer catches up afterwards
    assert await store.audit() == []


async def _kill_the_store_connections(url: str) -> None:
    """The server ends every other session of the database (as pg_terminate_backend does)."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            killed = await conn.scalar(
                sa.text(
                    # each kill waits (up to 5 s) until that session is gone; only client
                    # sessions (an autovacuum worker of the database is not ours to end)
                    "SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                    "AND backend_type = 'client backend'"
                )
            )
            assert killed
    finally:
        await engine.dispose()


async def test_connections_killed_between_two_presses_cost_neither(
    db_url: str, backend: str
) -> None:
    if backend != "postgresql":
        pytest.skip("the server kills PostgreSQL connections")
    store = await Store.open(db_url)
    try:
        core = make_core(store, seed="kill")
        out = await dealt(core)
        table = live_session(core).table_id
        version = (await store.get_table(table)).version
        for step in (1, 2):
            tick = await core.tick()  # the timer keeps the pool busy in between
            assert not errors(tick)
            await _kill_the_store_connections(db_url)
            out = await core.press(next_press(core, out))
            assert not errors(out), out
            assert (await store.get_table(table)).version == version + step
        assert await store.audit() == []
    finally:
        await store.close()
