"""Opening the store at start-up while the database may be away: like an unreachable chat
platform (`bot.adapters.reach`), a database that cannot be reached is said in one WARNING line
(where it is, never who logs in with which password) and tried again with a capped, jittered
backoff until it answers, or until a stop signal comes (the runner then stops cleanly, exit 0).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from bot.adapters.reach import Backoff, Wait, keep_trying, wait_or_stop
from storage import Store, Unavailable

PLATFORM = "database"  # the `platform=` of the log lines
# PostgreSQL's SQLSTATE classes of a server that is not there yet or cannot take us now:
# 08 connection exception, 53 insufficient resources (too many connections), 57 operator
# intervention (57P03: "the database system is starting up").
AWAY_CLASSES = ("08", "53", "57")


def database_target(url: str) -> str:
    """Where the database is, for a log line: `host:port/name` of a server, the path of a SQLite
    file; never the user name or the password."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return parsed.database or ":memory:"
    port = f":{parsed.port}" if parsed.port else ""
    return f"{parsed.host or 'localhost'}{port}/{parsed.database or ''}"


def database_away(error: BaseException) -> bool:
    """Whether an error opening the store means the database is not there (yet): try again.
    Anything else (a bad URL, a failing migration) is raised."""
    if isinstance(error, Unavailable):
        return True
    if isinstance(error, DBAPIError):
        state = getattr(error.orig, "sqlstate", None) or getattr(error.orig, "pgcode", None)
        return isinstance(state, str) and state.startswith(AWAY_CLASSES)
    return False


async def open_store(
    url: str,
    stop: asyncio.Event,
    log: logging.Logger,
    *,
    backoff: Backoff | None = None,
    wait: Wait = wait_or_stop,
    opener: Callable[[str], Awaitable[Store]] | None = None,
) -> Store | None:
    """The store at `url`, its schema upgraded, once the database answers; None when `stop`
    was set first. While the database cannot be reached: one WARNING `event=unreachable
    platform=database target=<host:port/name>`, later attempts at DEBUG, the recovery at INFO
    (`event=reachable`). `opener` opens the store (default `Store.open(url, migrate=True)`)."""

    async def upgraded(at: str) -> Store:
        return await Store.open(at, migrate=True)

    attempt = opener or upgraded
    return await keep_trying(
        lambda: attempt(url),
        platform=PLATFORM,
        target=database_target(url),
        unreachable=database_away,
        stop=stop,
        log=log,
        backoff=backoff,
        wait=wait,
    )
