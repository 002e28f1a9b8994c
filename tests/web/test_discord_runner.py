"""The runner lets the Discord Activity in on the web table only when it is configured:
DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET and DISCORD_TOKEN set, the web table enabled and a
Discord front served; otherwise `/api/auth/discord` does not exist."""

from __future__ import annotations

import aiohttp
import pytest

from bot.adapters.web.metrics import Metrics
from bot.adapters.web.runner import start_web
from bot.adapters.web.server import Front
from bot.adapters.web.tokens import Signer
from bot.settings import load_settings
from testkit.fakes.core import NarrowCore

APP_ID = "1215413995645968394"


def settings(**more):
    return load_settings(
        discord_token="x" * 60, web_listen="127.0.0.1", web_port=0, _env_file=None, **more
    )


async def client_id_route(web) -> tuple[int, dict | None]:
    url = f"http://127.0.0.1:{web.port}/api/auth/discord"
    async with aiohttp.ClientSession() as http, http.get(url) as got:
        return got.status, (await got.json() if got.status == 200 else None)


@pytest.mark.parametrize(
    ("more", "platform", "on"),
    [
        ({"discord_client_id": APP_ID, "discord_client_secret": "c" * 32}, "discord", True),
        ({}, "discord", False),
        ({"discord_client_id": APP_ID, "discord_client_secret": "c" * 32}, "telegram", False),
    ],
)
async def test_the_route_exists_only_when_the_activity_is_configured(more, platform, on):
    web = await start_web(
        settings(**more), {platform: Front(NarrowCore())}, Signer("s" * 32), Metrics()
    )
    assert web is not None
    try:
        status, body = await client_id_route(web)
        assert (status, body) == ((200, {"client_id": APP_ID}) if on else (404, None))
        origins = web.config.origins
        assert origins == (("https://" + APP_ID + ".discordsays.com",) if on else ())
    finally:
        await web.stop()


def test_the_activity_needs_the_web_table():
    on = {"discord_client_id": APP_ID, "discord_client_secret": "c" * 32}
    assert settings(**on).discord_activity
    assert not settings(web_enabled=False, **on).discord_activity
