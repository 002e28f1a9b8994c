"""101 Okey's drags on the web table in a real browser, two pages (ayse, mehmet).

One deal ("web101-5", found once): mehmet starts and discards B11; ayse drags it from his pile
onto her rack, where it goes into the meld she builds, and opens with it (the take and the
opening are one move). Mehmet, not opened, drags a tile onto her meld: the meld is marked
refused while the tile is over it, the server refuses the move with the reason, and nothing
moves. He discards R2, which fits one of her melds: she drags it from his pile onto that meld
(taken and added in one move). After a turn each, she draws and drags a rack tile onto a meld
(işleme). By keyboard: the discard picked and taken into the meld being built, put back (nothing
was sent), then dragged onto the table: the one-press opening with it."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.messages import Press
from bot.core.okey101 import plays
from games.okey101.solver import fits_table
from tests.web_browser.conftest import WAIT_MS, Site, open_page, shot, site
from tests.web_browser.helpers import PLATFORM, close_all, drag, turn

pytestmark = pytest.mark.asyncio(loop_scope="session")

OKEY101 = [
    ("ayse", "/okey start 101 1 10"),
    ("mehmet", "/okey join"),
    ("ayse", "/okey begin"),
]
# with "web101-5" mehmet starts; his B11 lets ayse open with it; after she discards Y2 and he
# draws, his R2 fits one of her melds; after K7 from her and B5 from him, her draw gives her a
# tile to add
SEED = "web101-5"
OPENS_WITH, HERS, FITS, HERS_NEXT, HIS_NEXT = "B11", "Y2", "R2", "K7", "B5"


async def play(s: Site, user: str, kind: str, *cards: str, source: str = "-") -> Any:
    """`user` makes an engine move by the press the web table sends (`x`); their next view."""
    _user, view = await turn(s)
    assert _user == user
    press = Press(PLATFORM, "c1", user, user.capitalize(), s.table, "x", view.nonce,
                  (kind, source, "-", *cards), "en")  # fmt: skip
    out = await s.core.press(press)
    assert not [o.text for o in out if o.kind.name == "ERROR"]
    return (await turn(s))[1]


async def shows(page: Any, nonce: str) -> None:
    """Wait until `page` shows the turn `nonce`."""
    await page.locator(f'#main[data-nonce="{nonce}"]').wait_for(state="attached", timeout=WAIT_MS)


def game_of(s: Site) -> Any:
    """The round being played (read only)."""
    return s.core.tables.in_channel("test", "c1").session.game101


async def test_101_drags_take_and_open_refused_drop_take_and_add_and_islemek(browser):
    async with site(OKEY101, seed=SEED) as s:
        user, _view = await turn(s)
        assert user == "mehmet"
        view = await play(s, "mehmet", "discard", OPENS_WITH)
        game = game_of(s)
        her = game.to_act()
        plan = plays.open_plan(game, her, plays.SERIES_OPEN, take=True)
        assert plan is not None and OPENS_WITH in plan.action.cards
        ayse = await open_page(browser, s.url("ayse"))
        mehmet = await open_page(browser, s.url("mehmet", locale="tr"))
        await shows(ayse, view.nonce)
        # dragged from his pile onto her rack: the tile goes into the meld being built
        pile = ayse.locator(".centre-row button.take101")
        assert await pile.locator(".tile").last.get_attribute("data-tile") == OPENS_WITH
        await drag(ayse, pile.locator(".tile").last, ayse.locator('.rack [data-slot="29"]'))
        taken = ayse.locator(f'.build101 .building [data-tile="{OPENS_WITH}"]')
        await taken.wait_for(timeout=WAIT_MS)
        await shot(ayse, "okey101-take")
        assert OPENS_WITH in await ayse.locator('button[data-key="put-back"]').inner_text()
        # nothing was sent: the pile still holds it until the opening is laid
        assert game_of(s).piles[1 - her][-1] == OPENS_WITH
        melds = [[]]
        for code in plan.action.cards:
            if code == "/":
                melds.append([])
            else:
                melds[-1].append(code)
        melds.sort(key=lambda m: OPENS_WITH not in m)  # the meld with the taken tile first
        melds[0].remove(OPENS_WITH)
        for n, meld in enumerate(melds):
            if n:
                await ayse.locator('button[data-key="build-next"]:enabled').click()
            for code in meld:
                await ayse.locator(f'.rack .slot:has([data-tile="{code}"])').first.click()
                await ayse.locator('button[data-key="build-add"]:enabled').click()
        await ayse.locator('button[data-key="act-lay"]:enabled').click()
        await ayse.locator(f'#main:not([data-nonce="{view.nonce}"])').wait_for(
            state="attached", timeout=WAIT_MS
        )
        _user, opened = await turn(s)
        assert opened.seats[opened.me].opened == "series"
        assert opened.seats[opened.me].opening == plan.value
        assert any(OPENS_WITH in m.tiles for m in opened.melds)
        assert OPENS_WITH not in opened.seats[1 - opened.me].discards

        # mehmet has not opened: his tile over her meld is marked refused, the drop is refused
        # with the reason (in his language) and nothing moves
        await play(s, "ayse", "discard", HERS)
        before = await play(s, "mehmet", "take", source="stock")
        await shows(mehmet, before.nonce)
        source = mehmet.locator(".rack .slot:not(.empty)").first
        target = mehmet.locator('.melds101 [data-meld="0"]')
        a, b = await source.bounding_box(), await target.bounding_box()
        await mehmet.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
        await mehmet.mouse.down()
        await mehmet.mouse.move(a["x"] + 20, a["y"] + 20, steps=2)
        await mehmet.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=6)
        assert "refuse" in (await target.get_attribute("class")).split()
        await mehmet.mouse.up()
        toast = mehmet.locator(".toast.error")
        await toast.wait_for(timeout=WAIT_MS)
        assert "önce aç" in (await toast.inner_text()).lower()  # "open first", in Turkish
        _user, still = await turn(s)
        assert still.nonce == before.nonce and still.melds == before.melds
        assert still.seats[still.me].down == before.seats[before.me].down

        # his R2 fits one of her melds: dragged from his pile onto that meld, taken and added
        view = await play(s, "mehmet", "discard!", FITS)
        k = fits_table(FITS, game_of(s).table, game_of(s).okey)[0]
        await shows(ayse, view.nonce)
        await drag(
            ayse,
            ayse.locator(".centre-row button.take101 .tile").last,
            ayse.locator(f'.melds101 [data-meld="{k}"]'),
        )
        await ayse.locator(f'#main:not([data-nonce="{view.nonce}"])').wait_for(
            state="attached", timeout=WAIT_MS
        )
        _user, added = await turn(s)
        assert FITS in added.melds[k].tiles and added.stage == "play"
        assert len(added.melds) == len(opened.melds)

        # a turn each, then she draws and drags a rack tile onto a meld (işleme)
        await play(s, "ayse", "discard", HERS_NEXT)
        await play(s, "mehmet", "take", source="stock")
        await play(s, "mehmet", "discard", HIS_NEXT)
        view = await play(s, "ayse", "take", source="stock")
        tile, k = plays.additions(game_of(s), her)[0]
        await shows(ayse, view.nonce)
        await drag(
            ayse,
            ayse.locator(f'.rack .slot:has([data-tile="{tile}"])').first,
            ayse.locator(f'.melds101 [data-meld="{k}"]'),
        )
        await ayse.locator(f'#main:not([data-nonce="{view.nonce}"])').wait_for(
            state="attached", timeout=WAIT_MS
        )
        _user, after = await turn(s)
        assert tile in after.melds[k].tiles
        assert after.seats[after.me].down == view.seats[view.me].down - 1
        await close_all([ayse, mehmet])


async def test_101_the_discard_by_keyboard_put_back_then_dragged_onto_the_table(browser):
    async with site(OKEY101, seed=SEED) as s:
        view = await play(s, "mehmet", "discard", OPENS_WITH)
        ayse = await open_page(browser, s.url("ayse", locale="tr"))
        await shows(ayse, view.nonce)
        pile = ayse.locator(".centre-row button.take101")
        await pile.focus()
        await ayse.keyboard.press("Enter")
        await ayse.locator('.centre-row button.take101[aria-pressed="true"]').wait_for(
            timeout=WAIT_MS
        )
        assert OPENS_WITH in await ayse.locator(".melds101 .threshold .hint").inner_text()
        await ayse.locator('.rack [data-slot="0"]').focus()
        await ayse.keyboard.press("Enter")
        await ayse.locator(f'.build101 .building [data-tile="{OPENS_WITH}"]').wait_for(
            timeout=WAIT_MS
        )
        await ayse.locator('button[data-key="put-back"]').press("Enter")
        await ayse.locator(".build101").wait_for(state="detached", timeout=WAIT_MS)
        assert await pile.get_attribute("aria-pressed") == "false"
        _user, still = await turn(s)  # nothing was sent: the turn and the pile are as they were
        assert still.nonce == view.nonce and still.seats[1 - still.me].discards[-1] == OPENS_WITH
        # dragged onto the table (no meld there yet): taken with the one-press opening
        value = next(a.min_amount for a in still.actions if a.kind == "take_open_best")
        await drag(ayse, pile.locator(".tile").last, ayse.locator(".melds101 .empty"))
        await ayse.locator(f'#main:not([data-nonce="{view.nonce}"])').wait_for(
            state="attached", timeout=WAIT_MS
        )
        _user, opened = await turn(s)
        assert opened.seats[opened.me].opening == value
        assert any(OPENS_WITH in m.tiles for m in opened.melds)
        await close_all([ayse])
