"""A private table's page, in a real browser: its title carries the "private" badge, and a
spectator's link is refused in words once watching is off (no table drawn)."""

from __future__ import annotations

import pytest

from bot.core.i18n import t
from tests.web_browser.conftest import WAIT_MS, open_page, site

pytestmark = pytest.mark.asyncio(loop_scope="session")

PRIVATE = [
    ("ayse", "/poker open turkish 10 private"),
    ("ayse", "/poker join 200"),
    ("ayse", "/table invite <@mehmet> Mehmet"),
    ("mehmet", "/poker join 200"),
    ("ayse", "/poker start"),
]


async def test_the_page_says_private_and_a_spectator_is_kept_out_when_watching_is_off(browser):
    async with site(PRIVATE, invite_key="k" * 43) as s:
        page = await open_page(browser, s.url("ayse"))
        badge = page.locator("#title .badge.private")
        await badge.wait_for(timeout=WAIT_MS)
        assert await badge.inner_text() == t("en", "web.private")
        await s.say("ayse", "/table watchers off")
        context = await browser.new_context(locale="en-US")
        other = await context.new_page()
        await other.goto(s.url("zeyn"))
        await other.get_by_text(t("en", "err.private_no_watchers")).wait_for(timeout=WAIT_MS)
        assert await other.locator("section.poker, section.okey").count() == 0
        assert page.errors == []
        await context.close()
        await page.context.close()
