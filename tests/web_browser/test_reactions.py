"""Reactions on the web table in a real browser (issue 37): a reaction sent from one player's
bar shows on another player's page beside the sender's seat, and on a page whose player muted
reactions it does not show (the choice is kept by that browser)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.messages import Sender
from bot.core.moves import Action
from testkit.helpers import errors
from tests.web_browser.conftest import DESKTOP, WAIT_MS, open_page, site
from tests.web_browser.helpers import PLATFORM, close_all

pytestmark = pytest.mark.asyncio(loop_scope="session")

THREE = [
    ("ayse", "/poker open turkish 10"),
    ("ayse", "/poker join 200"),
    ("mehmet", "/poker join 200"),
    ("can", "/poker join 200"),
    ("ayse", "/poker start"),
]

# every reaction bubble the page ever shows, in order (set before any reaction is sent)
RECORD = """() => {
  window.bubbles = [];
  new MutationObserver(records => {
    for (const r of records) for (const n of r.addedNodes) {
      if (n.nodeType !== 1) continue;
      for (const b of [n, ...n.querySelectorAll('.reaction-bubble')]) {
        if (b.classList?.contains('reaction-bubble')) {
          window.bubbles.push([b.closest('[data-seat]')?.dataset.seat ?? null, b.dataset.reaction]);
        }
      }
    }
  }).observe(document.body, {childList: true, subtree: true});
}"""


async def bubble_at(page: Any, seat: int, reaction: str) -> str:
    """Wait until `page` shows `reaction` beside seat `seat`; its text."""
    node = page.locator(f'[data-seat="{seat}"] .reaction-bubble[data-reaction="{reaction}"]')
    await node.wait_for(timeout=WAIT_MS)
    return await node.inner_text()


async def test_a_reaction_shows_beside_the_seat_on_other_pages_but_not_on_a_muted_one(browser):
    async with site(THREE, seed="web-reactions") as s:
        seats = {seat.user_id: i for i, seat in enumerate(s.core.tables.get(s.table).session.seats)}
        ayse = await open_page(browser, s.url("ayse"), DESKTOP)
        mehmet = await open_page(browser, s.url("mehmet"))
        can = await open_page(browser, s.url("can"))
        for page in (mehmet, can):
            await page.evaluate(RECORD)

        # Can mutes the reactions on his page
        toggle = can.locator("#prefs .reactions-toggle")
        assert await toggle.get_attribute("aria-pressed") == "false"
        await toggle.click()
        await can.locator('#prefs .reactions-toggle[aria-pressed="true"]').wait_for(timeout=WAIT_MS)

        # Ayşe claps: Mehmet sees it beside her seat
        await ayse.locator('section.reactions [data-reaction="clap"]').click()
        assert await bubble_at(mehmet, seats["ayse"], "clap") == "👏"
        # a quick line too, in the reader's words, beside the seat of whoever sent it
        await mehmet.locator('section.reactions [data-reaction="nice"]').click()
        assert await bubble_at(ayse, seats["mehmet"], "nice") == "Nice hand"

        # a move after them: its state frame follows the reaction frames on every socket, so
        # once Can's page shows it, his page has had both reactions (and showed neither); the
        # move log, on every page, has them folded into one line before the move
        session = s.core.tables.get(s.table).session
        actor = session.seats[session.actor()]
        sender = Sender(PLATFORM, "c1", actor.user_id, actor.name, "en")
        assert errors(await s.core.act(s.table, sender, session.nonce, Action("pass"))) == []
        folded = "Ayse: 👏 · Mehmet: Nice hand"
        for page in (ayse, mehmet, can):
            await page.locator("section.moves li", has_text=folded).wait_for(timeout=WAIT_MS)
        assert await can.evaluate("window.bubbles") == []

        # shown again, the next reaction is the first bubble Can's page ever drew
        await can.locator("#prefs .reactions-toggle").click()
        await can.locator('#prefs .reactions-toggle[aria-pressed="false"]').wait_for(
            timeout=WAIT_MS
        )
        await ayse.locator('section.reactions [data-reaction="fire"]').click()
        assert await bubble_at(can, seats["ayse"], "fire") == "🔥"
        assert await can.evaluate("window.bubbles") == [[str(seats["ayse"]), "fire"]]
        assert [str(seats["ayse"]), "clap"] in await mehmet.evaluate("window.bubbles")

        # the choice is kept by the browser: a reload of Can's page
        await can.locator("#prefs .reactions-toggle").click()
        await can.reload()
        await can.locator('#prefs .reactions-toggle[aria-pressed="true"]').wait_for(timeout=WAIT_MS)
        await close_all([ayse, mehmet, can])
