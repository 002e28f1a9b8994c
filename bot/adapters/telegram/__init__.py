"""The Telegram adapter (python-telegram-bot 22): translates between Telegram and the bot core.

Entry points: `run(settings, core=None)` blocks until stopped (long polling, or a webhook when
`TELEGRAM_WEBHOOK_URL` is set; without a core it opens the store and builds one);
`serve(settings, core)` is the same as a coroutine, for sharing an event loop and a core with other
front ends; `build_application(...)` and `TelegramAdapter` are the pieces.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from telegram import Update
from telegram.error import NetworkError, RetryAfter, TelegramError
from telegram.ext import AIORateLimiter, Application, BaseRateLimiter

from bot.adapters.reach import keep_trying
from bot.adapters.rooms import LateRooms
from bot.adapters.runtime import (
    flush_adapter,
    run_platform,
    serve_on_store,
    stop_ticker,
    tick_forever,
    utcnow,
)
from bot.adapters.surfaces import SurfaceStore
from bot.adapters.telegram.adapter import PLATFORM, TelegramAdapter
from bot.adapters.telegram.ordering import PerChatUpdateProcessor
from bot.adapters.telegram.webhook import WebhookListener, register_webhook
from bot.core.api import CoreApi
from bot.logs import kv
from bot.settings import Settings

__all__ = [
    "PLATFORM",
    "TelegramAdapter",
    "build_application",
    "run",
    "serve",
    "serve_with_store",
]

log = logging.getLogger("bot.telegram")

DEFAULT_BASE_URL = "https://api.telegram.org/bot"
TICK_SECONDS = 1.0
CONCURRENT_UPDATES = 32
ALLOWED_UPDATES = [Update.MESSAGE, Update.CALLBACK_QUERY]


class MeteredRateLimiter(AIORateLimiter):
    """PTB's rate limiter, telling `meter` (`bot.adapters.web.metrics.Metrics`) of every Bot API
    call it lets through and of every wait its limits or a RetryAfter cost (more than
    `WAITED` seconds from the call to its start)."""

    WAITED = 0.05

    def __init__(self, meter: Any, **options: Any) -> None:
        super().__init__(**options)
        self.meter = meter

    async def _run_request(self, *args: Any, **kwargs: Any) -> Any:
        began = time.monotonic()
        callback = kwargs["callback"]

        async def timed(*call_args: Any, **call_kwargs: Any) -> Any:
            if time.monotonic() - began > self.WAITED:
                self.meter.rate_limited(PLATFORM)
            self.meter.platform_call(PLATFORM)
            try:
                return await callback(*call_args, **call_kwargs)
            except RetryAfter:
                self.meter.rate_limited(PLATFORM)
                raise

        kwargs["callback"] = timed
        return await super()._run_request(*args, **kwargs)


def build_application(
    token: str,
    base_url: str | None = None,
    rate_limiter: BaseRateLimiter[Any] | None = None,
) -> Application:
    """A PTB Application for the token, pointed at `base_url` (a self-hosted Bot API server or a
    test fake; `.../bot` — the token is appended) and throttled by PTB's `AIORateLimiter`."""
    limiter = rate_limiter if rate_limiter is not None else AIORateLimiter(max_retries=3)
    return (
        Application.builder()
        .token(token)
        .base_url(base_url or DEFAULT_BASE_URL)
        .rate_limiter(limiter)
        .concurrent_updates(PerChatUpdateProcessor(CONCURRENT_UPDATES))
        .build()
    )


async def serve(
    settings: Settings,
    core: CoreApi,
    *,
    now: Callable[[], datetime] = utcnow,
    stop: asyncio.Event | None = None,
    start_core: bool = True,
    run_timers: bool = True,
    tick_seconds: float = TICK_SECONDS,
    ready: asyncio.Event | None = None,
    table_messages: SurfaceStore | None = None,
    rooms: LateRooms | None = None,
    on_adapter: Callable[[TelegramAdapter], object] | None = None,
    metrics: Any = None,
) -> None:
    """Run the Telegram bot on `core` until `stop` is set (forever by default); `ready` is set
    once updates are being received. `on_adapter` is told the adapter once it exists (the web
    table delivers its moves' items through it); `metrics` counts the Bot API calls and the
    rate limiter's waits (`MeteredRateLimiter`).

    Long polling unless `settings.telegram_webhook_url` is set, then a webhook listener on
    `settings.telegram_webhook_port` at the URL's path. Several processes may listen behind one
    URL: only the one with `telegram_set_webhook` (the default) registers the URL and the command
    menu and posts the resumed tables again; the others only listen and answer. `now` feeds the
    core's timers; `start_core` loads the open tables (`core.start()`) and `run_timers` calls
    `core.tick` every `tick_seconds`; pass False for both when another front end shares the core
    and does them, and hand their output to `TelegramAdapter.deliver` (it keeps only Telegram's
    items). `table_messages` (the store) keeps each table's message where every process finds
    it (docs/deploy.md); without it the messages live in this process's memory only. `rooms`,
    given to the core, gets the adapter's forum topics (`TelegramAdapter.rooms`).

    Once `stop` is set: no more updates are fetched or accepted, the updates already received
    are answered, a timer tick in progress finishes, the adapter's pending edits are flushed
    (bounded), then the connection is closed. The webhook stays registered.
    """
    if settings.telegram_token is None:
        raise ValueError("TELEGRAM_TOKEN is not set")
    token = settings.telegram_token.get_secret_value()
    limiter = None if metrics is None else MeteredRateLimiter(metrics, max_retries=3)
    application = build_application(token, settings.telegram_api_base_url, limiter)
    adapter = TelegramAdapter(
        core, default_locale=settings.default_locale, table_messages=table_messages
    )
    adapter.install(application)
    if rooms is not None:
        rooms.use(adapter.rooms)
    if on_adapter is not None:
        on_adapter(adapter)
    stop = stop or asyncio.Event()
    if not await reach_bot_api(application, settings, stop):
        return  # stopped before the Bot API answered
    if adapter.delivery is not None:
        adapter.delivery.web_table_link = mini_app_link(settings, application.bot.username)
    # In polling mode this is the only process of the token; in webhook mode the leader.
    leader = settings.telegram_set_webhook or not settings.telegram_webhook_url
    listener: WebhookListener | None = None
    async with application:
        if leader:
            try:
                await adapter.register_commands()
            except TelegramError as exc:
                log.warning(kv(event="command_menu_failed", error=exc))
        if start_core and hasattr(core, "start"):
            resumed = await core.start()
            if leader:  # one process posts the resumed tables again, not every one
                await adapter.deliver(resumed)
        await application.start()
        assert application.updater is not None
        if settings.telegram_webhook_url:
            listener = WebhookListener(
                application,
                path=urlsplit(settings.telegram_webhook_url).path.lstrip("/") or "telegram",
                secret=webhook_secret(settings),
                listen=settings.telegram_webhook_listen,
                port=settings.telegram_webhook_port,
            )
            await listener.start()
            if settings.telegram_set_webhook:
                await register_webhook(
                    application.bot,
                    settings.telegram_webhook_url,
                    webhook_secret(settings),
                    ALLOWED_UPDATES,
                )
            mode = "webhook" if settings.telegram_set_webhook else "webhook_listener"
        else:
            await application.updater.start_polling(allowed_updates=ALLOWED_UPDATES)
            mode = "polling"
        log.info(kv(event="telegram_started", mode=mode, bot=application.bot.username))
        if ready is not None:
            ready.set()
        halt = asyncio.Event()
        ticker = (
            asyncio.create_task(
                tick_forever(core, adapter.deliver, now=now, every=tick_seconds, log=log, stop=halt)
            )
            if run_timers
            else None
        )
        try:
            await stop.wait()
        finally:
            # no new updates from here on
            if listener is not None:
                await listener.stop()
            if application.updater.running:
                await application.updater.stop()
            await stop_ticker(ticker, halt)
            await application.stop()  # answers the updates already received
            await flush_adapter(adapter, log)
            log.info(kv(event="telegram_stopping"))


async def reach_bot_api(application: Application, settings: Settings, stop: asyncio.Event) -> bool:
    """Ask the Bot API who the bot is (getMe) until it answers, retrying with backoff while it
    cannot be reached (`bot.adapters.reach`); False when `stop` came first (the connection is
    closed then). A rejected token is raised."""

    async def get_me() -> bool:
        await application.bot.initialize()
        return True

    reached = await keep_trying(
        get_me,
        platform=PLATFORM,
        target=urlsplit(settings.telegram_api_base_url or DEFAULT_BASE_URL).netloc,
        unreachable=lambda error: isinstance(error, NetworkError),
        stop=stop,
        log=log,
    )
    if not reached:
        await application.bot.shutdown()
    return bool(reached)


async def serve_with_store(settings: Settings, stop: asyncio.Event | None = None) -> None:
    """Open the store (upgrading its schema), build a core for Telegram's tables only and serve
    Telegram on it until `stop` is set; the store is closed at the end."""
    await serve_on_store(settings, serve, PLATFORM, stop=stop)


def run(settings: Settings, core: CoreApi | None = None) -> None:
    """Run the Telegram bot in the foreground until SIGTERM or SIGINT, then stop cleanly (see
    `serve`); without a core, one is built on the store at `settings.database_url`."""
    run_platform(settings, serve, PLATFORM, core, log)


def mini_app_link(settings: Settings, username: str | None) -> Callable[[str], str] | None:
    """A table id -> the Mini App's direct link opening its live web table
    (`https://t.me/<bot>/<app>?startapp=t<table>`), when WEB_PUBLIC_URL and
    TELEGRAM_WEBAPP_NAME are set; else None (no such button)."""
    app = settings.telegram_webapp_name
    if not (settings.web_public_url and app and username):
        return None
    from bot.adapters.web.server import start_param

    return lambda table_id: f"https://t.me/{username}/{app}?startapp={start_param(table_id)}"


def webhook_secret(settings: Settings) -> str:
    """The secret Telegram sends back with every webhook call: `TELEGRAM_WEBHOOK_SECRET`, else
    one derived from the token (the same in every process of the bot)."""
    if settings.telegram_webhook_secret is not None:
        return settings.telegram_webhook_secret.get_secret_value()
    assert settings.telegram_token is not None
    return _webhook_secret(settings.telegram_token.get_secret_value())


def _webhook_secret(token: str) -> str:
    """A secret derived from the token, never revealing it."""
    return hashlib.sha256(("webhook:" + token).encode()).hexdigest()[:48]
