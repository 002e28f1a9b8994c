"""The page around the table, in a real browser: Telegram's theme colours from the Mini App's
launch parameters, and a refused session told in words (no table drawn)."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from bot.core.i18n import t
from tests.web_browser.conftest import PHONE, WAIT_MS, site
from tests.web_browser.helpers import TURKISH

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_the_telegram_theme_colours_the_page_and_a_refused_launch_is_told(browser):
    theme = {"bg_color": "#112233", "text_color": "#fafafa", "button_color": "#ff8800"}
    async with site(TURKISH) as s:
        base = str(s.web.client.make_url("/"))
        # launch data this server cannot check (it has no Telegram token): refused
        launch = f"tgWebAppData={quote('user=%7B%7D&hash=00')}&tgWebAppThemeParams={quote(json.dumps(theme))}"
        context = await browser.new_context(viewport=PHONE, locale="en-US")
        page = await context.new_page()
        await page.goto(f"{base}#{launch}")
        await page.get_by_text(t("en", "err.web_session")).wait_for(timeout=WAIT_MS)
        colours = await page.evaluate(
            "() => [getComputedStyle(document.body).backgroundColor,"
            " getComputedStyle(document.body).color]"
        )
        assert colours == ["rgb(17, 34, 51)", "rgb(250, 250, 250)"]
        assert "tgWebAppData" not in page.url  # the launch data leaves the address bar
        assert await page.locator("section.poker, section.okey").count() == 0
        # no session at all: the page says where to open it from
        other = await context.new_page()
        await other.goto(base)
        await other.get_by_text(t("en", "web.no_session")).wait_for(timeout=WAIT_MS)
        await context.close()
