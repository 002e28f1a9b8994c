"""Opening the store at start-up while the database may be away: like an unreachable chat
platform (`bot.adapters.reach`), a database that cannot be reached is said in one WARNING line
(where it is, never who logs in with which password) and tried again with a capped, jittered
backoff until it answers, or until a stop signal comes (the runner then stops cleanly, exit 0).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.adapters.reach import Backoff, Wait, keep_trying, wait_or_stop
from bot.core.boot import Store, database_away, database_target, open_upgraded

PLATFORM = "database"  # the `platform=` of the log lines


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
    (`event=reachable`). `opener` opens the store (default `open_upgraded`)."""

    attempt = opener or open_upgraded
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
