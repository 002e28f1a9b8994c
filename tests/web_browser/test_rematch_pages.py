"""Rematch in one press on the web table, in a real browser, two pages (ayse in English, mehmet
in Turkish): a 101 match of one round played to its end offers "Play again" on both pages; each
player presses it on their own page, the count goes up on the other's, and the next match's
first round is dealt (the racks come back)."""

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
