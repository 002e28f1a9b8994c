"""What the Discord and Telegram runners share: the clock, the turn-timer loop, opening the store
for a core of one's own, and running in the foreground until Ctrl-C.

The core and the store are imported only when a runner builds them, so importing an adapter stays
cheap (tests and `python -m bot --console` never load a chat runner's store code).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable, Coroutine
from datetime import UTC, datetime
from typing import Any

from bot.logs import kv
from bot.settings import Settings

Items = list[Any]  # the core's `Outgoing` items


def utcnow() -> datetime:
    """The current time in UTC (the turn timers' default clock)."""
    return datetime.now(UTC)


async def tick_forever(
    core: Any,
    deliver: Callable[[Items], Awaitable[object]],
    *,
    now: Callable[[], datetime],
    every: float,
    log: logging.Logger,
    after_tick: Callable[[int], object] | None = None,
) -> None:
    """Every `every` seconds, hand `core.tick(now())`'s items to `deliver`, then call
    `after_tick(count)` (count from 1) when given; a failing tick is logged and the loop goes on.
    Returns at once for a core without timers (no `tick`)."""
    tick: Callable[[datetime], Awaitable[Items]] | None = getattr(core, "tick", None)
    if tick is None:
        return
    for count in itertools.count(1):
        await asyncio.sleep(every)
        try:
            await deliver(await tick(now()))
            if after_tick is not None:
                after_tick(count)
        except Exception:
            log.exception(kv(event="tick_failed"))


async def serve_on_store(
    settings: Settings,
    serve: Callable[..., Awaitable[None]],
    **options: Any,
) -> None:
    """Open the store at `settings.database_url` (upgrading its schema), build the core on it and
    `await serve(settings, core, **options)`; the store is closed however serving ends."""
    from bot.core.app import Core
    from bot.core.config import CoreConfig
    from storage import Store

    store = await Store.open(settings.database_url, migrate=True)
    try:
        core = Core(
            store, CoreConfig(default_locale=settings.default_locale, pictures=settings.pictures)
        )
        await serve(settings, core, **options)
    finally:
        await store.close()


def run_in_foreground(main: Coroutine[Any, Any, None], log: logging.Logger, stopped: str) -> None:
    """Run `main` on a new event loop until it ends or Ctrl-C; Ctrl-C logs the `stopped` event."""
    try:
        asyncio.run(main)
    except KeyboardInterrupt:
        log.info(kv(event=stopped))
