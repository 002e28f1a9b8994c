"""The Telegram Mini App's live features in a real browser, through a stand-in for Telegram's
`window.Telegram.WebApp` (injected before the page's scripts, recording every call; a fake at
the network's edge, as the client would provide it): full screen on a client that allows it
(8.0), else the whole height and the compact layout; a haptic tap when the player's turn comes
and when a move is refused; the player's Telegram photo on their seat, from the signed launch
data. And the same page in a plain browser: none of it, no errors."""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest

from bot.adapters.web import telegram_auth
from bot.adapters.web.server import WebConfig, start_param
from bot.adapters.web.tokens import Identity
from bot.core.i18n import t
from testkit.browser import PHONE, WAIT_MS, fake_pictures
from testkit.helpers import Clock, cmd, make_core
from testkit.stores import open_file_store
from testkit.web import Harness, serve_web

pytestmark = pytest.mark.asyncio(loop_scope="session")

TOKEN = "123456:telegram-test-token"
AYSE, MEHMET = "1001", "1002"
NAMES = {AYSE: "Ayşe", MEHMET: "Mehmet"}
PHOTOS = {u: f"https://t.me/i/userpic/320/photo-{u}.jpg" for u in NAMES}

# Telegram's WebApp object as the client gives it (telegram-web-app.js), recording calls
STANDIN = """
window.Telegram = { WebApp: (() => {
  const calls = [];
  const version = %s;
  const atLeast = (want) => {
    const a = version.split(".").map(Number), b = want.split(".").map(Number);
    for (let i = 0; i < 2; i += 1) if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) > (b[i] || 0);
    return true;
  };
  return {
    calls, version,
    isVersionAtLeast: (want) => atLeast(want),
    ready: () => calls.push(["ready"]),
    expand: () => calls.push(["expand"]),
    requestFullscreen: () => calls.push(["requestFullscreen"]),
    HapticFeedback: {
      notificationOccurred: (type) => calls.push(["notificationOccurred", type]),
      impactOccurred: (style) => calls.push(["impactOccurred", style]),
    },
  };
})() };
"""


@dataclass
class Site:
    """A Telegram table served on loopback: the core, the web server, the table, who acts."""

    core: Any
    web: Harness
    table: str
    acting: str

    @property
    def base(self) -> str:
        return str(self.web.client.make_url("/"))

    def launch(self, user: str, version: str) -> str:
        """The page's address as Telegram opens the Mini App for `user` (signed launch data)."""
        fields = {
            "auth_date": str(int(self.web.clock[0])),
            "user": json.dumps(
                {"id": int(user), "first_name": NAMES[user], "photo_url": PHOTOS[user]}
            ),
            "start_param": start_param(self.table),
        }
        data = urlencode({**fields, "hash": telegram_auth.sign(fields, TOKEN)})
        return f"{self.base}#tgWebAppData={quote(data)}&tgWebAppVersion={version}"


@asynccontextmanager
async def telegram_table() -> AsyncIterator[Site]:
    """A dealt Türk pokeri table of Ayşe and Mehmet in a Telegram group, its web table with the
    bot's token (to check launch data)."""
    folder = tempfile.TemporaryDirectory(prefix="web-telegram-")
    store = await open_file_store(Path(folder.name))
    try:
        core = make_core(store, seed="mini", clock=Clock(datetime.now(UTC).replace(microsecond=0)))
        for user, line in [
            (AYSE, "/poker open turkish 10"),
            (AYSE, "/poker join 200"),
            (MEHMET, "/poker join 200"),
            (AYSE, "/poker start"),
        ]:
            said = replace(cmd(user, line), platform="telegram", user_name=NAMES[user])
            await core.handle(said)
        live = core.tables.in_channel("telegram", "c1")
        assert live is not None
        table = str(live.id)
        view = await core.table_view(table, "telegram", "")
        acting = view.seats[view.acting].user_id
        config = WebConfig(default_locale="en", telegram_token=TOKEN)
        async with serve_web(core, platform="telegram", config=config) as web:
            yield Site(core, web, table, acting)
    finally:
        await store.close()
        folder.cleanup()


async def new_page(browser: Any, version: str | None) -> Any:
    """A page of its own; with `version`, Telegram's WebApp stand-in of that client version."""
    context = await browser.new_context(viewport=PHONE, locale="en-US")
    if version is not None:
        await context.add_init_script(STANDIN % json.dumps(version))
    page = await context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.pictures = await fake_pictures(context)
    return page


async def telegram_calls(page: Any) -> list[list[str]]:
    """What the page asked of Telegram's WebApp."""
    return await page.evaluate("window.Telegram.WebApp.calls")


async def spoil_moves(page: Any) -> list[bool]:
    """Pass the page's socket through, but once the returned flag is set, send its moves with a
    stale turn: the server refuses them as it would a move made too late."""
    spoil = [False]

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def out(message: str | bytes) -> None:
            if spoil[0] and isinstance(message, str) and '"type":"act"' in message:
                data = json.loads(message)
                message = json.dumps({**data, "nonce": "stale"})
            server.send(message)

        ws.on_message(out)

    await page.route_web_socket(re.compile(r"/ws$"), route)
    return spoil


async def test_the_mini_app_goes_full_screen_taps_on_turn_and_refusal_and_shows_photos(browser):
    async with telegram_table() as site:
        page = await new_page(browser, "8.0")
        spoil = await spoil_moves(page)
        await page.goto(site.launch(site.acting, "8.0"))
        await page.locator("button.act:enabled").first.wait_for(timeout=WAIT_MS)
        calls = await telegram_calls(page)
        assert ["ready"] in calls and ["requestFullscreen"] in calls
        assert await page.evaluate("document.body.className.split(' ').includes('fullscreen')")
        # the player's turn came: one success tap
        await page.wait_for_function(
            "() => window.Telegram.WebApp.calls.some(c => c[1] === 'success')", timeout=WAIT_MS
        )
        assert (await telegram_calls(page)).count(["notificationOccurred", "success"]) == 1
        # their own photo on their seat, by URL from the signed launch data, loaded
        own = page.locator("img.avatar")
        await own.first.wait_for(timeout=WAIT_MS)
        assert await own.evaluate_all("nodes => nodes.map(n => n.src)") == [PHOTOS[site.acting]]
        await page.wait_for_function(
            "() => [...document.querySelectorAll('img.avatar')].every(i => i.naturalWidth > 0)",
            timeout=WAIT_MS,
        )
        assert page.pictures == [PHOTOS[site.acting]]
        # a move refused: an error tap, the reason said
        spoil[0] = True
        await page.locator("button.act:enabled").first.click()
        await page.wait_for_function(
            "() => window.Telegram.WebApp.calls.some(c => c[1] === 'error')", timeout=WAIT_MS
        )
        await page.locator("#toasts .toast").first.wait_for(timeout=WAIT_MS)
        assert page.errors == []
        await page.context.close()


async def test_an_older_client_gets_the_whole_height_and_the_compact_layout(browser):
    async with telegram_table() as site:
        waiting = MEHMET if site.acting == AYSE else AYSE
        page = await new_page(browser, "7.10")
        await page.goto(site.launch(waiting, "7.10"))
        await page.locator("section.poker").first.wait_for(timeout=WAIT_MS)
        calls = await telegram_calls(page)
        assert ["expand"] in calls and ["requestFullscreen"] not in calls
        classes = await page.evaluate("document.body.className")
        assert "compact" in classes.split() and "fullscreen" not in classes.split()
        # not their turn: no tap
        assert not [c for c in calls if c[0] == "notificationOccurred"]
        assert page.errors == []
        await page.context.close()


async def test_a_plain_browser_gets_the_same_page_without_the_platforms_features(browser):
    async with telegram_table() as site:
        # Ayşe opened the Mini App once: her photo is known
        mini = await new_page(browser, "8.0")
        await mini.goto(site.launch(AYSE, "8.0"))
        await mini.locator("section.poker").first.wait_for(timeout=WAIT_MS)
        await mini.context.close()
        # Mehmet follows the bot's link in an ordinary browser
        page = await new_page(browser, None)
        token = site.web.web.signer.link(Identity("telegram", MEHMET, "Mehmet", site.table, "en"))
        got = await page.goto(f"{site.base}t/{token}")
        assert got is not None and "img-src" in (await got.all_headers())["content-security-policy"]
        await page.locator("section.poker").first.wait_for(timeout=WAIT_MS)
        assert await page.evaluate("typeof window.Telegram") == "undefined"
        classes = (await page.evaluate("document.body.className")).split()
        assert "fullscreen" not in classes and "compact" not in classes
        assert await page.locator("#live").inner_html() == ""
        assert await page.get_by_role("button", name=t("en", "web.invite")).count() == 0
        # Ayşe's photo on her seat, Mehmet (never in the Mini App) without one
        pictures = page.locator("img.avatar")
        await pictures.first.wait_for(timeout=WAIT_MS)
        assert await pictures.evaluate_all("nodes => nodes.map(n => n.src)") == [PHOTOS[AYSE]]
        await page.wait_for_function(
            "() => document.querySelector('img.avatar').naturalWidth > 0", timeout=WAIT_MS
        )
        assert page.errors == []
        await page.context.close()
