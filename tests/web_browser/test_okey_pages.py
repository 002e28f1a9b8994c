"""Okey on the web table in a real browser: a whole round with two pages and two computer
players; each page arranges its rack by dragging a tile (the server keeps the arrangement: a
reload shows it again), takes by tapping the stock or the discard on its left, and discards by
dragging a tile onto its own pile (or by picking it and pressing Discard)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.i18n import t
from bot.core.okey.view import rack_order
from tests.web_browser.conftest import DESKTOP, SHOTS, WAIT_MS, open_page, shot, site
from tests.web_browser.helpers import PLATFORM, close_all, drag, turn

pytestmark = pytest.mark.asyncio(loop_scope="session")

OKEY = [
    ("ayse", "/okey start"),
    ("mehmet", "/okey join"),
    ("ayse", "/okey addbot"),
    ("ayse", "/okey addbot"),
    ("ayse", "/okey begin"),
]


async def shows(page: Any, nonce: str) -> None:
    """Wait until `page` shows the turn `nonce`."""
    await page.locator(f'#main[data-nonce="{nonce}"]').wait_for(state="attached", timeout=WAIT_MS)


async def tile_at(page: Any, slot: int) -> str | None:
    """The tile the page shows at rack place `slot` (None: an empty place)."""
    return await page.locator(f'.rack [data-slot="{slot}"]').evaluate(
        "n => n.querySelector('[data-tile]')?.dataset.tile ?? null"
    )


async def arrange_by_drag(site: Any, page: Any, user: str) -> None:
    """Drag the rack's first tile to the second row; the server keeps it."""
    tile = await tile_at(page, 0)
    assert tile is not None and await tile_at(page, 20) is None
    await drag(page, page.locator('.rack [data-slot="0"]'), page.locator('.rack [data-slot="20"]'))
    await page.locator(f'.rack [data-slot="20"] [data-tile="{tile}"]').wait_for(timeout=WAIT_MS)
    await page.locator('.rack-box[data-waiting="0"]').wait_for(timeout=WAIT_MS)  # acknowledged
    views = await site.core.table_views(site.table, PLATFORM, [user])
    assert views[user].rack[20] == tile and views[user].rack[0] is None


async def arrange_by_keyboard(site: Any, page: Any, user: str) -> None:
    """Pick the tile at place 1 with Enter, walk one row down with an arrow key, put it there
    with Enter; the server keeps it."""
    tile = await tile_at(page, 1)
    assert tile is not None and await tile_at(page, 16) is None
    await page.locator('.rack [data-slot="1"]').focus()
    await page.keyboard.press("Enter")
    await page.locator('.rack [data-slot="1"][aria-pressed="true"]').wait_for(timeout=WAIT_MS)
    await page.keyboard.press("ArrowDown")
    await page.keyboard.press("Enter")
    await page.locator(f'.rack [data-slot="16"] [data-tile="{tile}"]').wait_for(timeout=WAIT_MS)
    await page.locator('.rack-box[data-waiting="0"]').wait_for(timeout=WAIT_MS)
    views = await site.core.table_views(site.table, PLATFORM, [user])
    assert views[user].rack[16] == tile


async def test_a_whole_okey_round_with_two_pages_dragging_tiles(browser):
    # a seed whose round a computer player finishes early (benchmarks aside, the tests stay
    # short): four turns for each page
    async with site(OKEY, seed="web-okey-37") as s:
        pages = {
            "ayse": await open_page(browser, s.url("ayse")),
            "mehmet": await open_page(browser, s.url("mehmet", locale="tr")),
        }
        # a desktop page too, only to take its picture
        wide = await open_page(browser, s.url("ayse"), DESKTOP) if SHOTS else None
        first = (await turn(s))[1]
        round_id = first.hand_id
        arranged: set[str] = set()
        turns = {"ayse": 0, "mehmet": 0}
        taken_from_pile = picked_and_pressed = False
        for _ in range(200):
            user, view = await turn(s)
            if user is None or view.hand_id != round_id:
                break
            page = pages[user]
            await shows(page, view.nonce)
            if user not in arranged:
                await arrange_by_drag(s, page, user)
                arranged.add(user)
                if user == "ayse":  # a reload shows the arrangement the server kept
                    tile = await tile_at(page, 20)
                    await page.reload()
                    await shows(page, view.nonce)
                    assert await tile_at(page, 20) == tile
                    await arrange_by_keyboard(s, page, user)
            took_pile = False
            held = list(view.mine)
            if view.stage == "take":
                sources = next(a.sources for a in view.actions if a.kind == "take")
                if "discard" in sources and not taken_from_pile:
                    await page.locator('[data-key="take-discard"]').click()
                    taken_from_pile = took_pile = True
                else:
                    await page.locator('button[data-key="take-stock"]').click()
                await page.locator(f'#main:not([data-nonce="{view.nonce}"])').wait_for(
                    state="attached", timeout=WAIT_MS
                )
                user, view = await turn(s)
                await shows(page, view.nonce)
                if turns[user] == 1 and user == "mehmet":
                    await shot(page, "okey")
                    if wide is not None:
                        await shows(wide, view.nonce)
                        await shot(wide, "okey-desktop")
            assert view.stage == "discard"
            # the tile just taken goes back out; one taken from the discards may not (no
            # takebacks): then the last tile in rack order
            new = list(view.mine)
            for code in held:
                new.remove(code)
            tile = new[0]
            if took_pile:
                tile = max((code for code in view.mine if code != new[0]), key=rack_order)
            source = page.locator(f'.rack .slot:has([data-tile="{tile}"])')
            held = list(view.mine)
            if user == "mehmet" and turns[user] == 1:  # the server arranges the rack
                await page.get_by_role("button", name=t("tr", "web.okey.sort_runs")).click()
                await page.locator('.rack-box[data-waiting="0"]').wait_for(timeout=WAIT_MS)
                kept = (await s.core.table_views(s.table, PLATFORM, [user]))[user].rack
                assert [await tile_at(page, i) for i in range(30)] == list(kept)
            if user == "mehmet" and not picked_and_pressed:
                await source.first.click()  # pick it up ...
                await page.locator('button[data-key="act-discard"]:enabled').click()  # ... discard
                picked_and_pressed = True
            else:
                await drag(page, source.first, page.locator('[data-drop="discard"]'))
            await page.locator(f'#main:not([data-nonce="{view.nonce}"])').wait_for(
                state="attached", timeout=WAIT_MS
            )
            after = await s.core.table_view(s.table, PLATFORM, user)
            if after.hand_id == round_id:  # the tile left the rack (the next seat may take it)
                assert len(after.mine) == len(held) - 1
                assert after.mine.count(tile) == held.count(tile) - 1
            turns[user] += 1
        _user, end = await turn(s)
        assert end is None or end.hand_id != round_id, "the round did not end"
        assert turns["ayse"] >= 3 and turns["mehmet"] >= 3
        assert arranged == {"ayse", "mehmet"} and taken_from_pile and picked_and_pressed
        # the round is over: every page shows the round's last moves under the table
        for page in pages.values():
            await page.locator(f'#main:not([data-hand="{round_id}"])').wait_for(
                state="attached", timeout=WAIT_MS
            )
            await page.locator(f'details.previous[data-hand="{round_id}"] li').first.wait_for(
                timeout=WAIT_MS
            )
        await close_all([*pages.values(), *([wide] if wide else [])])
