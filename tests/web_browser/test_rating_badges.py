"""The rating badge on the web table's seats in a real browser: a rated person's shown number
next to their name, a provisional one marked with `?` and its own title, none for a computer
player (docs/ratings.md)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.core.i18n import t
from storage.models import ALL_COMMUNITIES, ratings
from tests.web_browser.conftest import WAIT_MS, open_page, site
from tests.web_browser.helpers import PLATFORM, TURKISH, close_all

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_each_seat_shows_its_rating_badge(browser):
    async with site(TURKISH, seed="web-rating") as s:
        store = s.core.store
        ayse = await store.player(PLATFORM, "ayse", "Ayse")
        mehmet = await store.player(PLATFORM, "mehmet", "Mehmet")
        at = datetime(2026, 12, 6, tzinfo=UTC)
        rows = [
            (ayse.id, 30.0, 1.5, 40),  # 1000 + 40 * 25.5 = 2020
            (mehmet.id, 25.5, 8.0, 3),  # 1000 + 40 * 1.5 = 1060, provisional
        ]
        async with store.engine.begin() as conn:
            await conn.execute(
                ratings.insert(),
                [
                    {
                        "player_id": pid,
                        "game": "turkish",
                        "community": ALL_COMMUNITIES,
                        "mu": mu,
                        "sigma": sigma,
                        "conservative": mu - 3 * sigma,
                        "games": games,
                        "updated_at": at,
                    }
                    for pid, mu, sigma, games in rows
                ],
            )
        page = await open_page(browser, s.url("ayse"))
        badges = page.locator(".plate .rating")
        await badges.nth(1).wait_for(timeout=WAIT_MS)
        assert await badges.count() == 2  # the computer player has none
        shown = await badges.evaluate_all(
            "nodes => nodes.map(n => [n.textContent, n.title, n.classList.contains('provisional')])"
        )
        assert sorted(shown) == [
            ["1060?", t("en", "web.rating_provisional"), True],
            ["2020", t("en", "web.rating"), False],
        ]
        await close_all([page])
