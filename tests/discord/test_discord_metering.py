"""Discord's API calls and rate-limit waits reach `/metrics`: the client built with a meter
counts each REST request discord.py makes (through its own aiohttp session) and each 429."""

from __future__ import annotations

import asyncio

import discord
from discord.http import Route

from bot.adapters.discord import DiscordAdapter, build_client
from bot.adapters.discord.metering import is_api_call
from bot.adapters.web.metrics import Metrics
from bot.settings import load_settings
from testkit import virtual_time
from testkit.fakes.discord_rest_server import FakeDiscordRest

CHANNEL = 500_000_000_000_000_321


def series(metrics: Metrics, name: str) -> float:
    """The value of `name` for platform discord (0 when not counted yet)."""
    value = metrics.registry.get_sample_value(name, {"platform": "discord"})
    return 0.0 if value is None else value


def test_only_http_requests_are_api_calls():
    class Url:
        def __init__(self, scheme: str) -> None:
            self.scheme = scheme

    assert is_api_call(Url("https")) and is_api_call(Url("http"))
    assert not is_api_call(Url("wss")) and not is_api_call(object())


def test_the_client_counts_its_api_calls_and_the_429s_it_waits_out():
    async def main() -> tuple[Metrics, FakeDiscordRest]:
        rest = FakeDiscordRest()
        base, Route.BASE = Route.BASE, await rest.start()
        metrics = Metrics()
        settings = load_settings(discord_token="fake-token")
        client = build_client(
            settings,
            DiscordAdapter(object()),  # type: ignore[arg-type]  # no table is played here
            start_core=False,
            timers=False,
            metrics=metrics,
        )
        # a second process on the same bot token, which does not know the bucket is spent
        other = discord.Client(intents=discord.Intents.none())
        try:
            async with client, other:
                await client.http.static_login("fake-token")
                await other.http.static_login("fake-token")
                elsewhere = other.get_partial_messageable(CHANNEL)
                for n in range(4):
                    await elsewhere.send(f"elsewhere {n}")
                # the fifth empties the channel's bucket (discord.py then waits for it to refill)
                last = asyncio.create_task(elsewhere.send("elsewhere 4"))
                while len(rest.calls) < 7:  # two log-ins and five posts have reached the fake
                    await asyncio.sleep(0.001)
                await client.get_partial_messageable(CHANNEL).send("here")  # a 429, then again
                await last
        finally:
            Route.BASE = base
            await rest.stop()
        return metrics, rest

    loop = virtual_time.VirtualTimeLoop()
    try:
        metrics, rest = loop.run_until_complete(main())
    finally:
        loop.close()
    assert rest.rate_limited == 1
    # the log-in's users/@me, the refused post and the post that went through: only this client's
    assert series(metrics, "bot_platform_calls_total") == 3
    assert series(metrics, "bot_rate_limit_waits_total") == 1
    assert b'bot_platform_calls_total{platform="discord"} 3.0' in metrics.render()
