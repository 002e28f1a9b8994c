"""The page around the table, in a real browser: Telegram's theme colours from the Mini App's
launch parameters, and a refused session told in words (no table drawn)."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from bot.core.i18n import t
from testkit.helpers import cmd
from tests.web_browser.conftest import PHONE, WAIT_MS, open_page, site
from tests.web_browser.helpers import PLATFORM, TURKISH, close_all

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


async def test_the_rack_moves_a_tile_into_a_gap_between_tiles_or_swaps_in_a_full_row(browser):
    async with site(TURKISH) as s:
        context = await browser.new_context(viewport=PHONE)
        page = await context.new_page()
        await page.goto(str(s.web.client.make_url("/static/index.html")))
        moved = await page.evaluate(
            """async () => {
              const { move, reconcile, fromTiles } = await import("/static/rack.js");
              const row = (...tiles) => [...tiles, ...Array(30 - tiles.length).fill(null)];
              const full = Array.from({ length: 30 }, (_, i) => (i < 16 ? `B${(i % 13) + 1}` : null));
              return {
                gap: move(row("R1", "R2"), 0, 5).slice(0, 6),
                between: move(row("R1", "R2", "R3", null, "K9"), 4, 1).slice(0, 5),
                left: move(row("R1", "R2", null, "R4"), 3, 1).slice(0, 4),
                along: move(full, 0, 3).slice(0, 4),
                swap: move(full, 15, 3).slice(0, 16),
                kept: reconcile(row("R1", null, "B2"), ["B2", "Y7", "R1"]),
                laid: fromTiles(["K1", "F"]).slice(0, 3),
              };
            }"""
        )
        await context.close()
    assert moved["gap"] == [None, "R2", None, None, None, "R1"]
    assert moved["between"] == ["R1", "K9", "R2", "R3", None]  # the row slides into the gap
    assert moved["left"] == ["R1", "R4", "R2", None]
    assert moved["along"] == ["B2", "B3", "B4", "B1"]  # its own place is the gap it slides to
    swap = moved["swap"]  # from the other row into a full one: the two swap
    assert swap[3] == "B3" and swap[15] == "B4" and swap[:3] == ["B1", "B2", "B3"]
    rack, fresh = moved["kept"]
    assert rack[:3] == ["R1", "Y7", "B2"] and fresh == [1]
    assert moved["laid"] == ["K1", "F", None]


async def test_a_closed_table_is_told_and_the_page_stops_reconnecting(browser):
    async with site(TURKISH) as s:
        page = await open_page(browser, s.url("mehmet"))
        await s.core.handle(cmd("ayse", "/table reset", mod=True))  # a moderator closes it
        await page.get_by_text(t("en", "err.no_such_table")).wait_for(timeout=WAIT_MS)
        assert await page.locator("section.poker").count() == 0
        assert await page.locator("#status").inner_text() == ""  # not "reconnecting"
        assert (PLATFORM, s.table) not in s.web.web.hub.tables or not (
            s.web.web.hub.tables[(PLATFORM, s.table)].viewers
        )
        await close_all([page])
