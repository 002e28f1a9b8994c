"""Group commit for a SQLite file: write transactions run in one thread and share their COMMIT.

SQLite has one writer and a COMMIT with ``synchronous=FULL`` waits for the disk, so the cost of a
small write is mostly its fsync. Work queued while the thread is busy runs next as ONE transaction,
each piece inside its own SAVEPOINT: a piece that raises is rolled back alone (its caller gets its
exception) and the others commit together with one fsync. Every piece still does all its own
checks (version compare-and-set, funds, keys), exactly as if it ran alone, in queue order.

Another process may hold SQLite's write lock: a group waits for it only within its budget
(storage.busy; the earliest player's deadline among its pieces), and a group of the timer's pieces
alone gives way as soon as a player's write queues behind it. Then every piece fails with Busy.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import sqlalchemy as sa

from storage.busy import Budget, WriteGate, begin_in_time, earliest

T = TypeVar("T")
Work = Callable[[sa.Connection], Any]
Entry = tuple[Work, "asyncio.Future[Any]", Budget | None]
Outcome = tuple[bool, Any]  # (True, result) or (False, the exception it raised)


class GroupCommitter:
    """Runs synchronous write work on ``engine`` in one thread, grouping what queues up meanwhile.

    ``lock`` is the writer's in-process gate: holding it while a group runs keeps the other write
    paths of the same process (async transactions) from contending for SQLite's write lock.
    """

    def __init__(self, engine: sa.Engine, lock: WriteGate, options: dict[str, Any]) -> None:
        self.engine = engine
        self._lock = lock
        self._options = options
        self._queue: list[Entry] = []
        self._conn: sa.Connection | None = None  # used in the writer thread only
        self._thread: ThreadPoolExecutor | None = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="storage-writer"
        )

    async def run(self, work: Callable[[sa.Connection], T], budget: Budget | None = None) -> T:
        """Run ``work(conn)`` in a transaction (maybe shared); its result, or raise its error.
        With a ``budget``, a busy file is waited for only that long (then Busy)."""
        mine: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        entry: Entry = (work, mine, budget)
        self._queue.append(entry)
        try:
            async with self._lock:
                if not mine.done():  # else an earlier group already ran it
                    group, self._queue = self._queue, []
                    await self._run_group(group)
        except asyncio.CancelledError:
            if entry in self._queue:  # not started: it never will
                self._queue.remove(entry)
            else:  # it runs in a group all the same; nobody will look at how it ended
                mine.add_done_callback(_consume)
            raise
        return mine.result()

    async def _run_group(self, group: list[Entry]) -> None:
        if self._thread is None:
            raise RuntimeError("the store is closed")
        budgets = [b for _, _, b in group if b is not None]
        budget = earliest(budgets) if budgets else None
        done = asyncio.get_running_loop().run_in_executor(
            self._thread, self._in_thread, [w for w, _, _ in group], budget
        )
        try:
            await asyncio.wait([done])  # never raises done's error: each caller gets its own below
        finally:
            if not done.done():  # we were cancelled: the thread ends the transaction anyway
                await asyncio.wait([done])
            failure = done.exception()
            outcomes = [(False, failure)] * len(group) if failure else done.result()
            for (_, future, _), (ok, value) in zip(group, outcomes, strict=True):
                if future.done():
                    continue
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)

    def _in_thread(self, works: list[Work], budget: Budget | None) -> list[Outcome]:
        # The writer thread keeps its connection open between transactions (no pool round).
        if self._conn is None or self._conn.invalidated or self._conn.closed:
            self._conn = self.engine.connect().execution_options(**self._options)
        return _run_in_thread(self._conn, works, budget)

    def _close_in_thread(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self.engine.dispose()

    async def close(self) -> None:
        """Close the thread's connections and end the thread."""
        if self._thread is not None:
            thread, self._thread = self._thread, None
            await asyncio.get_running_loop().run_in_executor(thread, self._close_in_thread)
            thread.shutdown(wait=True)


def _consume(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()  # marks it retrieved: no "exception was never retrieved" warning


def _run_in_thread(conn: sa.Connection, works: list[Work], budget: Budget | None) -> list[Outcome]:
    """One transaction for all ``works``; an exception here (BEGIN, COMMIT) fails every one."""
    with conn.begin() if budget is None else begin_in_time(conn, budget):
        if len(works) == 1:  # alone: no savepoint needed, its error rolls back everything
            return [(True, works[0](conn))]
        outcomes: list[Outcome] = []
        for work in works:
            try:
                with conn.begin_nested():
                    outcomes.append((True, work(conn)))
            except sa.exc.OperationalError:
                raise  # the connection or the file is in trouble: fail the whole group
            except Exception as exc:
                if not conn.connection.dbapi_connection.in_transaction:  # type: ignore[union-attr]
                    raise  # SQLite ended the transaction itself: nothing may run unguarded
                outcomes.append((False, exc))
        return outcomes
