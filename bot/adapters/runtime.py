"""What the runners share: the clock, the turn-timer loop, opening the store for a core of
one's own, flushing an adapter's pending writes, and running in the foreground until SIGTERM or
SIGINT (Ctrl-C, `docker stop`, systemd) asks for a clean stop.

The core and the store are imported only when a runner builds them, so importing an adapter stays
cheap (tests and `python -m bot --console` never load a chat runner's store code).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import signal
from collections.abc import Awaitable, Callable, Coroutine
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from bot.logs import kv
from bot.settings import Settings

if TYPE_CHECKING:
    from bot.adapters.rooms import LateRooms
    from bot.core.app import Core
    from bot.core.config import CoreConfig

Items = list[Any]  # the core's `Outgoing` items

# Docker and systemd wait 10 s after SIGTERM before SIGKILL: stop well inside that.
SHUTDOWN_SECONDS = 8.0  # after a stop signal, the whole shutdown is cancelled past this
FLUSH_SECONDS = 4.0  # an adapter's pending edits get this long to reach the chat
TICK_GRACE_SECONDS = 2.0  # a tick in progress at shutdown gets this long to deliver
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


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
    stop: asyncio.Event | None = None,
) -> None:
    """Every `every` seconds, hand `core.tick(now())`'s items to `deliver`, then call
    `after_tick(count)` (count from 1) when given; a failing tick is logged and the loop goes on.
    Returns at once for a core without timers (no `tick`), and once `stop` is set (a tick in
    progress is finished first, so its messages are not lost).

    While ticks fail (the database is away or busy) the log gets one WARNING `tick_failed` when
    the failures start (a bug's traceback with it; a known storage fault's at DEBUG only) and one
    INFO `tick_recovered` when a tick succeeds again; between them every failure is at DEBUG, and
    the next tick waits longer each time (`tick_delay`: doubled, at most `TICK_BACKOFF_MAX`), so a
    failing database is not hammered every second."""
    tick: Callable[[datetime], Awaitable[Items]] | None = getattr(core, "tick", None)
    if tick is None:
        return
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    failing = TickFailures()
    for count in itertools.count(1):
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), tick_delay(every, failing.count))
        if stop.is_set():
            return
        try:
            await deliver(await tick(now()))
            if after_tick is not None:
                after_tick(count)
        except Exception as exc:
            failing.failed(exc, loop.time(), log, tick_delay(every, failing.count + 1))
        else:
            failing.recovered(loop.time(), log)


TICK_BACKOFF_MAX = 5.0  # seconds between two ticks at most while they fail


def tick_delay(every: float, failures: int) -> float:
    """How long the timer waits before its next tick after `failures` failed ticks in a row:
    `every`, doubled with each failure, at most `TICK_BACKOFF_MAX` (never less than `every`)."""
    if failures <= 0:
        return every
    return max(every, min(every * 2.0**failures, TICK_BACKOFF_MAX))


class TickFailures:
    """A run of failing ticks, logged once when it starts and once when it ends."""

    def __init__(self) -> None:
        self.count = 0
        self.since = 0.0

    def failed(self, exc: Exception, at: float, log: logging.Logger, retry_in: float) -> None:
        """Count a failed tick; the first of a run is a WARNING (a bug's with its traceback)."""
        self.count += 1
        if self.count > 1:
            log.debug(kv(event="tick_failed", failures=self.count), exc_info=exc)
            return
        self.since = at
        fields = kv(event="tick_failed", error=type(exc).__name__, retry_in=retry_in)
        from bot.core.api import known_fault  # a core that ticks has loaded it already

        if known_fault(exc):
            log.warning(fields)
            log.debug(kv(event="tick_failed", failures=1), exc_info=exc)
        else:
            log.warning(fields, exc_info=exc)

    def recovered(self, at: float, log: logging.Logger) -> None:
        """A tick succeeded: end the run (one INFO line when there was one)."""
        if self.count:
            seconds = round(at - self.since, 1)
            log.info(kv(event="tick_recovered", failures=self.count, seconds=seconds))
        self.count = 0


async def stop_ticker(ticker: asyncio.Task[None] | None, halt: asyncio.Event) -> None:
    """Ask a `tick_forever` task to stop (`halt`), let a tick in progress finish within
    `TICK_GRACE_SECONDS`, then cancel it."""
    halt.set()
    if ticker is None or ticker.done():
        return
    with contextlib.suppress(TimeoutError, asyncio.CancelledError):
        await asyncio.wait_for(asyncio.shield(ticker), TICK_GRACE_SECONDS)
    if not ticker.done():
        ticker.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await ticker


async def flush_adapter(
    adapter: object, log: logging.Logger, timeout: float = FLUSH_SECONDS
) -> None:
    """Let an adapter send its pending edits (`await adapter.flush(timeout)`, when it has one),
    waiting at most `timeout` seconds; a failure or a time-out is logged, never raised."""
    flush: Callable[[float], Awaitable[object]] | None = getattr(adapter, "flush", None)
    if flush is None:
        return
    try:
        await asyncio.wait_for(flush(timeout), timeout)
    except TimeoutError:
        log.warning(kv(event="flush_timed_out", seconds=timeout))
    except Exception:
        log.exception(kv(event="flush_failed"))


def core_config(
    settings: Settings, platform: str, web_link: Callable[..., str] | None = None
) -> CoreConfig:
    """The core's configuration for one chat platform: only its tables are loaded and timed,
    the default language, pictures and time limits as the settings say; `web_link` makes the
    `/table web` links (None: no web table)."""
    from bot.core.config import CoreConfig

    return CoreConfig(
        default_locale=settings.default_locale,
        platforms=(platform,),
        pictures=settings.pictures,
        turn_seconds=settings.turn_seconds,
        idle_close_seconds=settings.idle_close_seconds,
        idle_close_hands=settings.idle_close_hands,
        max_computers_per_table=settings.max_computers_per_table,
        max_computers_per_community=settings.max_computers_per_community,
        max_open_tables=settings.max_open_tables,
        max_running_tournaments=settings.max_running_tournaments,
        seed_reveal_hours=settings.seed_reveal_hours,
        retention_days=settings.retention_days,
        timezone=settings.timezone,
        command_burst=settings.command_burst,
        command_refill_seconds=settings.command_refill_seconds,
        press_burst=settings.press_burst,
        press_refill_seconds=settings.press_refill_seconds,
        web_link=web_link,
        # private tables' invitations: signed with `WEB_SECRET`, else the stored web key
        invite_key=None if settings.web_secret is None else settings.web_secret.get_secret_value(),
    )


def platform_core(
    store: Any, settings: Settings, platform: str, web_link: Callable[..., str] | None = None
) -> tuple[Core, LateRooms]:
    """A core serving `platform`'s tables only, and the rooms its tournament tables will play
    in: the platform's `serve` plugs its adapter's rooms into them (`LateRooms.use`)."""
    from bot.adapters.rooms import LateRooms
    from bot.core.app import Core

    rooms = LateRooms()
    return Core(store, core_config(settings, platform, web_link), rooms=rooms), rooms


async def serve_on_store(
    settings: Settings,
    serve: Callable[..., Awaitable[None]],
    platform: str,
    **options: Any,
) -> None:
    """Open the store at `settings.database_url` (upgrading its schema), build a core that
    serves `platform`'s tables only and `await serve(settings, core, table_messages=store,
    **options)` (the store also keeps each table's chat message, shared by every process; the
    adapter's rooms go to the core's tournaments); the store is closed however serving ends.
    While the database cannot be reached it waits (one log line, retries) until it answers or
    `options["stop"]` is set (`bot.adapters.store_open`)."""
    from bot.adapters.store_open import open_store

    stop: asyncio.Event = options.get("stop") or asyncio.Event()
    store = await open_store(settings.database_url, stop, logging.getLogger("bot"))
    if store is None:  # stopped before the database came
        return
    core = None
    try:
        core, rooms = platform_core(store, settings, platform)
        await serve(settings, core, table_messages=store, rooms=rooms, **options)
    finally:
        if core is not None:
            await core.close()
        await store.close()
        logging.getLogger("bot").info(kv(event="store_closed"))


Main = Callable[[asyncio.Event], Coroutine[Any, Any, None]]


def run_platform(
    settings: Settings,
    serve: Callable[..., Awaitable[None]],
    platform: str,
    core: Any,
    log: logging.Logger,
) -> None:
    """Run one chat platform's `serve` in the foreground until SIGTERM or SIGINT, then stop
    cleanly; without a core, one is built on the store at `settings.database_url` for that
    platform's tables only. Logs `<platform>_stopped` at the end."""

    async def main(stop: asyncio.Event) -> None:
        if core is not None:
            await serve(settings, core, stop=stop)
        else:
            await serve_on_store(settings, serve, platform, stop=stop)

    run_in_foreground(main, log, f"{platform}_stopped")


def run_in_foreground(
    main: Main, log: logging.Logger, stopped: str, grace: float = SHUTDOWN_SECONDS
) -> None:
    """Run `main(stop)` on a new event loop until it returns. SIGTERM or SIGINT sets `stop`:
    `main` should then stop taking input, flush and close; if it has not returned `grace`
    seconds later (or a second signal comes) it is cancelled. Logs the `stopped` event."""
    with contextlib.suppress(KeyboardInterrupt):  # where the loop cannot take the signals
        asyncio.run(until_stopped(main, log, grace))
    log.info(kv(event=stopped))


async def until_stopped(main: Main, log: logging.Logger, grace: float = SHUTDOWN_SECONDS) -> None:
    """Await `main(stop)` with SIGTERM and SIGINT setting `stop` (see `run_in_foreground`);
    must run in the main thread's event loop to catch the signals."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    task = asyncio.create_task(main(stop))

    def on_signal(signum: int) -> None:
        if stop.is_set():  # a second signal: the operator does not want to wait
            task.cancel()
            return
        log.info(kv(event="stopping", signal=signal.Signals(signum).name))
        stop.set()
        loop.call_later(grace, task.cancel)

    installed = []
    for signum in STOP_SIGNALS:
        try:
            loop.add_signal_handler(signum, on_signal, signum)
            installed.append(signum)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread; Windows
            pass
    try:
        await task
    except asyncio.CancelledError:
        if not stop.is_set():
            raise
        log.warning(kv(event="shutdown_forced", seconds=grace))
    finally:
        for signum in installed:
            loop.remove_signal_handler(signum)
