"""Starting the web table beside the chat adapters (`python -m bot`, docs/web.md).

The signing secret is `WEB_SECRET`, else one the bot generates once and keeps in the database
(`web_secrets`), so links and sessions survive a restart and every process of the bot shares it;
either way it is registered with the log redactor. Links point at `WEB_PUBLIC_URL`, else at the
loopback address the server listens on. A port already taken is logged and the bot runs on
without the web table.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from bot.adapters.web.discord_auth import PLATFORM, DiscordApp, attach_discord
from bot.adapters.web.metrics import Metrics
from bot.adapters.web.server import Front, WebConfig, WebTable
from bot.adapters.web.tokens import SECRET_NAME, Identity, Signer, new_secret
from bot.logs import kv, redact
from bot.settings import Settings

log = logging.getLogger("bot.web")

LinkMaker = Callable[[str, str, str, str, str], str]


async def web_signer(settings: Settings, store: Any) -> Signer:
    """The signer of links and sessions: `WEB_SECRET`, else the secret kept in the database
    (made by the first process that needed one). The secret is never logged."""
    if settings.web_secret is not None:
        secret = settings.web_secret.get_secret_value()
    else:
        secret = await store.shared_secret(SECRET_NAME, new_secret())
    redact(secret)
    return Signer(secret)


def base_url(settings: Settings, port: int | None = None) -> str:
    """Where the players reach the web table: `WEB_PUBLIC_URL`, else the loopback address."""
    if settings.web_public_url:
        return settings.web_public_url
    host = settings.web_listen
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{settings.web_port if port is None else port}"


def link_maker(signer: Signer, base: str | Callable[[], str]) -> LinkMaker:
    """The core's `/table web` link maker: a signed link for that user and table, at `base`
    (or what `base()` says when the link is made: the port is known once listening)."""

    def make(platform: str, user_id: str, name: str, table_id: str, locale: str) -> str:
        root = base() if callable(base) else base
        return f"{root}/t/{signer.link(Identity(platform, user_id, name, table_id, locale))}"

    return make


def telegram_token(settings: Settings) -> str | None:
    """The bot token Mini App launch data is checked with."""
    return None if settings.telegram_token is None else settings.telegram_token.get_secret_value()


async def start_web(
    settings: Settings,
    fronts: dict[str, Front],
    signer: Signer,
    metrics: Metrics,
    states: dict[str, Callable[[], str]] | None = None,
) -> WebTable | None:
    """Serve the web table on `WEB_LISTEN:WEB_PORT`; None (logged) when it cannot listen."""
    config = WebConfig(
        public_url=settings.web_public_url,
        max_viewers=settings.web_max_viewers_per_table,
        telegram_token=telegram_token(settings),
        default_locale=settings.default_locale,
        states=states or {},
    )
    web = WebTable(fronts, signer, config, metrics=metrics)
    activity = DiscordApp.from_settings(settings)  # the Discord Activity (docs/discord.md)
    if activity is not None and PLATFORM in fronts:
        attach_discord(web, activity)
    try:
        await web.start(settings.web_listen, settings.web_port)
    except OSError as exc:
        log.warning(kv(event="web_not_started", port=settings.web_port, error=exc.strerror))
        await web.stop()
        return None
    log.info(kv(event="web_started", listen=settings.web_listen, port=web.port))
    return web
