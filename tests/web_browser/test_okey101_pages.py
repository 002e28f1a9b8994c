"""101 Okey on the web table in a real browser, two pages (ayse, mehmet).

One deal: ayse starts, holds the okey and can open (her page's hint says so); her page picks the
okey and presses Discard: the +101 warning shows as a confirm and she keeps it. She builds her
opening on the page (picks each tile, puts it in the meld, "Next meld" between two) and opens;
mehmet's page shows her melds on the table under her name with her opening; she picks a tile
and discards it (no warning).
Another deal: mehmet starts and opens with the one-press "best melds" button; ayse's page shows
his melds."""

from __future__ import annotations

import pytest

from bot.core import i18n
from bot.core.okey101 import plays
from tests.web_browser.conftest import WAIT_MS, open_page, shot, site
from tests.web_browser.helpers import close_all, turn

pytestmark = pytest.mark.asyncio(loop_scope="session")

OKEY101 = [
    ("ayse", "/okey start 101 1 10"),
    ("mehmet", "/okey join"),
    ("ayse", "/okey begin"),
]
# found once: with "web101-2" ayse starts, holds the okey and can open with melds (114); with
# "web101-0" mehmet starts and can open with melds (105)
SEED_AYSE, SEED_MEHMET = "web101-2", "web101-0"


def name(code: str) -> str:
    """A tile's name as the page says it in English ("red 5", "fake okey")."""
    words = i18n.catalogue("en")
    if code == "F":
        return words["web.tile.F"]
    colour = words[f"web.colour.{code[0]}"]
    return words["web.tile"].replace("{colour}", colour).replace("{number}", code[1:])


async def moved(page, nonce: str) -> None:
    """Wait until `page` shows a turn other than `nonce`."""
    await page.locator(f'#main:not([data-nonce="{nonce}"])').wait_for(
        state="attached", timeout=WAIT_MS
    )


async def test_a_101_page_builds_its_opening_and_another_page_shows_the_melds(browser):
    async with site(OKEY101, seed=SEED_AYSE) as s:
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
        assert "101" in await ayse.locator(".melds101 .threshold").inner_text()
        # she can open: the hint says so (not Okey's "discard or finish")
        hint = await ayse.locator(".middle > p.hint").inner_text()
        assert hint == i18n.catalogue("en")["web.okey101.hint_play_open"]
        # discarding the okey is warned: the page asks, and the player keeps it
        await ayse.locator(f'.rack .slot:has([data-tile="{okey}"])').first.click()
        await ayse.locator('button[data-key="act-discard"]:enabled').click()
        await ayse.locator(".warn101").wait_for(timeout=WAIT_MS)
        assert okey in await ayse.locator(".warn101").inner_text()
        await ayse.locator('button[data-key="act-keep"]').click()
        await ayse.locator(".warn101").wait_for(state="detached", timeout=WAIT_MS)
        _user, view = await turn(s)
        assert _user == "ayse" and view.seats[view.me].discards == ()
        await ayse.locator(f'#main[data-nonce="{view.nonce}"]').wait_for(
            state="attached", timeout=WAIT_MS
        )
        # the opening built tile by tile
        for code in plan.action.cards:
            if code == "/":
                await ayse.locator('button[data-key="build-next"]:enabled').click()
                continue
            await ayse.locator(f'.rack .slot:has([data-tile="{code}"])').first.click()
            await ayse.locator('button[data-key="build-add"]:enabled').click()
        built = await ayse.locator(".build101 .building [data-tile]").count()
        assert built == len([c for c in plan.action.cards if c != "/"])
        # a screen reader hears each meld by number and its tiles by name, not the bar between
        drawn = ayse.locator(".build101 .building .drawn")
        assert await drawn.get_attribute("aria-hidden") == "true"
        assert await drawn.locator(".sep").count() == list(plan.action.cards).count("/")
        said = await ayse.locator(".build101 .building .sr-only").inner_text()
        melds = " ".join(plan.action.cards).split(" / ")
        assert said == "; ".join(
            i18n.t(
                "en", "web.okey101.building_meld", n=k + 1, tiles=", ".join(map(name, m.split()))
            )
            for k, m in enumerate(melds)
        )
        await ayse.locator('button[data-key="act-lay"]:enabled').click()
        await moved(ayse, view.nonce)
        _user, after = await turn(s)
        count = len(after.melds)
        assert count == list(plan.action.cards).count("/") + 1
        assert after.seats[after.me].opened == "series"
        # mehmet's page shows ayse's melds on the table, grouped under her, with her opening
        owner = mehmet.locator(f'.meld-owner[data-owner="{after.me}"]')
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
        await moved(ayse, after.nonce)
        user, last = await turn(s)
        assert user == "mehmet" and last.seats[after.me].discards[-1] == tile
        await close_all([ayse, mehmet])


async def test_the_one_press_opening_on_the_page(browser):
    async with site(OKEY101, seed=SEED_MEHMET) as s:
        user, view = await turn(s)
        assert user == "mehmet"
        value = next(a.min_amount for a in view.actions if a.kind == "open_best")
        mehmet = await open_page(browser, s.url("mehmet"))
        ayse = await open_page(browser, s.url("ayse", locale="tr"))
        button = mehmet.locator('button[data-key="act-open_best"]:enabled')
        await button.wait_for(timeout=WAIT_MS)
        assert str(value) in await button.inner_text()
        await button.click()
        await moved(mehmet, view.nonce)
        _user, after = await turn(s)
        assert after.melds and after.seats[view.me].opening == value
        owner = ayse.locator(f'.meld-owner[data-owner="{view.me}"]')
        await owner.locator(".meld").nth(len(after.melds) - 1).wait_for(timeout=WAIT_MS)
        facts = ayse.locator(f'.player[data-seat="{view.me}"] .opened')
        assert str(value) in await facts.inner_text()
        await close_all([mehmet, ayse])


async def test_arrange_runs_on_a_101_page_lays_out_the_best_opening(browser):
    """ "Arrange runs" on a 22-tile 101 rack: the best opening's melds lead the rack, and the
    page stays connected (the classic solver, 15 tiles at most, used to drop the socket)."""
    from games.okey101.solver import best_opening

    async with site(OKEY101, seed=SEED_MEHMET) as s:
        _user, view = await turn(s)
        mehmet = await open_page(browser, s.url("mehmet"))
        await mehmet.locator('button[data-key="sort-runs"]').click()
        first = best_opening(view.mine, view.okey).melds[0]
        for slot, tile in enumerate(first):
            await mehmet.locator(f'.rack [data-slot="{slot}"] [data-tile="{tile}"]').wait_for(
                timeout=WAIT_MS
            )
        assert await mehmet.locator("body.offline").count() == 0
        await close_all([mehmet])
