"""The previous round on the Okey page, in a real browser: a view whose `last` holds a finished
round (as `bot.core.api.LastHand` goes over the wire) shows the finishing rack laid out as tiles
in two rows, and each player's penalty and total, under "Previous round"."""

from __future__ import annotations

from typing import Any

import pytest

from bot.adapters.web.server import page_texts
from bot.core.i18n import t
from tests.web_browser.conftest import PHONE, site
from tests.web_browser.helpers import TURKISH
from tests.web_browser.test_page_shell import OKEY_VIEW

pytestmark = pytest.mark.asyncio(loop_scope="session")

MELDS = [
    ["R1", "R2", "R3"],
    ["Y7", "Y8", "Y9", "R5"],
    ["K10", "K11", "K12", "K13"],
    ["B4", "Y4", "K4"],
]
RACK = [*MELDS[0], None, *MELDS[1], None, *MELDS[2], None, *MELDS[3], None]  # 15 slots: row one
RACK += ["B9", *[None] * 14]  # the finishing discard starts the second row


async def previous(browser: Any, last: dict[str, Any], locale: str, probe: str) -> Any:
    """The made-up Okey view with `last` drawn by the page's own module in `locale`, and what
    `probe` (a JS expression over `box`, the "Previous round" box) reads from it."""
    async with site(TURKISH) as s:  # any table: only the page's own module is used
        context = await browser.new_context(viewport=PHONE)
        page = await context.new_page()
        await page.goto(str(s.web.client.make_url("/static/index.html")))
        drawn = await page.evaluate(
            "async ([last, texts, locale]) => {"
            + OKEY_VIEW
            + """
              const { setTexts } = await import("/static/i18n.js");
              setTexts(texts, locale);
              const { renderOkey } = await import("/static/okey.js");
              view.last = last;
              const ctx = {pending: false, act() {}, arrange() {}, sort() {}, redraw() {}};
              document.body.replaceChildren(renderOkey(view, ctx));
              const box = document.querySelector("details.previous");
              return """
            + probe
            + ";}",
            [last, page_texts(locale), locale],
        )
        await context.close()
    return drawn


async def test_okey_shows_the_finishing_rack_and_the_penalties_of_the_previous_round(browser):
    last = {
        "hand_id": "1-1",
        "lines": ["Round 1-1 is over."],
        "players": [
            {"name": "ayse", "user_id": "ayse", "seat": 0, "shown": [], "delta": None,
             "penalty": -2, "points": 18, "winner": True},
            {"name": "bot", "user_id": "bot", "seat": 1, "shown": [], "delta": None,
             "penalty": 2, "points": 22, "winner": False},
        ],
        "melds": MELDS,
        "rack": RACK,
        "over": True,
        "indicator": "R4",
        "okey": "R5",
    }  # fmt: skip
    drawn = await previous(
        browser,
        last,
        "en",
        """{
            hand: box.dataset.hand,
            summary: box.querySelector("summary").textContent,
            rows: [...box.querySelectorAll(".last-rack .finished-rack")].map(
              (row) => [...row.children].map((n) => n.dataset.tile || null)),
            wild: [...box.querySelectorAll(".last-rack .wild")].map((n) => n.dataset.tile),
            players: [...box.querySelectorAll("li[data-user]")].map((n) => n.textContent),
            lines: [...box.querySelectorAll("ol li")].map((n) => n.textContent),
          }""",
    )
    assert drawn["hand"] == "1-1"
    top, bottom = drawn["rows"]
    assert top == RACK[:15] and bottom == RACK[15:]  # each meld, then a gap
    assert drawn["wild"] == ["R5"]  # the round's okey is marked
    ayse, bot = drawn["players"]
    assert ayse == "ayse ★" + t("en", "web.last.penalty", points=-2) + t(
        "en", "web.last.total", points=18
    )
    assert bot == "bot" + t("en", "web.last.penalty", points=2) + t(
        "en", "web.last.total", points=22
    )
    assert drawn["summary"] == t("en", "web.last.round")
    assert drawn["lines"] == ["Round 1-1 is over."]


async def test_a_round_the_stock_ended_says_so_with_no_finishing_rack(browser):
    players = [
        {"name": "ayse", "user_id": "ayse", "seat": 0, "shown": [], "delta": None,
         "penalty": 40, "points": 40, "winner": False},
        {"name": "bot", "user_id": "bot", "seat": 1, "shown": [], "delta": None,
         "penalty": 202, "points": 202, "winner": False},
    ]  # fmt: skip
    last = {"hand_id": "1-1", "lines": [], "players": players, "melds": [], "rack": None,
            "over": False, "indicator": "R4", "okey": "R5", "reason": "stock_exhausted"}  # fmt: skip
    drawn = await previous(
        browser,
        last,
        "tr",
        """{
            ended: box.querySelector(".ended")?.textContent,
            racks: box.querySelectorAll(".last-rack").length,
            result: document.querySelectorAll(".match-end").length,
          }""",
    )
    assert drawn == {"ended": t("tr", "web.last.stock_out"), "racks": 0, "result": 0}
