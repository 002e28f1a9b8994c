"""Start the bot: Discord and/or Telegram when their tokens are set, else the console table."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.adapters.runtime import run_in_foreground
from bot.logs import kv, setup_logging, token_parts
from bot.settings import Settings, SettingsError, load_settings

if TYPE_CHECKING:
    from bot.core.config import CoreConfig

log = logging.getLogger("bot")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options of `python -m bot`."""
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument("--console", action="store_true", help="run the local console table")
    parser.add_argument("--seed", help="master seed (any text) for repeatable console games")
    parser.add_argument(
        "--pictures",
        nargs="?",
        const="pictures",
        default=None,
        help="write table pictures as PNG files into this folder (default: pictures/)",
    )
    parser.add_argument(
        "--moderator",
        action="append",
        default=[],
        help="console player name allowed to use /table reset and /table kick (repeatable)",
    )
    parser.add_argument(
        "--verbose", action="store_true", help="console: show INFO log lines on stderr"
    )
    return parser.parse_args(argv)


def choose_platforms(has_discord: bool, has_telegram: bool, force_console: bool) -> list[str]:
    """Which front ends to start for the configured tokens."""
    if force_console:
        return ["console"]
    platforms = [name for name, on in (("discord", has_discord), ("telegram", has_telegram)) if on]
    return platforms or ["console"]


def console_config(settings: Settings, *, pictures: bool) -> CoreConfig:
    """The console core's configuration: the settings' language, time limits (TURN_SECONDS,
    IDLE_CLOSE_SECONDS) and time zone, as the chat platforms get them."""
    from bot.core.config import CoreConfig

    return CoreConfig(
        default_locale=settings.default_locale,
        pictures=pictures,
        turn_seconds=settings.turn_seconds,
        idle_close_seconds=settings.idle_close_seconds,
        rematch_seconds=settings.rematch_seconds,
        idle_close_hands=settings.idle_close_hands,
        max_computers_per_table=settings.max_computers_per_table,
        max_computers_per_community=settings.max_computers_per_community,
        max_open_tables=settings.max_open_tables,
        max_running_tournaments=settings.max_running_tournaments,
        timezone=settings.timezone,
        seed_reveal_hours=settings.seed_reveal_hours,
        retention_days=settings.retention_days,
    )


async def run_console(settings: Settings, args: argparse.Namespace, stop: asyncio.Event) -> None:
    """Open the store (upgrading its schema; while the database cannot be reached, one log line
    and retries until it answers or `stop`), load open tables and run the console table on
    stdin until end of input or `stop`; with `WEB_ENABLED` (the default) the web table runs
    beside it on loopback (`/table web` prints a player's link) and the turn timers run on
    the clock. The store is closed however it ends."""
    from dataclasses import replace

    from bot.adapters.console import Console, banner
    from bot.adapters.console import run_console as console_loop
    from bot.adapters.lines import read_lines
    from bot.adapters.runtime import stop_ticker, tick_forever, utcnow
    from bot.adapters.store_open import open_store
    from bot.adapters.web.metrics import MeteredCore, Metrics
    from bot.adapters.web.runner import base_url, link_maker, start_web, web_signer
    from bot.adapters.web.server import Front
    from bot.core.app import Core
    from bot.core.table.fairness import SeededSource, random_seeds

    store = await open_store(settings.database_url, stop, log)  # waits while it is away
    if store is None:  # stopped before the database came
        return
    web = None
    halt = asyncio.Event()
    ticker: asyncio.Task[None] | None = None
    core: Core | None = None
    try:
        seeds = SeededSource(args.seed) if args.seed else random_seeds
        config = console_config(settings, pictures=bool(args.pictures))
        signer = await web_signer(settings, store) if settings.web_enabled else None
        if signer is not None:
            where = lambda: base_url(settings, None if web is None else web.port)  # noqa: E731
            config = replace(config, web_link=link_maker(signer, where))
        metrics = Metrics()
        core = Core(store, config, seeds=seeds)
        metered: Any = MeteredCore(core, metrics)
        console = Console(
            sys.stdout,
            settings.default_locale,
            tuple(args.moderator),
            Path(args.pictures) if args.pictures else None,
        )

        async def show(items: list[Any]) -> None:
            console.show(items)

        banner()
        if signer is not None:
            web = await start_web(
                settings, {"console": Front(metered, show)}, signer, metrics,
                states={"console": lambda: "running"},
            )  # fmt: skip
        if web is not None:
            print(
                f"[console] The web table: {base_url(settings, web.port)} — type "
                "`name: /table web` for that player's own link.",
                flush=True,
            )
            ticker = asyncio.create_task(
                tick_forever(metered, show, now=utcnow, every=1.0, log=log, stop=halt)
            )
        await console_loop(
            metered,
            read_lines(sys.stdin.fileno(), stop, sys.stdin.encoding or "utf-8"),
            sys.stdout,
            stop=stop,
            console=console,
        )
        print("[console] bye", flush=True)
    finally:
        await stop_ticker(ticker, halt)
        if web is not None:
            await web.stop()
        if core is not None:
            await core.close()
        await store.close()
        log.info(kv(event="store_closed"))


def secrets_of(settings: Settings) -> list[str]:
    """What no log line may show: the platform tokens (and a Telegram token's secret part), the
    Telegram webhook secret (set, or derived from the token), the Discord client secret and the
    database password."""
    found: list[str] = []
    if settings.discord_token is not None:
        found += token_parts(settings.discord_token.get_secret_value())
    if settings.discord_client_secret is not None:  # the Activity's OAuth2 secret
        found.append(settings.discord_client_secret.get_secret_value())
    password = _database_password(settings.database_url)
    if password:
        found.append(password)
    if settings.telegram_token is not None:
        from bot.adapters.telegram import webhook_secret

        found += token_parts(settings.telegram_token.get_secret_value())
        found.append(webhook_secret(settings))
    return found


def _database_password(url: str) -> str | None:
    """The password in a database URL, if any (an unreadable URL: None, the store says why)."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).password
    except Exception:
        return None


def main(argv: list[str] | None = None) -> int:
    """Run the bot until it is stopped; returns the process exit code."""
    args = parse_args(argv)
    try:
        settings = load_settings()
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    setup_logging(settings.log_level, secrets_of(settings))
    if settings.discord_shards_deprecated:
        log.warning(
            kv(event="deprecated_setting", name="DISCORD_SHARDS", use="DISCORD_SHARD_COUNT")
        )
    platforms = choose_platforms(
        settings.discord_token is not None, settings.telegram_token is not None, args.console
    )
    if platforms == ["console"] and not args.verbose:  # log lines would drown the table
        logging.getLogger().setLevel(max(logging.WARNING, logging.getLogger().level))
    log.info(kv(event="start", platforms=",".join(platforms)))
    if platforms == ["console"]:
        sys.stdout.reconfigure(errors="replace")  # type: ignore[union-attr]  # any text prints
        run_in_foreground(partial(run_console, settings, args), log, "stopped")
        return 0
    if settings.web_enabled:  # the chat platforms and the web table, one store
        stopped = f"{platforms[0]}_stopped" if len(platforms) == 1 else "stopped"
        run_in_foreground(partial(run_platforms, settings, platforms), log, stopped)
        return 0
    if platforms == ["discord"]:  # Discord alone: bot/adapters/discord, its shards in this process
        from bot.adapters.discord import run as run_discord

        run_discord(settings)
        return 0
    if platforms == ["telegram"]:  # Telegram alone: bot/adapters/telegram (polling or webhook)
        from bot.adapters.telegram import run as run_telegram

        run_telegram(settings)
        return 0
    # both tokens: one process, one store, a core per platform
    run_in_foreground(partial(run_platforms, settings, platforms), log, "stopped")
    return 0


async def run_platforms(
    settings: Settings, platforms: list[str], stop: asyncio.Event | None = None
) -> None:
    """Serve several platforms on one store until `stop` is set (the store opened once the
    database answers: `bot.adapters.store_open`); each gets its own core, which
    loads and times only that platform's tables (`CoreConfig.platforms`), so no timer output goes
    astray. With `WEB_ENABLED` the web table serves every platform's tables beside them, its
    moves' items delivered through that platform's adapter. The store is closed after every
    platform has stopped."""
    from bot.adapters import discord, telegram
    from bot.adapters.discord import DiscordAdapter
    from bot.adapters.runtime import platform_core
    from bot.adapters.store_open import open_store
    from bot.adapters.web.metrics import MeteredCore, Metrics
    from bot.adapters.web.runner import link_maker, start_web, web_signer
    from bot.adapters.web.server import Front
    from bot.core.app import Core
    from bot.core.table.pictures import warm_up_pictures

    serve: dict[str, Callable[..., Awaitable[None]]] = {
        "discord": discord.serve,
        "telegram": telegram.serve,
    }
    stop = stop or asyncio.Event()
    store = await open_store(settings.database_url, stop, log)  # waits while it is away
    if store is None:  # stopped before the database came
        return
    web = None
    served: list[Any] = []  # the web table, once listening (its port for the links)
    cores: list[Core] = []  # closed after serving (`Core.close`)
    try:
        signer = await web_signer(settings, store) if settings.web_enabled else None
        metrics = Metrics()
        fronts: dict[str, Front] = {}
        states: dict[str, Callable[[], str]] = {}
        runs = []
        for name in platforms:
            link = None if signer is None else link_maker(signer, partial(_base, settings, served))
            core, rooms = platform_core(store, settings, name, web_link=link)
            cores.append(core)
            metered: Any = MeteredCore(core, metrics)
            front = fronts[name] = Front(metered)
            states[name] = lambda: "serving"
            options: dict[str, Any] = {}
            if name == "discord":
                adapter = DiscordAdapter(
                    metered,
                    default_locale=settings.default_locale,
                    moderator_role=settings.moderator_role,
                    table_messages=store,
                )
                front.deliver = adapter.deliver_unasked
                options["adapter"] = adapter
            else:
                options["on_adapter"] = partial(_deliver_through, front)
            options["metrics"] = metrics
            runs.append(
                serve[name](
                    settings, metered, stop=stop, table_messages=store, rooms=rooms, **options
                )
            )
        if settings.pictures:
            runs.append(warm_up_pictures())
        if signer is not None:
            web = await start_web(settings, fronts, signer, metrics, states)
            served.append(web)
        await asyncio.gather(*runs)
    finally:
        if web is not None:
            await web.stop()
        for core in cores:
            await core.close()
        await store.close()
        log.info(kv(event="store_closed"))


def _base(settings: Settings, served: list[Any]) -> str:
    """Where links point: the public address, else loopback at the port listened on."""
    from bot.adapters.web.runner import base_url

    return base_url(settings, served[0].port if served and served[0] is not None else None)


def _deliver_through(front: Any, adapter: Any) -> None:
    """The web table's moves at this platform's tables are delivered by its adapter."""
    front.deliver = adapter.deliver


if __name__ == "__main__":
    sys.exit(main())
