"""The Discord adapter (discord.py 2.x): translates between Discord and the bot core.

Entry points: `run(settings, core=None)` blocks until stopped (without a core it opens the store
and builds one); `serve(settings, core)` is the same as a coroutine, for sharing an event loop
and a core with other front ends. `DiscordBot` is the client; `DiscordAdapter` does the
translating and `install_commands` builds the slash command tree.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import Any

import aiohttp
import discord

from bot.adapters.discord.activity import REGISTERED_ITEMS, ActivityTree
from bot.adapters.discord.adapter import PLATFORM, DiscordAdapter, is_moderator
from bot.adapters.discord.commands import Translator, install_commands
from bot.adapters.discord.connect import start_reaching
from bot.adapters.discord.metering import Meter, api_trace
from bot.adapters.discord.shards import Ownership
from bot.adapters.rooms import LateRooms
from bot.adapters.runtime import (
    FLUSH_SECONDS,
    flush_adapter,
    run_platform,
    serve_on_store,
    stop_ticker,
    tick_forever,
    utcnow,
)
from bot.adapters.surfaces import SurfaceStore
from bot.core.api import CoreApi
from bot.logs import kv
from bot.settings import Settings

__all__ = [
    "PLATFORM",
    "DiscordAdapter",
    "DiscordBot",
    "build_client",
    "install_commands",
    "is_moderator",
    "run",
    "serve",
    "serve_with_store",
]

log = logging.getLogger("bot.discord")

TICK_SECONDS = 1.0
PRUNE_EVERY = 300  # ticks between forgetting closed tables' messages


class DiscordBot(discord.AutoShardedClient):
    """The bot's gateway client: slash commands, persistent buttons and the core's timers.

    `shard_count=None` lets Discord pick the number of shards; `shard_ids` (with `shard_count`)
    runs only those shards in this process, the others run elsewhere (see `shards`); `guild_id`
    syncs the commands to that one server (instant, for testing) instead of globally (up to an
    hour to appear); `http_trace` sees every REST request (`metering.api_trace`)."""

    adapter: DiscordAdapter  # set by `adapter.attach(self)`

    def __init__(
        self,
        adapter: DiscordAdapter,
        *,
        shard_count: int | None = None,
        shard_ids: tuple[int, ...] | None = None,
        guild_id: int | None = None,
        start_core: bool = True,
        timers: bool = True,
        now: Callable[[], datetime] = utcnow,
        activity: bool = False,
        http_trace: aiohttp.TraceConfig | None = None,
    ) -> None:
        traced: dict[str, Any] = {} if http_trace is None else {"http_trace": http_trace}
        intents = discord.Intents.none()
        intents.guilds = True  # channels and roles for permissions; no message content needed
        # Nobody is pinged by what the bot says unless a call names them (a nickname such as
        # "@everyone" in a table text stays plain text).
        super().__init__(
            intents=intents,
            shard_count=shard_count,
            # discord.py's own default is None (every shard); its stubs say list[int]
            shard_ids=None if shard_ids is None else list(shard_ids),  # type: ignore[arg-type]
            allowed_mentions=discord.AllowedMentions.none(),
            **traced,
        )
        self.ownership = Ownership(shard_ids, shard_count)
        # with the Activity configured, the global sync carries its Entry Point command too
        self.tree = ActivityTree(self, entry_point=activity)
        install_commands(self.tree, adapter)
        adapter.attach(self)
        self.guild_id = guild_id
        self.start_core = start_core
        self.timers = timers
        self.now = now
        self._ticker: asyncio.Task[None] | None = None
        self._halt = asyncio.Event()  # stops the timers
        self.hooked = False  # the start-up hook has begun (a failed login is not retried then)

    async def setup_hook(self) -> None:
        """After login: register the buttons, sync the commands, resume tables, start timers."""
        self.hooked = True
        self.add_dynamic_items(*REGISTERED_ITEMS)
        await self.tree.set_translator(Translator())
        if self.guild_id is not None:
            guild = discord.Object(self.guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info(kv(event="commands_synced", count=len(synced), guild=self.guild_id or "global"))
        core = self.adapter.core
        if self.start_core and hasattr(core, "start"):
            resumed = await core.start()  # every process loads every table...
            # ...but only the one whose shards get the guild's events posts its message again
            await self.adapter.deliver_unasked(await self.ownership.owned(self, resumed))
        if self.timers:
            self._ticker = asyncio.create_task(self._tick_forever())

    async def _tick_forever(self) -> None:
        await tick_forever(
            self.adapter.core,
            self.adapter.deliver_unasked,
            now=self.now,
            every=TICK_SECONDS,
            log=log,
            after_tick=self._prune_now_and_then,
            stop=self._halt,
        )

    def _prune_now_and_then(self, tick_count: int) -> None:
        if tick_count % PRUNE_EVERY == 0:
            self.adapter.prune()

    async def close(self) -> None:
        """Stop the timers (a tick in progress is delivered), write the pending table edits and
        queued posts (bounded), then disconnect."""
        if not self.is_closed():
            await stop_ticker(self._ticker, self._halt)
            await flush_adapter(self.adapter, log)
        await super().close()


def build_client(
    settings: Settings,
    adapter: DiscordAdapter,
    *,
    start_core: bool = True,
    timers: bool = True,
    metrics: Meter | None = None,
) -> DiscordBot:
    """The gateway client the settings ask for: its shards (`DISCORD_SHARD_COUNT`, and
    `DISCORD_SHARD_IDS` when this process runs only some of them), its command guild, and the
    Activity's Entry Point command when `DISCORD_CLIENT_ID` and `DISCORD_CLIENT_SECRET` are set;
    with `metrics`, each API call and each 429 is counted (`metering.api_trace`)."""
    return DiscordBot(
        adapter,
        shard_count=settings.discord_shard_count,
        shard_ids=settings.discord_shard_ids,
        guild_id=settings.discord_guild_id,
        start_core=start_core,
        timers=timers,
        activity=settings.discord_activity,
        http_trace=None if metrics is None else api_trace(metrics),
    )


async def serve(
    settings: Settings,
    core: CoreApi,
    *,
    start_core: bool = True,
    timers: bool = True,
    adapter: DiscordAdapter | None = None,
    stop: asyncio.Event | None = None,
    table_messages: SurfaceStore | None = None,
    rooms: LateRooms | None = None,
    metrics: Meter | None = None,
) -> None:
    """Run the Discord bot on `core` until it is closed or `stop` is set; then the timers stop,
    the pending edits are written (bounded) and the gateway is closed (`DiscordBot.close`).

    With one core shared by several front ends, only one of them should call `core.start()` and
    `core.tick()` and hand the items to every adapter (`adapter.deliver_unasked(items)` here):
    pass `start_core=False, timers=False` and your own `adapter` for that. `table_messages` (the
    store) keeps each table's message where every process finds it (docs/deploy.md); `rooms`,
    given to the core, gets the adapter's table threads (`DiscordAdapter.rooms`); `metrics`
    counts the API calls, the 429s and the adapter's own waits for a channel's post budget."""
    if settings.discord_token is None:
        raise ValueError("DISCORD_TOKEN is not set")
    adapter = adapter or DiscordAdapter(
        core,
        default_locale=settings.default_locale,
        moderator_role=settings.moderator_role,
        table_messages=table_messages,
    )
    adapter.activity = adapter.activity or settings.discord_activity
    if rooms is not None:
        rooms.use(adapter.rooms)
    if metrics is not None:
        adapter.lanes.on_wait = partial(metrics.rate_limited, PLATFORM)
    client = build_client(settings, adapter, start_core=start_core, timers=timers, metrics=metrics)
    stop = stop or asyncio.Event()
    async with client:
        token = settings.discord_token.get_secret_value()
        running = asyncio.create_task(start_reaching(client, token, stop))
        stopping = asyncio.create_task(stop.wait())
        try:
            await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
            if not running.done():
                await client.close()  # makes `start` return
                await asyncio.wait({running}, timeout=FLUSH_SECONDS)
            if not running.done():
                running.cancel()
            await asyncio.gather(running, return_exceptions=True)
        if not stop.is_set():
            running.result()  # a login failure or a gateway error is raised here


async def serve_with_store(settings: Settings, stop: asyncio.Event | None = None) -> None:
    """Open the store (upgrading its schema), build a core for Discord's tables only and serve
    Discord on it until `stop` is set; the store is closed at the end."""
    await serve_on_store(settings, serve, PLATFORM, stop=stop)


def run(settings: Settings, core: CoreApi | None = None) -> None:
    """Run the Discord bot in the foreground until SIGTERM or SIGINT, then stop cleanly (see
    `serve`); without a core, one is built on the store at `settings.database_url`."""
    run_platform(settings, serve, PLATFORM, core, log)
