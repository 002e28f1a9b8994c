"""Database fixtures, a pytest plugin (tests/conftest.py loads it): a test asking for `db_url`
runs on SQLite and, when TEST_DATABASE_URL is reachable, PostgreSQL (`backend`); `url_factory`
makes more databases of that backend, `unmigrated_url` one without any table, `stores` two stores
on one database (as two processes have). `Clock` is an
injected store clock; `clear_postgres` empties the shared PostgreSQL test database."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import secrets
import shutil
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from storage import Store
from storage.migrate import head_revision
from storage.models import metadata

PG_ENV = "TEST_DATABASE_URL"
_pg_state: dict[str, str | None] = {}


class Clock:
    """An injected clock that moves one second per call (tests never read the wall clock)."""

    def __init__(self, start: datetime = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def _pg_unavailable() -> str | None:
    """Why PostgreSQL tests must be skipped, or None when the server answers."""
    if "reason" not in _pg_state:
        url = os.environ.get(PG_ENV)
        if not url:
            _pg_state["reason"] = f"{PG_ENV} is not set (.ci/run starts a local PostgreSQL)"
        else:
            try:
                _pg_state["url"] = asyncio.run(_private_database(url))
                _pg_state["reason"] = None
            except Exception as exc:
                _pg_state["reason"] = f"PostgreSQL at {PG_ENV} is unreachable: {exc}"
    return _pg_state["reason"]


async def _private_database(url: str) -> str:
    """A database of this test session only, so parallel runs on one server never collide.

    Falls back to the given database when the role may not create databases.
    """
    name = f"ttb_test_{os.getpid()}_{secrets.token_hex(3)}"
    engine = create_async_engine(url, isolation_level="AUTOCOMMIT")
    try:
        async with asyncio.timeout(10), engine.connect() as conn:
            try:
                await conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
            except sa.exc.DBAPIError:
                return url
    finally:
        await engine.dispose()
    atexit.register(_drop_database, url, name)
    return make_url(url).set(database=name).render_as_string(hide_password=False)


def _drop_database(url: str, name: str) -> None:
    async def drop() -> None:
        engine = create_async_engine(url, isolation_level="AUTOCOMMIT")
        try:
            async with engine.connect() as conn:
                await conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        finally:
            await engine.dispose()

    with contextlib.suppress(Exception):
        asyncio.run(drop())


async def wipe_postgres(url: str) -> None:
    """Drop every table of the test database, leaving an empty, unmigrated schema."""
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(metadata.drop_all)
            await conn.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
    finally:
        await engine.dispose()


async def clear_postgres(url: str) -> None:
    """Empty every table of the test database (faster than dropping and migrating again)."""
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            migrated = await conn.run_sync(
                lambda sync: sa.inspect(sync).has_table("alembic_version")
            )
            if migrated:  # at the newest revision? (a migration test may leave an older one)
                revision = await conn.scalar(sa.text("SELECT version_num FROM alembic_version"))
                migrated = revision == head_revision()
            if migrated:
                names = ", ".join(t.name for t in metadata.sorted_tables)
                await conn.execute(sa.text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
        if not migrated:
            await wipe_postgres(url)
    finally:
        await engine.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database migrated to head once per session; tests start from copies of it."""
    path = tmp_path_factory.mktemp("template") / "bot.db"

    async def make() -> None:
        store = await Store.open(f"sqlite+aiosqlite:///{path}")
        await store.close()

    asyncio.run(make())
    return path


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    """The database kind under test."""
    if request.param == "postgresql" and (reason := _pg_unavailable()):
        pytest.skip(reason)
    return request.param


@pytest.fixture
def url_factory(backend: str, tmp_path: Path, sqlite_template: Path) -> Callable[..., str]:
    """Makes URLs of fresh, empty, migrated databases of the backend under test.

    PostgreSQL has one database per test session: callers clear it (``clear_postgres``).
    With ``unmigrated=True`` a SQLite database has no schema at all.
    """
    counter = iter(range(1_000_000))

    def make(unmigrated: bool = False) -> str:
        if backend == "postgresql":
            return str(_pg_state["url"])
        path = tmp_path / f"db{next(counter)}" / "bot.db"
        path.parent.mkdir()
        if not unmigrated:
            shutil.copyfile(sqlite_template, path)
        return f"sqlite+aiosqlite:///{path}"

    return make


@pytest.fixture
async def db_url(backend: str, url_factory: Callable[..., str]) -> str:
    """The URL of an empty, migrated database."""
    url = url_factory()
    if backend == "postgresql":
        await clear_postgres(url)
    return url


@pytest.fixture
async def stores(db_url: str) -> AsyncIterator[list[Store]]:
    """Two stores on one database, as two processes have (each its own clock), closed after."""
    opened = [await Store.open(db_url, clock=Clock()) for _ in range(2)]
    try:
        yield opened
    finally:
        for store in opened:
            await store.close()


@pytest.fixture
async def unmigrated_url(backend: str, url_factory: Callable[..., str]) -> str:
    """The URL of a database without any table."""
    url = url_factory(unmigrated=True)
    if backend == "postgresql":
        await wipe_postgres(url)
    return url
