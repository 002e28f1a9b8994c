"""The page around the table, in a real browser: Telegram's theme colours from the Mini App's
launch parameters, and a refused session told in words (no table drawn)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import pytest

from bot.core.i18n import t
from testkit.helpers import cmd
from tests.web_browser.conftest import PHONE, WAIT_MS, open_page, site
from tests.web_browser.helpers import PLATFORM, TURKISH, close_all, drag

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_the_telegram_theme_colours_the_page_and_a_refused_launch_is_told(browser):
    theme = {"bg_color": "#112233", "text_color": "#fafafa", "button_color": "#ff8800"}
    async with site(TURKISH) as s:
        base = str(s.web.client.make_url("/"))
        # launch data this server cannot check (it has no Telegram token): refused
        launch = f"tgWebAppData={quote('user=%7B%7D&hash=00')}&tgWebAppThemeParams={quote(json.dumps(theme))}"
        context = await browser.new_context(viewport=PHONE, locale="en-US")
        page = await context.new_page()
        await page.goto(f"{base}#{launch}")
        await page.get_by_text(t("en", "err.web_session")).wait_for(timeout=WAIT_MS)
        colours = await page.evaluate(
            "() => [getComputedStyle(document.body).backgroundColor,"
            " getComputedStyle(document.body).color]"
        )
        assert colours == ["rgb(17, 34, 51)", "rgb(250, 250, 250)"]
        assert "tgWebAppData" not in page.url  # the launch data leaves the address bar
        assert await page.locator("section.poker, section.okey").count() == 0
        # no session at all: the page says where to open it from
        other = await context.new_page()
        await other.goto(base)
        await other.get_by_text(t("en", "web.no_session")).wait_for(timeout=WAIT_MS)
        await context.close()


async def test_the_rack_moves_a_tile_into_a_gap_between_tiles_or_swaps_in_a_full_row(browser):
    async with site(TURKISH) as s:
        context = await browser.new_context(viewport=PHONE)
        page = await context.new_page()
        await page.goto(str(s.web.client.make_url("/static/index.html")))
        moved = await page.evaluate(
            """async () => {
              const { move, reconcile, fromTiles } = await import("/static/rack.js");
              const row = (...tiles) => [...tiles, ...Array(30 - tiles.length).fill(null)];
              const full = Array.from({ length: 30 }, (_, i) => (i < 16 ? `B${(i % 13) + 1}` : null));
              return {
                gap: move(row("R1", "R2"), 0, 5).slice(0, 6),
                between: move(row("R1", "R2", "R3", null, "K9"), 4, 1).slice(0, 5),
                left: move(row("R1", "R2", null, "R4"), 3, 1).slice(0, 4),
                along: move(full, 0, 3).slice(0, 4),
                swap: move(full, 15, 3).slice(0, 16),
                kept: reconcile(row("R1", null, "B2"), ["B2", "Y7", "R1"]),
                laid: fromTiles(["K1", "F"]).slice(0, 3),
              };
            }"""
        )
        await context.close()
    assert moved["gap"] == [None, "R2", None, None, None, "R1"]
    assert moved["between"] == ["R1", "K9", "R2", "R3", None]  # the row slides into the gap
    assert moved["left"] == ["R1", "R4", "R2", None]
    assert moved["along"] == ["B2", "B3", "B4", "B1"]  # its own place is the gap it slides to
    swap = moved["swap"]  # from the other row into a full one: the two swap
    assert swap[3] == "B3" and swap[15] == "B4" and swap[:3] == ["B1", "B2", "B3"]
    rack, fresh = moved["kept"]
    assert rack[:3] == ["R1", "Y7", "B2"] and fresh == [1]
    assert moved["laid"] == ["K1", "F", None]


async def test_a_closed_table_is_told_and_the_page_stops_reconnecting(browser):
    async with site(TURKISH) as s:
        page = await open_page(browser, s.url("mehmet"))
        await s.core.handle(cmd("ayse", "/table reset", mod=True))  # a moderator closes it
        await page.get_by_text(t("en", "err.no_such_table")).wait_for(timeout=WAIT_MS)
        assert await page.locator("section.poker").count() == 0
        assert await page.locator("#status").inner_text() == ""  # not "reconnecting"
        assert s.web.web.hub.count(PLATFORM, s.table) == 0
        await close_all([page])


OKEY_VIEW = """
  const tiles = ["R1","R2","R3","Y7","Y8","Y9","B4","B4","K10","K11","K12","K13","F","R5","B9"];
  const seat = (name, extra) => ({name, user_id: name, bot: false, away: false, leaving: false,
    in_play: true, dealer: false, acting: false, folded: false, all_in: false, chips: null,
    stake: 0, up: [], down: 14, drew: null, discards: [], points: 0, ...extra});
  const view = {table_id: "1", game: "okey", group: "okey", locale: "en", phase: "playing",
    hand_id: "1-1", seats: [seat("ayse", {acting: true, down: 15}), seat("bot", {discards: ["K1"]})],
    me: 0, mine: tiles, actions: [{kind: "discard", min_amount: null, max_amount: null,
    max_cards: 1, sources: []}, {kind: "finish", min_amount: null, max_amount: null,
    max_cards: 1, sources: []}], acting: 0, deadline: null, stage: "discard", pot: 0, pots: [],
    carried: 0, indicator: "R4", okey: "R5", stock: 40, moves: [], nonce: "n1", odds: [],
    rack: [...tiles, ...Array(15).fill(null)], me_name: "Ayse"};
"""


async def okey_harness(page: Any) -> None:
    """Draw the made-up Okey view with the page's own module; moves go to `window.calls`,
    arrangements to `window.arranged`."""
    await page.evaluate(
        "async () => {"
        + OKEY_VIEW
        + """
          const { renderOkey } = await import("/static/okey.js");
          const box = document.createElement("main");
          box.id = "harness";
          document.body.replaceChildren(box);
          window.calls = [];
          window.arranged = [];
          const ctx = {
            pending: false,
            act: (kind, fields) => window.calls.push([kind, fields]),
            arrange: (tiles, done) => {  // as the server: keep it, acknowledge, send the state
              window.arranged.push(tiles);
              view.rack = [...tiles];
              done();
              ctx.redraw();
            },
            sort: () => {},
            redraw: () => box.replaceChildren(renderOkey(view, ctx)),
          };
          ctx.redraw();
        }"""
    )


async def touch_drag(page: Any, source: Any, target: Any) -> None:
    """Drag with a finger (touch events through the DevTools protocol, as a phone sends them)."""
    a = await source.bounding_box()
    b = await target.bounding_box()
    assert a is not None and b is not None
    cdp = await page.context.new_cdp_session(page)
    x, y = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    bx, by = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    await cdp.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}
    )
    for k in range(1, 7):
        point = {"x": x + (bx - x) * k / 6, "y": y + (by - y) * k / 6}
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    await cdp.detach()


async def test_the_rack_answers_a_finger_dragging_and_tapping(browser):
    async with site(TURKISH) as s:
        context = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        page = await context.new_page()
        await page.goto(str(s.web.client.make_url("/")))
        await page.get_by_text(t("en", "web.no_session")).wait_for(timeout=WAIT_MS)
        await okey_harness(page)
        rack = page.locator("#harness .rack")
        await touch_drag(page, rack.locator('[data-slot="3"]'), rack.locator('[data-slot="20"]'))
        await rack.locator('[data-slot="20"] [data-tile="Y7"]').wait_for(timeout=WAIT_MS)
        await rack.locator('[data-slot="0"]').tap()  # R1 picked up by a tap ...
        try:
            await rack.locator('[data-slot="0"][aria-pressed="true"]').wait_for(timeout=3000)
        except Exception:
            print("DBG", await page.evaluate("() => JSON.stringify(window.dbg)"))
            raise
        await rack.locator('[data-slot="25"]').tap()  # ... and put down by another
        await rack.locator('[data-slot="25"] [data-tile="R1"]').wait_for(timeout=WAIT_MS)
        await touch_drag(
            page, rack.locator('[data-slot="12"]'), page.locator('[data-drop="finish"]')
        )
        calls = await page.evaluate("() => window.calls")
        arranged = await page.evaluate("() => window.arranged")
        await context.close()
    assert [rack[20] for rack in arranged] == ["Y7", "Y7"] and arranged[1][25] == "R1"
    assert calls == [["finish", {"cards": ["F"]}]]


async def test_an_okey_tile_dropped_on_the_indicator_finishes_and_on_the_pile_discards(browser):
    """The page's Okey module alone, on a made-up view where finishing is allowed (a real
    round rarely offers it to a test): what a drop onto each target sends."""
    async with site(TURKISH) as s:
        context = await browser.new_context(viewport=PHONE)
        page = await context.new_page()
        await page.goto(str(s.web.client.make_url("/")))
        await page.get_by_text(t("en", "web.no_session")).wait_for(timeout=WAIT_MS)
        await okey_harness(page)
        rack = page.locator("#harness .rack")
        await drag(page, rack.locator('[data-slot="12"]'), page.locator('[data-drop="finish"]'))
        await drag(page, rack.locator('[data-slot="14"]'), page.locator('[data-drop="discard"]'))
        await rack.locator('[data-slot="0"]').click()  # pick R1 up ...
        await page.locator('button[data-key="act-finish"]').click()  # ... and finish with it
        calls = await page.evaluate("() => window.calls")
        await context.close()
    assert calls == [
        ["finish", {"cards": ["F"]}],
        ["discard", {"cards": ["B9"]}],
        ["finish", {"cards": ["R1"]}],
    ]
