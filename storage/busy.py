"""How long a write may wait for a busy SQLite file, and who goes first: players before the timer.

Another process holding SQLite's write lock (a second bot process, a backup, an operator's
``sqlite3`` shell) makes every write of this process wait. A player's write waits at most
``WRITE_BUDGET_S`` for the lock, then fails with ``Busy`` (nothing written; the player is told to
try again); the turn timer's writes (made inside ``background_writes()``) wait at most
``TIMER_BUDGET_S`` and give up at once when a player's write is waiting behind them, and players'
writes pass the timer's in the in-process queue (``WriteGate``). Write connections wait for the
lock in slices of ``BUSY_SLICE_MS`` (SQLite's own busy handler), so the deadline and the yield
are checked between slices without ever holding the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncTransaction

from storage.errors import Busy

WRITE_BUDGET_S = 3.0  # a player's write waits this long for a busy SQLite file, then Busy
TIMER_BUDGET_S = 1.0  # the timer's write: shorter, and it yields to a waiting player's write
BUSY_SLICE_MS = 50  # a write connection's busy timeout: the lock is polled in slices this long
SQLITE_BUSY = 5  # SQLite's primary result code for "database is locked" (extended codes share it)

monotonic: Callable[[], float] = time.monotonic  # the deadlines' clock (tests inject their own)
_background: ContextVar[bool] = ContextVar("storage_background_writes", default=False)


@contextlib.contextmanager
def background_writes() -> Iterator[None]:
    """Within this block (and the tasks it starts), writes are the turn timer's: they wait at
    most ``TIMER_BUDGET_S`` for a busy SQLite file, and every player's write goes first."""
    token = _background.set(True)
    try:
        yield
    finally:
        _background.reset(token)


def in_background() -> bool:
    """Whether the current task writes for the timer (inside ``background_writes()``)."""
    return _background.get()


@dataclass(frozen=True)
class Budget:
    """How long a write (or a group of them) may wait for SQLite's write lock.

    ``deadline`` is on ``monotonic``; a ``background`` budget also gives up as soon as
    ``players_waiting()`` says a player's write queues behind it.
    """

    deadline: float
    seconds: float
    background: bool
    players_waiting: Callable[[], int]

    def expired(self) -> bool:
        """Whether the write has waited its whole budget."""
        return monotonic() >= self.deadline

    def give_up(self) -> Busy | None:
        """The error to fail with now (the budget ran out, or a player's write waits behind a
        timer's), or None to keep waiting for the lock."""
        if self.background and self.players_waiting():
            return Busy(self.seconds, yielded=True)
        if self.expired():
            return Busy(self.seconds)
        return None


def budget_now(players_waiting: Callable[[], int]) -> Budget:
    """The budget of a write starting now, as the current task's kind (player or timer) sets."""
    background = in_background()
    seconds = TIMER_BUDGET_S if background else WRITE_BUDGET_S
    return Budget(monotonic() + seconds, seconds, background, players_waiting)


def earliest(budgets: list[Budget]) -> Budget:
    """One budget for a group of writes sharing a transaction: the players' earliest deadline
    (a player's write never waits longer than its own budget), else the timer's earliest."""
    players = [b for b in budgets if not b.background]
    return min(players or budgets, key=lambda b: b.deadline)


def is_busy(exc: BaseException) -> bool:
    """Whether ``exc`` is SQLite's "database is locked" (another connection holds the lock)."""
    orig = getattr(exc, "orig", exc)
    code = getattr(orig, "sqlite_errorcode", None)
    if code is not None:
        return bool(code & 0xFF == SQLITE_BUSY)
    return "database is locked" in str(orig)


def begin_in_time(conn: sa.Connection, budget: Budget) -> sa.RootTransaction:
    """``conn.begin()`` (BEGIN IMMEDIATE), retried while SQLite is busy until ``budget`` gives up
    (then Busy; nothing began). For a write connection whose busy timeout is one slice. The lock
    is always tried once: a write that waited its budget in this process's queue still runs when
    the file is free."""
    while True:
        try:
            return conn.begin()
        except sa.exc.OperationalError as exc:
            if not is_busy(exc):
                raise
        if (refusal := budget.give_up()) is not None:
            raise refusal


async def begin_in_time_async(conn: AsyncConnection, budget: Budget) -> AsyncTransaction:
    """Like ``begin_in_time`` for an async connection (each slice waits in the driver's thread)."""
    while True:
        try:
            return await conn.begin()
        except sa.exc.OperationalError as exc:
            if not is_busy(exc):
                raise
        if (refusal := budget.give_up()) is not None:
            raise refusal


class WriteGate:
    """The in-process lock of SQLite's one writer, players first.

    ``async with gate`` takes it for the current task's kind (``in_background()``): a waiting
    player's write is let in before every waiting timer's write; each kind in arrival order.
    The lock is handed straight to the next waiter on release, so nobody barges in between.
    """

    def __init__(self) -> None:
        self._held = False
        self._players: deque[asyncio.Future[None]] = deque()
        self._timer: deque[asyncio.Future[None]] = deque()

    def locked(self) -> bool:
        """Whether some task holds the gate."""
        return self._held

    def players_waiting(self) -> int:
        """How many players' writes wait for the gate (read from the writer thread too)."""
        return len(self._players)

    async def __aenter__(self) -> None:
        await self.acquire(background=in_background())

    async def __aexit__(self, *exc: object) -> None:
        self.release()

    async def acquire(self, *, background: bool) -> None:
        """Wait for the gate: a timer's write (``background``) only once no player's waits."""
        if not self._held and not self._players and (not background or not self._timer):
            self._held = True
            return
        queue = self._timer if background else self._players
        mine: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue.append(mine)
        try:
            await mine
        except asyncio.CancelledError:
            if mine.done() and not mine.cancelled():  # handed over meanwhile: pass it on
                self.release()
            elif mine in queue:
                queue.remove(mine)
            raise

    def release(self) -> None:
        """Hand the gate to the next waiter (players first), or free it."""
        for queue in (self._players, self._timer):
            while queue:
                nxt = queue.popleft()
                if not nxt.done():
                    nxt.set_result(None)  # stays held: ownership passes to that waiter
                    return
        self._held = False
