"""101 Okey on the web table in a real browser: ayse's page (she starts and holds the okey)
picks the okey and presses Discard: the +101 warning shows as a confirm, and she keeps it;
she opens with the one-press "best melds" button; mehmet's page then shows her melds on the
table, her opening and the threshold. Then she picks a tile and discards it (no warning now),
and the turn passes to mehmet."""

from __future__ import annotations

import pytest

from bot.core.okey101 import plays
from tests.web_browser.conftest import WAIT_MS, open_page, shot, site
from tests.web_browser.helpers import close_all, turn

pytestmark = pytest.mark.asyncio(loop_scope="session")

OKEY101 = [
    ("ayse", "/okey start 101 1 10"),
    ("mehmet", "/okey join"),
    ("ayse", "/okey begin"),
]
# found once: with this seed ayse starts, holds the okey and can open with the best melds (114)
SEED = "web101-2"


async def test_a_101_page_opens_and_the_melds_show_on_another_page(browser):
    async with site(OKEY101, seed=SEED) as s:
        user, view = await turn(s)
        assert user == "ayse"
        game = s.core.tables.in_channel("test", "c1").session.game101
        okey = game.okey
        assert okey in view.mine
        plan = plays.open_plan(game, game.to_act(), plays.SERIES_OPEN)
        assert plan is not None
        ayse = await open_page(browser, s.url("ayse"))
        mehmet = await open_page(browser, s.url("mehmet", locale="tr"))
        await ayse.locator(f'#main[data-nonce="{view.nonce}"]').wait_for(
            state="attached", timeout=WAIT_MS
        )
        assert await ayse.locator(".melds101 .threshold").inner_text() != ""
        # discarding the okey is warned: the page asks, and the player keeps it
        await ayse.locator(f'.rack .slot:has([data-tile="{okey}"])').first.click()
        await ayse.locator('button[data-key="act-discard"]:enabled').click()
        await ayse.locator(".warn101").wait_for(timeout=WAIT_MS)
        assert okey in await ayse.locator(".warn101").inner_text()
        await ayse.locator('button[data-key="act-keep"]').click()
        await ayse.locator(".warn101").wait_for(state="detached", timeout=WAIT_MS)
        _user, view = await turn(s)
        assert _user == "ayse" and view.seats[view.me].discards == ()
        # the one-press opening
        button = ayse.locator('button[data-key="act-open_best"]:enabled')
        assert str(plan.value) in await button.inner_text()
        await button.click()
        await ayse.locator(f'#main:not([data-nonce="{view.nonce}"])').wait_for(
            state="attached", timeout=WAIT_MS
        )
        _user, after = await turn(s)
        count = len(after.melds)
        assert count == str(plan.action.cards).count("/") + 1
        # mehmet's page shows ayse's melds on the table, grouped under her, with her opening
        owner = mehmet.locator(f'.meld-owner[data-owner="{view.me}"]')
        await owner.locator(".meld").nth(count - 1).wait_for(timeout=WAIT_MS)
        assert await owner.locator(".meld").count() == count
        tiles = await owner.locator(".meld [data-tile]").count()
        assert tiles == sum(len(m.tiles) for m in after.melds)
        assert str(plan.value) in await owner.locator(".meld-who").inner_text()
        await shot(ayse, "okey101")
        # the turn ends with a plain discard: no warning now
        tile = next(code for code in after.rack if code)
        await ayse.locator(f'.rack .slot:has([data-tile="{tile}"])').first.click()
        await ayse.locator('button[data-key="act-discard"]:enabled').click()
        await ayse.locator(f'#main:not([data-nonce="{after.nonce}"])').wait_for(
            state="attached", timeout=WAIT_MS
        )
        user, last = await turn(s)
        assert user == "mehmet" and last.seats[after.me].discards[-1] == tile
        await close_all([ayse, mehmet])
