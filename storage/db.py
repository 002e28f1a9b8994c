"""Async engines for SQLite (aiosqlite) and PostgreSQL (asyncpg), and the write-transaction runner.

SQLite has one writer: writes take an in-process lock (players before the timer, storage.busy) and
open with BEGIN IMMEDIATE, so concurrent tasks (and other processes, through the busy timeout)
queue instead of failing half way; a write waits for another process's lock only as long as its
budget (storage.busy), then fails with Busy. PostgreSQL writes lock the rows they change; a deadlock
or serialization failure is retried, and so, once, is a connection the server ended before the
transaction reached its COMMIT (nothing of it was written).

A write transaction written as plain synchronous SQLAlchemy Core (``Writer.run_sync``) costs one
thread hop on a SQLite file: it runs whole in a writer thread on a synchronous pysqlite engine of
the same file (where aiosqlite would hop to its thread about four times per statement), and
transactions queued meanwhile share one COMMIT (storage.group). Elsewhere it runs through
``AsyncConnection.run_sync`` (asyncpg: one greenlet switch per round trip).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextvars import ContextVar
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool
from sqlalchemy.util import await_only

from storage.busy import (
    BUSY_SLICE_MS,
    WRITE_BUDGET_S,
    Budget,
    WriteGate,
    begin_in_time_async,
    budget_now,
)
from storage.errors import Busy, InvalidRequest, Unavailable
from storage.group import GroupCommitter

log = logging.getLogger("storage")
T = TypeVar("T")

SQLITE_BUSY_TIMEOUT_MS = int(WRITE_BUDGET_S * 1000)  # reads (writes wait in slices: storage.busy)
WRITE_OPTION = "storage_write"
RETRY_SQLSTATES = frozenset({"40001", "40P01"})  # serialization failure, deadlock detected
MAX_RETRIES = 8
PING_AFTER_IDLE_S = 1.0  # a pooled PostgreSQL connection idle this long is checked before use
# Set while a write is retried after a lost connection: every checkout pings, so the retry runs
# on a live connection even when the dead ones around it still look open.
_ping_every_checkout: ContextVar[bool] = ContextVar("storage_ping_every_checkout", default=False)


def create_engine(url: str) -> AsyncEngine:
    """An async engine for ``url`` (sqlite+aiosqlite or postgresql+asyncpg), set up for this store."""
    try:
        parsed = make_url(url)
    except Exception as exc:
        raise InvalidRequest(f"bad database URL: {exc}") from None
    if parsed.drivername == "sqlite+aiosqlite":
        return _sqlite_engine(parsed)
    if parsed.drivername == "postgresql+asyncpg":
        return _postgres_engine(parsed)
    raise InvalidRequest(
        f"unsupported database URL scheme {parsed.drivername!r}: "
        "use sqlite+aiosqlite:///path or postgresql+asyncpg://..."
    )


def _postgres_engine(parsed: sa.URL) -> AsyncEngine:
    engine = create_async_engine(parsed, pool_size=5, max_overflow=10, hide_parameters=True)
    _ping_when_idle(engine.sync_engine)
    return engine


def _ping_when_idle(engine: sa.Engine) -> None:
    """Check a pooled connection that sat idle before handing it out (like ``pool_pre_ping``).

    SQLAlchemy's pre-ping costs three round trips (BEGIN, a query, ROLLBACK) on EVERY checkout,
    as much as half a commit's own. A connection the server ended while it sat in the pool
    (``pg_terminate_backend``, a restart) is known closed without a round trip as soon as the
    event loop has read the server's goodbye, and is replaced. A connection back in use within
    PING_AFTER_IDLE_S is not pinged: if it died unnoticed, its first statement fails, SQLAlchemy
    discards the whole pool, and the write is retried once on a fresh connection
    (``Writer._retrying``).
    """

    @sa.event.listens_for(engine, "connect")
    def _connected(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @sa.event.listens_for(engine, "checkin")
    def _returned(_dbapi_connection: Any, record: Any) -> None:
        if record is not None:
            record.info["idle_since"] = time.monotonic()

    @sa.event.listens_for(engine, "checkout")
    def _ping(_dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        if known_closed(record.driver_connection):  # the server ended it (no round trip)
            raise DisconnectionError("the pooled connection was closed by the server")
        idle = time.monotonic() - record.info.get("idle_since", 0.0)
        if idle < PING_AFTER_IDLE_S and not _ping_every_checkout.get():
            return
        try:
            await_only(record.driver_connection.fetchrow(";"))
        except Exception as exc:  # the pool replaces the connection and tries again
            raise DisconnectionError("the pooled connection is gone") from exc


def known_closed(connection: Any) -> bool:
    """Whether asyncpg already knows ``connection`` closed: the event loop has read the server's
    goodbye (``pg_terminate_backend``, a shutdown). A kill it has not read yet is not seen here."""
    return bool(connection.is_closed())


def _sqlite_in_memory(parsed: sa.URL) -> bool:
    database = parsed.database or ""
    return database in ("", ":memory:") or database.startswith("file::memory:")


def _sqlite_engine(parsed: sa.URL) -> AsyncEngine:
    database = parsed.database or ""
    in_memory = _sqlite_in_memory(parsed)
    if in_memory:
        # One shared connection, or every connection would see its own empty database.
        engine = create_async_engine(parsed, poolclass=StaticPool, hide_parameters=True)
    else:
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(
            parsed,
            connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000},
            hide_parameters=True,  # snapshots hold hidden cards: keep them out of errors and logs
        )
    _configure_sqlite(engine.sync_engine, in_memory)
    return engine


def _sqlite_writer_engine(url: sa.URL) -> sa.Engine | None:
    """A synchronous pysqlite engine on the same SQLite file, for the writer thread (None: memory)."""
    if _sqlite_in_memory(url):
        return None  # a second connection would open a second, empty database
    engine = sa.create_engine(
        url.set(drivername="sqlite"),
        connect_args={"timeout": BUSY_SLICE_MS / 1000},
        pool_size=1,
        hide_parameters=True,
    )
    _configure_sqlite(engine, in_memory=False, busy_ms=BUSY_SLICE_MS)
    return engine


def _sqlite_async_writer_engine(url: sa.URL) -> AsyncEngine | None:
    """An aiosqlite engine on the same SQLite file for async write transactions, whose busy
    timeout is one slice (storage.busy; reads keep the longer one). None in memory."""
    if _sqlite_in_memory(url):
        return None
    engine = create_async_engine(
        url,
        connect_args={"timeout": BUSY_SLICE_MS / 1000},
        pool_size=1,
        hide_parameters=True,
    )
    _configure_sqlite(engine.sync_engine, in_memory=False, busy_ms=BUSY_SLICE_MS)
    return engine


def _configure_sqlite(
    engine: sa.Engine, in_memory: bool, busy_ms: int = SQLITE_BUSY_TIMEOUT_MS
) -> None:
    """Pragmas on every new connection, and BEGIN IMMEDIATE for write transactions."""

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event below emit BEGIN itself (pysqlite's own is deferred only).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        if not in_memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={busy_ms}")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _on_begin(conn: sa.Connection) -> None:
        write = conn.get_execution_options().get(WRITE_OPTION, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def is_sqlite(engine: AsyncEngine) -> bool:
    """True when the engine talks to SQLite."""
    return engine.dialect.name == "sqlite"


class Writer:
    """Runs write transactions: serialized in-process on SQLite (players first, each within its
    budget), retried on PostgreSQL conflicts and, once, on a connection lost before COMMIT."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._gate: WriteGate | None = WriteGate() if is_sqlite(engine) else None
        # An in-memory database is ONE connection (StaticPool): a read's BEGIN while another
        # task's transaction is open on it fails, so reads queue on the writers' gate there.
        self._read_lock = self._gate if _sqlite_in_memory(engine.url) else None
        self._group: GroupCommitter | None = None
        self._write_engine = engine
        if self._gate is not None and (sync_engine := _sqlite_writer_engine(engine.url)):
            self._group = GroupCommitter(sync_engine, self._gate, {WRITE_OPTION: True})
            self._write_engine = _sqlite_async_writer_engine(engine.url) or engine

    @property
    def sync_engine(self) -> sa.Engine:
        """The synchronous engine that ``run_sync`` transactions execute on (for event hooks)."""
        return self._group.engine if self._group is not None else self.engine.sync_engine

    async def close(self) -> None:
        """Close the writer thread's connections and end the thread."""
        if self._group is not None:
            await self._group.close()
        if self._write_engine is not self.engine:
            await self._write_engine.dispose()

    def _budget(self) -> Budget | None:
        """The budget of a write starting now (SQLite only: a server has no file lock)."""
        gate = self._gate
        return None if gate is None else budget_now(gate.players_waiting)

    @contextlib.asynccontextmanager
    async def _transaction(self, committing: list[bool]) -> AsyncIterator[AsyncConnection]:
        budget = self._budget()  # counted from now: the wait for the gate is part of it
        async with contextlib.AsyncExitStack() as stack:
            if self._gate is not None:
                await stack.enter_async_context(self._gate)
            conn = await stack.enter_async_context(self._write_engine.connect())
            conn = await conn.execution_options(**{WRITE_OPTION: True})
            if budget is not None and not _sqlite_in_memory(self.engine.url):
                transaction = await begin_in_time_async(conn, budget)
            else:
                transaction = await conn.begin()
            stack.push_async_exit(transaction)  # begun already: commits or rolls back on exit
            yield conn
            committing.append(True)  # leaving the stack commits: past this, never retried

    def read(self) -> contextlib.AbstractAsyncContextManager[AsyncConnection]:
        """A connection for reading (``read``); on an in-memory database it waits its turn on
        the one shared connection, so it never overlaps a write or another read."""
        if self._read_lock is None:
            return read(self.engine)  # a file or a server: readers never wait for a writer
        return self._read_in_turn(self._read_lock)

    async def reading(self, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """Run the read-only ``work(conn)`` on a reading connection (``read``) and return its result.

        On a server, a pooled connection killed so recently that the client has not read the
        server's goodbye yet fails at its first statement; the read then runs once more on a
        fresh connection (every checkout pinged), so a killed connection costs no player's read.
        A second failure, or any failure on SQLite, raises as ``read`` does (Unavailable).
        """
        try:
            async with self.read() as conn:
                return await work(conn)
        except Unavailable as exc:
            if self._gate is not None:
                raise
            log.debug("connection lost during a read (%s): retried once on a fresh connection", exc)
        pinging = _ping_every_checkout.set(True)
        try:
            async with self.read() as conn:
                return await work(conn)
        finally:
            _ping_every_checkout.reset(pinging)

    @contextlib.asynccontextmanager
    async def _read_in_turn(self, lock: WriteGate) -> AsyncIterator[AsyncConnection]:
        async with lock, read(self.engine) as conn:
            yield conn

    async def run(self, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """Run ``work(conn)`` in one transaction: committed if it returns, rolled back if it raises.

        A database that cannot be reached raises Unavailable; a SQLite file another process
        keeps locked past the write's budget raises Busy (storage.busy).
        """

        async def attempt(committing: list[bool]) -> T:
            async with self._transaction(committing) as conn:
                return await work(conn)

        return await self._retrying(attempt)

    async def run_sync(self, work: Callable[[sa.Connection], T]) -> T:
        """Like ``run``, for ``work`` written as synchronous SQLAlchemy Core on a ``sa.Connection``.

        On a SQLite file the whole transaction runs in the writer thread: one hop, not one per
        statement, grouped with the transactions queued meanwhile (each in its own SAVEPOINT, so
        one's failure never touches another). ``work`` must not touch the event loop.
        """
        if self._group is None:

            async def attempt(committing: list[bool]) -> T:
                async with self._transaction(committing) as conn:
                    return await conn.run_sync(work)

            return await self._retrying(attempt)

        group, budget = self._group, self._budget()
        return await self._retrying(lambda _committing: group.run(work, budget))

    async def _retrying(self, attempt: Callable[[list[bool]], Awaitable[T]]) -> T:
        reconnected = False
        for number in range(MAX_RETRIES):
            committing: list[bool] = []  # set once the attempt reaches its COMMIT
            pinging = _ping_every_checkout.set(True) if reconnected else None
            try:
                return await attempt(committing)
            except Busy:
                raise
            except DBAPIError as exc:
                if _sqlstate(exc) in RETRY_SQLSTATES and number < MAX_RETRIES - 1:
                    log.debug("write conflict (%s), retry %d", _sqlstate(exc), number + 1)
                    await asyncio.sleep(0.002 * (number + 1))
                    continue
                if _lost_connection(exc):
                    if self._retry_on_fresh(exc, committing, reconnected):
                        reconnected = True
                        continue
                    raise Unavailable(_describe(exc)) from exc
                raise
            except OSError as exc:  # the server went away between two statements
                if self._retry_on_fresh(exc, committing, reconnected):
                    reconnected = True
                    continue
                raise Unavailable(_describe(exc)) from exc
            finally:
                if pinging is not None:
                    _ping_every_checkout.reset(pinging)
        raise AssertionError("unreachable")

    def _retry_on_fresh(self, exc: BaseException, committing: list[bool], done: bool) -> bool:
        """Whether to run a write again on a fresh connection: once, on a server (a SQLite
        file's failures are no lost connection), and only when the connection died before the
        COMMIT was sent; the server then rolled the transaction back, so nothing is applied
        twice. A loss during the COMMIT is Unavailable: it may or may not have been written."""
        if done or committing or self._gate is not None:
            return False
        cause = type(getattr(exc, "orig", None) or exc).__name__
        log.info("connection lost before COMMIT (%s): retried once on a fresh connection", cause)
        return True


@contextlib.asynccontextmanager
async def read(engine: AsyncEngine) -> AsyncIterator[AsyncConnection]:
    """A connection for reading; an unreachable database raises Unavailable."""
    try:
        async with engine.connect() as conn:
            yield conn
    except OSError as exc:
        raise Unavailable(_describe(exc)) from exc
    except DBAPIError as exc:
        if _lost_connection(exc):
            raise Unavailable(_describe(exc)) from exc
        raise


def _lost_connection(exc: DBAPIError) -> bool:
    # asyncpg reports a connection the server ended in several ways (an interface error, or an
    # internal "another operation is in progress"); SQLAlchemy marks them all as invalidated.
    return isinstance(exc, OperationalError | InterfaceError) or exc.connection_invalidated


def _describe(exc: BaseException) -> str:
    # The driver's own message can quote SQL; the class name is enough for players and logs.
    cause = getattr(exc, "orig", None) or exc
    return f"the database is unavailable ({type(cause).__name__})"


def _sqlstate(exc: DBAPIError) -> str | None:
    orig = exc.orig
    return getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
