"""A kept seat on the page, in a real browser: the away player's page offers "I'm back" and one
press takes the seat back; every other page marks the seat "playing for Mehmet"."""

from __future__ import annotations

from typing import Any

import pytest

from testkit.drive import live_session
from tests.web_browser.conftest import WAIT_MS, open_page, shot, site

pytestmark = pytest.mark.asyncio(loop_scope="session")

TURN = 30
PLAYERS = [
    ("ayse", "/poker open turkish 10"),
    ("ayse", "/poker join 200"),
    ("mehmet", "/poker join 200"),
    ("cem", "/poker join 200"),
    ("ayse", "/poker start"),
]


async def drop_mehmet(s: Any) -> None:
    """The others play at once, Mehmet never does: his first time-out makes him away."""
    for _ in range(30):
        session = live_session(s.core)
        if next(x for x in session.seats if x.user_id == "mehmet").away:
            return
        actor = session.seats[session.actor()].user_id
        if actor == "mehmet":
            await s.core.tick(s.clock.advance(TURN + 1))
            continue
        kinds = {b.action for b in session.buttons()}
        word = next(k for k in ("check", "pass", "pat", "call", "fold") if k in kinds)
        await s.say(actor, f"/poker {word}")
    raise AssertionError("Mehmet never went away")


async def test_the_away_players_page_takes_the_seat_back_in_one_press(browser):
    async with site(PLAYERS, seed="kept-page", turn_seconds=TURN, afk_limit=1) as s:
        await drop_mehmet(s)
        mine = await open_page(browser, s.url("mehmet"))
        other = await open_page(browser, s.url("ayse"))
        back = mine.locator('#prefs .kept button[data-kind="back"]')
        await back.wait_for(timeout=WAIT_MS)
        assert await back.inner_text() == "I'm back"
        mark = other.locator(".mark.away", has_text="playing for Mehmet")
        await mark.wait_for(timeout=WAIT_MS)
        assert await other.locator("#prefs .kept").count() == 0  # not her seat
        await shot(mine, "kept")
        await back.click()
        await mine.locator("#prefs .kept").wait_for(state="detached", timeout=WAIT_MS)
        await mark.wait_for(state="detached", timeout=WAIT_MS)
        assert not next(x for x in live_session(s.core).seats if x.user_id == "mehmet").away
        assert mine.errors == [] and other.errors == []
        for page in (mine, other):
            await page.context.close()
