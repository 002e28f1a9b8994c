"""Logging in to Discord and opening the gateway, retried with backoff while Discord cannot be
reached (`bot.adapters.reach`): one WARNING line says so, a stop signal ends the waiting."""

from __future__ import annotations

import asyncio
import logging
from urllib.parse import urlsplit

import aiohttp
import discord
from discord.http import Route
from discord.utils import MISSING

from bot.adapters.reach import keep_trying

log = logging.getLogger("bot.discord")

PLATFORM = "discord"
# Errors of a network that does not answer (not of a token Discord rejects).
NETWORK_ERRORS = (
    aiohttp.ClientError,
    OSError,  # TimeoutError and connection refused/reset among them
    discord.GatewayNotFound,
    discord.DiscordServerError,
)


def unreachable(error: BaseException) -> bool:
    """Whether an error means Discord could not be reached (retry) rather than refused us."""
    return isinstance(error, NETWORK_ERRORS)


async def start_reaching(client: discord.Client, token: str, stop: asyncio.Event) -> None:
    """`client.start(token)`, except that while Discord cannot be reached the login, and then the
    gateway connection, are tried again with backoff; returns when `stop` is set while waiting,
    or when the client is closed. A rejected token (`LoginFailure`) is raised. A failure once the
    start-up hook runs (commands, tables resumed) is raised too, so it never runs twice."""
    target = urlsplit(Route.BASE).netloc

    async def login() -> bool:
        await client.login(token)
        return True

    async def fresh_session() -> None:
        await client.http.close()
        client.http.connector = MISSING  # the closed session took its connector with it

    def before_hook(error: BaseException) -> bool:
        return unreachable(error) and not getattr(client, "hooked", False)

    logged_in = await keep_trying(
        login,
        platform=PLATFORM,
        target=target,
        unreachable=before_hook,
        stop=stop,
        log=log,
        before_retry=fresh_session,
    )
    if not logged_in:
        return

    async def connect() -> bool:
        await client.connect(reconnect=True)
        return True

    await keep_trying(
        connect,
        platform=PLATFORM,
        target=target,
        unreachable=unreachable,
        stop=stop,
        log=log,
        cancel_on_stop=False,  # `serve` closes the client, which ends the connection cleanly
    )
