"""Rematch in one press on the web table, in a real browser, two pages (ayse in English, mehmet
in Turkish): a 101 match of one round played to its end offers "Play again" on both pages; each
player presses it on their own page, the count goes up on the other's, and the next match's
first round is dealt (the racks come back). A Türk pokeri table every person left closes: both
pages keep "Play again" in the closed message, and each press moves that page to the new table,
where the next hand is dealt once both are in."""

from __future__ import annotations

import pytest

from bot.core.i18n import t
from tests.web_browser.conftest import WAIT_MS, open_page, shot, site
from tests.web_browser.helpers import close_all
from tests.web_browser.test_okey101_end import SEED_END, play_to_the_end
from tests.web_browser.test_okey101_pages import OKEY101

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_play_again_pressed_on_two_pages_starts_the_next_match(browser):
    async with site(OKEY101, seed=SEED_END) as s:
        ayse = await open_page(browser, s.url("ayse"))
        mehmet = await open_page(browser, s.url("mehmet", locale="tr"))
        await play_to_the_end(s)
        session = s.core.tables.in_channel("test", "c1").session
        assert session.rematch is not None and not session.running()
        played = session.hand_no

        button = ayse.locator('.match-end button[data-key="act-rematch"]')
        await button.wait_for(timeout=WAIT_MS)
        assert await button.inner_text() == t("en", "web.rematch.play", pressed=0, total=2)
        other = mehmet.locator('.match-end button[data-key="act-rematch"]')
        await other.wait_for(timeout=WAIT_MS)
        assert await other.inner_text() == t("tr", "web.rematch.play", pressed=0, total=2)
        await shot(ayse, "rematch-offer")

        await button.click()
        # ayse's page says she is in; mehmet's button counts her
        waiting = t("en", "web.rematch.waiting", pressed=1, total=2)
        await ayse.locator(".match-end .rematch", has_text=waiting).wait_for(timeout=WAIT_MS)
        counted = t("tr", "web.rematch.play", pressed=1, total=2)
        await mehmet.locator('button[data-key="act-rematch"]', has_text=counted).wait_for(
            timeout=WAIT_MS
        )
        assert session.rematch is not None and not session.running()

        await mehmet.locator('button[data-key="act-rematch"]:enabled').click()
        # the next match's first round: both pages draw a rack again, no result any more
        for page in (ayse, mehmet):
            await page.locator(".rack [data-tile]").first.wait_for(timeout=WAIT_MS)
            await page.locator(".match-end").wait_for(state="detached", timeout=WAIT_MS)
        session = s.core.tables.in_channel("test", "c1").session
        assert session.running() and session.hand_no == played + 1
        assert session.rematch is None
        await close_all([ayse, mehmet])


TURKISH_TWO = [
    ("ayse", "/poker open turkish 10"),
    ("ayse", "/poker join 200"),
    ("mehmet", "/poker join 200"),
    ("ayse", "/poker start"),
]


async def test_play_again_on_a_closed_poker_table_moves_both_pages_to_the_new_table(browser):
    async with site(TURKISH_TWO, seed="web-rematch-poker") as s:
        ayse = await open_page(browser, s.url("ayse"))
        mehmet = await open_page(browser, s.url("mehmet", locale="tr"))
        old = s.table
        await s.say("ayse", "/poker leave")
        await s.say("mehmet", "/poker leave")
        assert s.core.tables.in_channel("test", "c1") is None  # everyone left: it closed

        button = ayse.locator('section.message button[data-key="act-rematch"]')
        await button.wait_for(timeout=WAIT_MS)
        assert await button.inner_text() == t("en", "web.rematch.play", pressed=0, total=2)
        other = mehmet.locator('section.message button[data-key="act-rematch"]')
        await other.wait_for(timeout=WAIT_MS)
        assert await other.inner_text() == t("tr", "web.rematch.play", pressed=0, total=2)
        await shot(ayse, "rematch-closed")

        await button.click()
        # ayse's page moved to the new table: it shows the poker table and counts her in
        await ayse.locator("#main section.poker").wait_for(timeout=WAIT_MS)
        waiting = t("en", "web.rematch.waiting", pressed=1, total=2)
        await ayse.get_by_text(waiting).wait_for(timeout=WAIT_MS)
        live = s.core.tables.in_channel("test", "c1")
        assert live is not None and str(live.id) != old and not live.session.running()

        await other.click()
        # both pages: the new table's first hand, their own cards dealt
        for page in (ayse, mehmet):
            await page.locator("section.hand [data-card]").first.wait_for(timeout=WAIT_MS)
        session = s.core.tables.in_channel("test", "c1").session
        assert session.running() and session.rematch is None
        assert {seat.user_id for seat in session.seats} == {"ayse", "mehmet"}
        assert not ayse.errors and not mehmet.errors
        await close_all([ayse, mehmet])
