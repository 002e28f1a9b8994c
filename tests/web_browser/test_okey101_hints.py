"""101 Okey's guidance on the web table by the player's state, in a real browser: the take and
play hints, the previous discard's label and its picked hint before and after opening, and a
meld tapped before opening refused on the page itself, in the server's words, with nothing sent.

The deal of test_okey101_drag ("web101-5"): mehmet discards B11, which ayse (not opened) can open
with; she opens with it and discards Y2, which mehmet (not opened) cannot use; he draws and
picks R2, which fits her meld: discarding it is warned (+101), the confirm takes the keyboard's
focus and "Keep it" gives it back to the rack; he discards it anyway and she, opened, can take it onto her meld. The totals under the table are
the match's, this round's penalties added at its end."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core import i18n
from bot.core.okey101 import plays
from games.okey101.solver import fits_table
from tests.web_browser.conftest import WAIT_MS, open_page, site
from tests.web_browser.helpers import close_all, turn
from tests.web_browser.test_okey101_drag import (
    FITS,
    HERS,
    OKEY101,
    OPENS_WITH,
    SEED,
    game_of,
    play,
    shows,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")


def words(locale: str, key: str, **params: str) -> str:
    """The catalogue's text for `key` in `locale`, filled as the page fills it."""
    text = i18n.catalogue(locale)[key]
    for name, value in params.items():
        text = text.replace("{" + name + "}", value)
    return text


async def hint(page: Any) -> str:
    """The turn's hint under the centre row (take or play)."""
    return str(await page.locator(".middle > p.hint").inner_text())


async def refused_here(page: Any, locale: str) -> None:
    """Wait for the page's own "Open first" toast."""
    toast = page.locator(".toast.error").last
    await toast.wait_for(timeout=WAIT_MS)
    assert await toast.inner_text() == words(locale, "illegal.not_opened")


async def test_101_hints_by_state_and_a_meld_tap_refused_before_opening(browser):
    async with site(OKEY101, seed=SEED) as s:
        view = await play(s, "mehmet", "discard", OPENS_WITH)
        game = game_of(s)
        her = game.to_act()
        ayse = await open_page(browser, s.url("ayse"))
        mehmet = await open_page(browser, s.url("mehmet", locale="tr"))
        await shows(ayse, view.nonce)
        # ayse has not opened and can open with B11: the discard serves only an opening
        assert await hint(ayse) == words("en", "web.okey101.hint_take_unopened")
        pile = ayse.locator(".centre-row button.take101")
        label = await pile.get_attribute("aria-label")
        assert label.endswith(words("en", "web.okey101.pile_take_unopened").split("{tile}")[1])
        await pile.click()
        picked = ayse.locator(".melds101 .threshold .hint")
        await picked.wait_for(timeout=WAIT_MS)
        assert (await picked.inner_text()).strip() == words(
            "en", "web.okey101.pile_picked_unopened", tile=OPENS_WITH
        )
        plan = plays.open_plan(game, her, plays.SERIES_OPEN, take=True)
        assert plan is not None
        await play(s, "ayse", "open", *plan.action.cards, source="discard")
        await play(s, "ayse", "discard", HERS)

        # mehmet has not opened and cannot use Y2: the stock alone is said; the pile picked and
        # a meld tapped says "Open first" on the page, and nothing is sent
        _user, before = await turn(s)
        await shows(mehmet, before.nonce)
        assert await hint(mehmet) == words("tr", "web.okey101.hint_take_stock")
        await mehmet.locator(".centre-row button.take101").click()
        meld = mehmet.locator('.melds101 button[data-meld="0"]')
        await meld.click()
        await refused_here(mehmet, "tr")
        _user, still = await turn(s)
        assert still.nonce == before.nonce and still.melds == before.melds
        assert still.seats[her].discards[-1] == HERS
        await mehmet.locator(".centre-row button.take101").click()  # put the discard down

        # he draws: not enough to open; a rack tile picked and a meld tapped: "Open first"
        before = await play(s, "mehmet", "take", source="stock")
        await shows(mehmet, before.nonce)
        assert await hint(mehmet) == words("tr", "web.okey101.hint_play_unopened")
        await mehmet.locator(f'.rack .slot:has([data-tile="{FITS}"])').first.click()
        toasts = await mehmet.locator(".toast.error").count()
        await meld.click()
        await mehmet.locator(".toast.error").nth(toasts).wait_for(timeout=WAIT_MS)
        await refused_here(mehmet, "tr")
        _user, still = await turn(s)
        assert still.nonce == before.nonce and still.melds == before.melds
        assert still.seats[still.me].down == before.seats[before.me].down
        # R2 fits her meld: discarding it (from the keyboard) is warned, and the question takes
        # the focus on "Keep it"
        await mehmet.locator('button[data-key="act-discard"]:enabled').press("Enter")
        await mehmet.locator(".warn101").wait_for(timeout=WAIT_MS)
        await mehmet.wait_for_function("document.activeElement?.dataset.key === 'act-keep'")
        await mehmet.keyboard.press("Enter")
        await mehmet.locator(".warn101").wait_for(state="detached", timeout=WAIT_MS)
        await mehmet.wait_for_function("document.activeElement?.closest('.rack') !== null")

        # ayse, opened, can take R2 onto her meld: the hints name a meld too
        view = await play(s, "mehmet", "discard!", FITS)
        await shows(ayse, view.nonce)
        assert await hint(ayse) == words("en", "web.okey101.hint_take")
        label = await pile.get_attribute("aria-label")
        assert label.endswith(words("en", "web.okey101.pile_take").split("{tile}")[1])
        await pile.click()
        await picked.wait_for(timeout=WAIT_MS)
        assert (await picked.inner_text()).strip() == words(
            "en", "web.okey101.pile_picked", tile=FITS
        )
        k = fits_table(FITS, game_of(s).table, game_of(s).okey)[0]
        await ayse.locator(f'.melds101 button.live[data-meld="{k}"]').click()
        await ayse.locator(f'#main:not([data-nonce="{view.nonce}"])').wait_for(
            state="attached", timeout=WAIT_MS
        )
        _user, added = await turn(s)
        assert FITS in added.melds[k].tiles
        assert await hint(ayse) == words("en", "web.okey101.hint_play")
        # mehmet's +101 counts at the round's end: the totals say so, not "Penalty points 0"
        caption = await mehmet.locator(".standings caption").inner_text()
        assert caption == words("tr", "web.okey101.standings")
        await close_all([ayse, mehmet])
