"""The Discord Activity's page in a real browser (Debian's Chromium, driven by Playwright): the
page Discord would open (`/?frame_id=...&instance_id=...&platform=...`), with a stand-in for
Discord's Embedded App SDK served instead of the real bundle (testkit/fakes/
discord_sdk_standin.js: the same calls, answered by the test), signs in through
`POST /api/auth/discord` against the local fake of Discord's API and shows the table as that
player sees it; a user Discord does not place in the instance gets the server's reason.

Skipped without /usr/bin/chromium or the playwright package, except with CI=true (then they
fail: CI must run the browser tests)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.adapters.web.discord_auth import DiscordApp, attach_discord
from bot.adapters.web.server import Front, WebConfig, WebTable
from bot.adapters.web.tokens import Signer
from bot.core.i18n import t
from testkit.browser import PHONE, SHOTS, WAIT_MS, chromium
from testkit.fakes.discord_oauth_server import FakeDiscordOAuth
from testkit.helpers import Clock, cmd, make_core
from testkit.stores import open_memory_store

STANDIN = Path(__file__).parents[2] / "testkit" / "fakes" / "discord_sdk_standin.js"

APP_ID = "1215413995645968394"
SECRET = "s3cr3t-client-secret-value"
BOT_TOKEN = "bot-token-" + "x" * 50
CHANNEL = "912954213460484116"
AYSE, MEHMET, ZEYNEP = "205519959982473217", "205519959982473218", "205519959982473219"
NAMES = {AYSE: "Ayşe", MEHMET: "Mehmet", ZEYNEP: "Zeynep"}


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    """A headless Chromium for the test."""
    async with chromium() as launched:
        yield launched


@dataclass
class Activity:
    """Discord's fake API, the web table serving the Discord front, and its address."""

    discord: FakeDiscordOAuth
    base: str


@asynccontextmanager
async def activity() -> AsyncIterator[Activity]:
    fake = FakeDiscordOAuth(APP_ID, SECRET, BOT_TOKEN)
    fake.add_user(AYSE, "Ayşe", locale="en-US")
    fake.add_user(MEHMET, "Mehmet")
    fake.add_user(ZEYNEP, "Zeynep")
    api = await fake.start()
    store = await open_memory_store()
    core = make_core(store, seed="activity", clock=Clock(datetime.now(UTC).replace(microsecond=0)))
    for user, line in [
        (AYSE, "/poker open turkish 10"),
        (AYSE, "/poker join 200"),
        (MEHMET, "/poker join 200"),
        (AYSE, "/poker start"),
    ]:
        said = cmd(user, line, channel=CHANNEL)
        await core.handle(replace(said, platform="discord", user_name=NAMES[user]))

    async def deliver(items: list[Any]) -> None:
        return None

    table = WebTable(
        {"discord": Front(core, deliver)},
        Signer("test-web-secret-0123456789"),
        WebConfig(default_locale="en"),
    )
    attach_discord(table, DiscordApp(APP_ID, SECRET, BOT_TOKEN, api))
    client = TestClient(TestServer(table.app(), host="127.0.0.1"))
    await client.start_server()
    try:
        yield Activity(fake, str(client.make_url("/")))
    finally:
        await client.close()
        await fake.close()
        await store.close()


async def open_activity(browser: Any, site: Activity, user: str) -> Any:
    """The page as Discord opens it for `user` in the channel's instance, with the SDK's
    stand-in answering `authorize` with a fresh code of `user`."""
    instance = site.discord.launch(CHANNEL, [AYSE, MEHMET])
    context = await browser.new_context(viewport=PHONE, locale="en-US")
    await context.add_init_script(
        f"window.__discord = {json.dumps({'code': site.discord.grant(user)})};"
    )

    async def standin(route: Any) -> None:
        await route.fulfill(path=str(STANDIN), content_type="text/javascript")

    await context.route("**/static/vendor/discord-sdk.js", standin)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    await page.goto(f"{site.base}?frame_id=frame-1&instance_id={instance}&platform=desktop")
    return page


async def test_the_activity_signs_in_through_the_sdk_and_shows_the_table(browser):
    async with activity() as site:
        page = await open_activity(browser, site, AYSE)
        await page.locator("section.hand [data-card]").first.wait_for(timeout=WAIT_MS)
        cards = await page.locator("section.hand [data-card]").count()
        assert cards == 5  # Ayşe's own hand, as in any browser
        calls = await page.evaluate("window.__discord.calls")
        assert calls[0] == ["new", APP_ID]
        assert calls[1] == ["ready"]
        assert calls[2] == [
            "authorize",
            {
                "client_id": APP_ID,
                "response_type": "code",
                "state": "",
                "prompt": "none",
                "scope": ["identify", "rpc.activities.write"],
            },
        ]
        kept = await page.evaluate("JSON.stringify(sessionStorage)")
        assert "code-" not in kept  # the code was spent, never kept
        if SHOTS:
            await page.screenshot(path=str(Path(SHOTS) / "discord-activity.png"), full_page=True)
        assert page.errors == []
        await page.context.close()


async def test_a_user_discord_does_not_place_in_the_instance_is_told_why(browser):
    async with activity() as site:
        page = await open_activity(browser, site, ZEYNEP)  # not among the instance's users
        words = t("en", "err.discord_auth")
        await page.get_by_text(words).wait_for(timeout=WAIT_MS)
        assert await page.locator("section.hand").count() == 0
        await page.context.close()
