"""Tiles readable without colour on the web table: the bar's toggle marks every tile colour with
its shape (● ▲ ■ ◆, as on the rack pictures), the server keeps the choice with the player (a
reload shows it again, the store holds it), and another player's page stays in colours."""

from __future__ import annotations

import pytest

from bot.render.pictures.style import TILE_SYMBOLS as SHAPES
from tests.web_browser.conftest import DESKTOP, WAIT_MS, open_page, shot, site
from tests.web_browser.helpers import PLATFORM, close_all

pytestmark = pytest.mark.asyncio(loop_scope="session")

OKEY = [
    ("ayse", "/okey start"),
    ("mehmet", "/okey join"),
    ("ayse", "/okey addbot"),
    ("ayse", "/okey addbot"),
    ("ayse", "/okey begin"),
]

# every rack tile as the page draws it: [tile, its classes, the mark's text (shape or "")]
RACK_TILES = """nodes => nodes.map(n => [
  n.dataset.tile, n.className, n.querySelector('.shape')?.textContent ?? '',
  n.querySelector('.dot') !== null])"""


async def rack(page):
    return await page.locator(".rack [data-tile]").evaluate_all(RACK_TILES)


async def test_the_toggle_marks_tiles_with_shapes_and_is_kept(browser):
    async with site(OKEY, seed="web-tiles") as s:
        ayse = await open_page(browser, s.url("ayse"), DESKTOP)
        mehmet = await open_page(browser, s.url("mehmet", locale="tr"))
        toggle = ayse.locator("#prefs .tiles-toggle")
        await toggle.wait_for(timeout=WAIT_MS)
        assert await toggle.get_attribute("aria-pressed") == "false"
        before = await rack(ayse)
        assert before and all(" sym" not in cls and shape == "" for _, cls, shape, _ in before)

        await toggle.click()
        await ayse.locator('#prefs[data-tiles="symbols"]').wait_for(state="attached")
        await ayse.locator(".rack .tile.sym").first.wait_for(timeout=WAIT_MS)
        after = await rack(ayse)
        assert [t for t, *_ in after] == [t for t, *_ in before]  # the same tiles, marked
        for tile, cls, shape, dot in after:
            if tile == "F":  # the false okey keeps its star
                assert shape == ""
            else:
                assert "sym" in cls.split() and shape == SHAPES[tile[0]] and not dot
        assert await toggle.get_attribute("aria-pressed") == "true"
        assert (await s.core.store.find_player(PLATFORM, "ayse")).tile_symbols is True
        await shot(ayse, "okey-symbols")

        # another player's page is theirs: colours
        others = await rack(mehmet)
        assert others and all(shape == "" for _, _, shape, _ in others)

        # a reload: the server's first state says the choice again
        await ayse.reload()
        await ayse.locator('#prefs[data-tiles="symbols"]').wait_for(state="attached")
        await ayse.locator(".rack .tile.sym").first.wait_for(timeout=WAIT_MS)
        assert all(shape for tile, _, shape, _ in await rack(ayse) if tile != "F")

        # and back to colours, kept as well
        await ayse.locator("#prefs .tiles-toggle").click()
        await ayse.locator('#prefs[data-tiles="colours"]').wait_for(state="attached")
        assert all(shape == "" for _, _, shape, _ in await rack(ayse))
        assert (await s.core.store.find_player(PLATFORM, "ayse")).tile_symbols is False
        await close_all([ayse, mehmet])
