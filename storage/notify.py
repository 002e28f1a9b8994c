"""Table versions across processes: every commit on PostgreSQL sends `pg_notify` on the
`table_version` channel (`storage.steps.notify_version_sync`, in the commit's own transaction,
so only committed versions are told); `listen_versions` keeps one asyncpg connection that
LISTENs and calls back with (table id, version). SQLite (one process) has nothing to listen to.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from storage.steps import VERSION_CHANNEL

log = logging.getLogger("storage.notify")

VersionCallback = Callable[[int, int], None]
Closer = Callable[[], Awaitable[None]]


def asyncpg_dsn(url: str) -> str | None:
    """The plain `postgresql://` address asyncpg takes for a `postgresql+asyncpg://` URL;
    None for any other database (nothing to listen to)."""
    prefix = "postgresql+asyncpg://"
    if not url.startswith(prefix):
        return None
    return "postgresql://" + url[len(prefix) :]


def parse_payload(payload: str) -> tuple[int, int] | None:
    """`"<table id>:<version>"` as numbers, or None for anything else."""
    table, _, version = payload.partition(":")
    if not (table.isdigit() and version.isdigit()):
        return None
    return int(table), int(version)


async def listen_versions(url: str, callback: VersionCallback) -> Closer:
    """LISTEN for new table versions on the PostgreSQL database at `url` and call
    `callback(table_id, version)` for each (on the event loop); returns the coroutine function
    that stops listening. On another database it listens to nothing."""
    dsn = asyncpg_dsn(url)
    if dsn is None:

        async def nothing() -> None:
            return None

        return nothing
    import asyncpg  # type: ignore[import-untyped]

    conn: Any = await asyncpg.connect(dsn)

    def on_notify(_conn: Any, _pid: int, _channel: str, payload: str) -> None:
        parsed = parse_payload(payload)
        if parsed is not None:
            try:
                callback(*parsed)
            except Exception:  # a listener's bug never stops the others
                log.exception("version_listener_failed")

    await conn.add_listener(VERSION_CHANNEL, on_notify)

    async def close() -> None:
        with contextlib.suppress(Exception):
            await conn.remove_listener(VERSION_CHANNEL, on_notify)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.close(), 2.0)

    return close
