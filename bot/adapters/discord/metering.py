"""Counting Discord's API calls for `/metrics`, through discord.py's own HTTP session.

discord.py sends every REST request (channel messages, interaction responses and follow-ups,
command syncs) through one aiohttp session, and `discord.Client(http_trace=...)` hands that
session an aiohttp `TraceConfig`. `api_trace` makes one that tells a meter
(`bot.adapters.web.metrics.Metrics`) of each request and of each 429 answer (a rate-limit wait
discord.py then sleeps out). The gateway's WebSocket upgrade is not an API call and is not
counted.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Protocol

import aiohttp

PLATFORM = "discord"
TOO_MANY_REQUESTS = 429


class Meter(Protocol):
    """What counts the calls (`Metrics` has both)."""

    def platform_call(self, platform: str) -> None:
        """One API call was made."""

    def rate_limited(self, platform: str) -> None:
        """The platform's rate limit made the bot wait."""


def is_api_call(url: object) -> bool:
    """Whether a request is a REST call (http or https), not the gateway's WebSocket."""
    scheme = getattr(url, "scheme", "")
    return scheme in ("http", "https")


def api_trace(meter: Meter) -> aiohttp.TraceConfig:
    """An aiohttp trace for discord.py's session that counts each API call and each 429."""
    trace = aiohttp.TraceConfig()

    async def started(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        if is_api_call(params.url):
            meter.platform_call(PLATFORM)

    async def ended(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        if is_api_call(params.url) and params.response.status == TOO_MANY_REQUESTS:
            meter.rate_limited(PLATFORM)

    trace.on_request_start.append(started)
    trace.on_request_end.append(ended)
    return trace
