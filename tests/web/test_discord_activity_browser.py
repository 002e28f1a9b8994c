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
from testkit.browser import PHONE, SHOTS, WAIT_MS, chromium, fake_pictures
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
GUILD = "613425648685547541"
AVATAR = "0123456789abcdef0123456789abcdef"  # Ayşe's avatar hash (Mehmet has none)
POKER = [
    (AYSE, "/poker open turkish 10"),
    (AYSE, "/poker join 200"),
    (MEHMET, "/poker join 200"),
    (AYSE, "/poker start"),
]
OKEY101 = [(AYSE, "/okey start 101 3 10"), (MEHMET, "/okey join"), (AYSE, "/okey begin")]


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
async def activity(lines: list[tuple[str, str]] = POKER) -> AsyncIterator[Activity]:
    fake = FakeDiscordOAuth(APP_ID, SECRET, BOT_TOKEN)
    fake.add_user(AYSE, "Ayşe", locale="en-US", avatar=AVATAR)
    fake.add_user(MEHMET, "Mehmet")
    fake.add_user(ZEYNEP, "Zeynep")
    api = await fake.start()
    store = await open_memory_store()
    core = make_core(store, seed="activity", clock=Clock(datetime.now(UTC).replace(microsecond=0)))
    for user, line in lines:
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


async def open_activity(
    browser: Any, site: Activity, user: str, query: str = "", **standin_says: Any
) -> Any:
    """The page as Discord opens it for `user` in the channel's instance, with the SDK's
    stand-in answering `authorize` with a fresh code of `user` (and what `standin_says`);
    `query` more of Discord's query (`&guild_id=...`)."""
    instance = site.discord.launch(CHANNEL, [AYSE, MEHMET])
    context = await browser.new_context(viewport=PHONE, locale="en-US")
    answers = {"code": site.discord.grant(user), **standin_says}
    await context.add_init_script(f"window.__discord = {json.dumps(answers)};")

    async def standin(route: Any) -> None:
        await route.fulfill(path=str(STANDIN), content_type="text/javascript")

    await context.route("**/static/vendor/discord-sdk.js", standin)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.pictures = await fake_pictures(context)
    address = f"{site.base}?frame_id=frame-1&instance_id={instance}&platform=desktop{query}"
    await page.goto(address)
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


async def calls_of(page: Any, name: str) -> list[Any]:
    """The stand-in's recorded calls named `name`, with their arguments."""
    calls = await page.evaluate("window.__discord.calls")
    return [call[1:] for call in calls if call[0] == name]


async def test_the_activity_invites_shows_who_is_in_it_sets_presence_and_avatars(browser):
    participants = [
        {"id": AYSE, "username": "ayse", "global_name": "Ayşe", "avatar": AVATAR},
        {"id": MEHMET, "username": "mehmet", "global_name": None, "nickname": "Memo"},
    ]
    async with activity(OKEY101) as site:
        page = await open_activity(
            browser,
            site,
            AYSE,
            f"&guild_id={GUILD}&channel_id={CHANNEL}",
            participants=participants,
        )
        await page.locator("section.okey").first.wait_for(timeout=WAIT_MS)
        # the SDK authenticated with Ayşe's own token, once signed in
        (authenticated,) = await calls_of(page, "authenticate")
        assert site.discord.tokens[authenticated[0]["access_token"]] == AYSE
        # who is in the Activity, and an update from Discord
        people = page.locator("#live .people li")
        await people.nth(1).wait_for(timeout=WAIT_MS)
        assert await people.all_inner_texts() == ["Ayşe", "Memo"]
        assert await calls_of(page, "subscribe") == [["ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"]]
        await page.evaluate(
            "window.__discord.emit('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE',"
            " {participants: [{id: '1', username: 'zeynep', global_name: 'Zeynep'}]})"
        )
        await page.locator("#live .people li", has_text="Zeynep").wait_for(timeout=WAIT_MS)
        assert await people.count() == 1
        # "Invite to this table" opens Discord's invite dialog
        await page.get_by_role("button", name=t("en", "web.invite")).click()
        assert await calls_of(page, "openInviteDialog") == [[]]
        # Rich Presence: the game and round, the open seats, the table as the party
        table = await page.evaluate("document.querySelector('#main').dataset.hand")
        assert table  # a round is being played
        presence = await calls_of(page, "setActivity")
        assert presence, "no Rich Presence set"
        activity_set = presence[-1][0]["activity"]
        game = t("en", "web.game.okey101")
        assert activity_set["type"] == 0
        assert activity_set["details"] == t(
            "en", "web.presence_round", game=game, round=1, rounds=3
        )
        assert activity_set["state"] == t("en", "web.presence_open", count=2)
        assert activity_set["party"]["size"] == [2, 4]
        # Mehmet never opened the Activity: Discord's default avatar for his id on his seat
        default = f"https://cdn.discordapp.com/embed/avatars/{(int(MEHMET) >> 22) % 6}.png"
        await shows_pictures(page, [default])
        assert page.errors == []
        await page.context.close()


async def shows_pictures(page: Any, urls: list[str]) -> None:
    """The page's seats show these pictures, loaded (the page's policy let them in)."""
    pictures = page.locator("img.avatar")
    await pictures.nth(len(urls) - 1).wait_for(timeout=WAIT_MS)
    assert await pictures.evaluate_all("nodes => nodes.map(n => n.src)") == urls
    await page.wait_for_function(
        "() => [...document.querySelectorAll('img.avatar')].every(i => i.naturalWidth > 0)",
        timeout=WAIT_MS,
    )
    assert page.pictures == urls


async def test_no_invite_button_in_a_direct_message(browser):
    """Discord's invite dialog does not work outside a server (no `guild_id`): no button."""
    async with activity() as site:
        page = await open_activity(browser, site, AYSE)
        await page.locator("section.hand [data-card]").first.wait_for(timeout=WAIT_MS)
        await page.wait_for_function("() => window.__discord.calls.some(c => c[0] === 'subscribe')")
        assert await page.get_by_role("button", name=t("en", "web.invite")).count() == 0
        # Ayşe's own avatar on her seat (from what Discord's API said of her), Mehmet's default
        default = f"https://cdn.discordapp.com/embed/avatars/{(int(MEHMET) >> 22) % 6}.png"
        own = f"https://cdn.discordapp.com/avatars/{AYSE}/{AVATAR}.png?size=64"
        await shows_pictures(page, [own, default])
        assert page.errors == []
        await page.context.close()
