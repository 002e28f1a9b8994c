"""Tournament tables in a real browser (issue #37 item 6): a Türk pokeri sit-and-go's table and
an Okey knockout's match table, each opened as a seated player and as a spectator. Both pages
show the tournament's box (the level and the next one counted down, or the table and round;
the standing); the player sees their own cards or rack, the spectator none; a move made on the
player's page shows on the spectator's."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.core.i18n import t
from tests.web_browser.conftest import open_page, shot, site
from tests.web_browser.helpers import close_all, kinds, ready, turn

pytestmark = pytest.mark.asyncio(loop_scope="session")

SIT_AND_GO = [
    ("org", "/tournament poker turkish 100 60 1"),
    ("p0", "/tournament join"),
    ("p1", "/tournament join"),
    ("org", "/tournament start"),
]
KNOCKOUT = [
    ("org", "/tournament okey 100 1"),
    *((f"p{i}", "/tournament join") for i in range(4)),
    ("org", "/tournament start"),
]


async def box(page: Any) -> Any:
    """The page's tournament box, once shown."""
    found = page.locator("#main section.tournament")
    await found.wait_for()
    return found


async def standing(page: Any) -> list[str]:
    """The standing's names as the box lists them, best first."""
    return await page.locator("section.tournament ol.standing .name").all_inner_texts()


async def test_a_sit_and_go_table_as_a_player_and_as_a_spectator(browser):
    async with site(SIT_AND_GO, seed="web-sng") as s:
        pages = {
            "p0": await open_page(browser, s.url("p0")),
            "p1": await open_page(browser, s.url("p1")),
            "zed": await open_page(browser, s.url("zed")),
        }
        for page in pages.values():
            found = await box(page)
            assert await found.locator("h2").text_content() == t("en", "web.tournament.title", id=1)
            level = await found.locator(".level").inner_text()
            assert level.startswith(t("en", "web.tournament.level", level=1, ante=1))
            assert re.search(r"next 1 in [01]:\d\d$", level), level  # counted down
            assert sorted(await standing(page)) == ["P0", "P1"]
        spectator = pages["zed"]
        assert await spectator.locator("#title .badge").inner_text() == t("en", "web.spectator")
        assert await spectator.locator("section.hand [data-card]").count() == 0
        user, view = await turn(s)
        assert user in ("p0", "p1") and view is not None
        for who in ("p0", "p1"):  # each player sees their own five cards, nobody else's
            assert await pages[who].locator("section.hand [data-card]").count() == 5
        page = pages[user]
        await ready(page, view.nonce)
        await shot(page, "tournament-sng")
        await shot(spectator, "tournament-sng-spectator")
        offered = await kinds(page)
        kind = next(k for k in ("check", "pass", "fold") if k in offered)
        await page.locator(f'button.act[data-kind="{kind}"]').click()
        # the move shows on the spectator's page: a new turn, the box still there
        await spectator.locator(f'#main:not([data-nonce="{view.nonce}"])').wait_for(
            state="attached"
        )
        await box(spectator)
        await close_all(list(pages.values()))


async def test_an_okey_knockout_table_as_a_player_and_as_a_spectator(browser):
    async with site(KNOCKOUT, seed="web-knockout") as s:
        player = await open_page(browser, s.url("p0", locale="tr"))
        spectator = await open_page(browser, s.url("zed"))
        found = await box(spectator)
        head = await found.locator("h2").text_content()
        parts = [
            t("en", "web.tournament.title", id=1),
            t("en", "web.tournament.table", table=1),
            t("en", "web.tournament.round", round=1, rounds=1),
        ]
        assert head == " · ".join(parts)
        hint = t("en", "web.tournament.goes_on", count=2)
        assert await found.get_by_text(hint).count() == 1
        assert len(await standing(spectator)) == 4
        assert await found.locator("li.on").count() == 2  # who would go on now
        assert await spectator.locator("#main .rack").count() == 0  # no rack
        # the player's page, in Turkish: the box in Turkish, their own rack
        turkish = await box(player)
        title = await turkish.locator("h2").text_content()
        assert title.startswith(t("tr", "web.tournament.title", id=1))
        assert await player.locator(".rack [data-slot] [data-tile]").count() in (14, 15)
        mine = player.locator("section.tournament li.mine")
        assert await mine.locator(".name").inner_text() == "P0"
        await shot(player, "tournament-okey")
        await close_all([player, spectator])
