"""The end of a 101 Okey round and match on the web table in a real browser, two pages (ayse in
English, mehmet in Turkish).

A match of one round ("web101-1", found once) is played to its end by the stand-in computer's
moves (`games.okey101.ai`) sent through the press the web table sends (`x`); mehmet finishes.
Both pages then show, where the stock and the indicator were (gone, with the melds: no round
runs), the match's result: the winner, each player's final total and the chips the match paid
them, and how to play again; under "Previous round" who finished, each player's round score and
the finisher's melds from the table laid out as their finishing rack with the finishing discard
last (public tiles only). Another deal: the +101 question's button names the tile after the verb
("Yine de at: R13"), and the left pile's label fits a 360 px phone."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.core.i18n import t
from bot.core.messages import Press
from games.okey101.ai import choose_action
from tests.web_browser.conftest import WAIT_MS, Site, open_page, shot, site
from tests.web_browser.helpers import PLATFORM, close_all, turn
from tests.web_browser.test_okey101_pages import OKEY101, SEED_AYSE

pytestmark = pytest.mark.asyncio(loop_scope="session")

# with "web101-1" and the moves below, mehmet finishes the round (the match) in 23 moves
SEED_END = "web101-1"


async def play_to_the_end(s: Site) -> Any:
    """Press each player's computer-chosen move until the match is over; the last round."""
    rng = random.Random(1)
    session = s.core.tables.in_channel("test", "c1").session
    ended = None
    for _ in range(500):
        game = session.game101
        if game is None:
            return ended
        ended = game
        user, view = await turn(s)
        assert user is not None
        action = choose_action(game, game.to_act(), "hard", rng)
        kind = "discard!" if action.kind == "discard" else action.kind  # a +101 accepted
        amount = "-" if action.amount is None else str(action.amount)
        press = Press(PLATFORM, "c1", user, user.capitalize(), s.table, "x", view.nonce,
                      (kind, action.source or "-", amount, *action.cards), "en")  # fmt: skip
        out = await s.core.press(press)
        assert not [o.text for o in out if o.kind.name == "ERROR"]
    raise AssertionError("the match did not end")


def runs(rack: list[str | None]) -> list[list[str]]:
    """The runs of tiles between the gaps of a laid-out rack."""
    out: list[list[str]] = [[]]
    for tile in rack:
        if tile:
            out[-1].append(tile)
        elif out[-1]:
            out.append([])
    return [r for r in out if r]


async def match_end(page: Any) -> dict[str, Any]:
    """What a page shows once the match is over."""
    await page.locator(".middle .match-end").wait_for(timeout=WAIT_MS)
    return await page.evaluate(
        """() => {
          const end = document.querySelector(".match-end");
          const box = document.querySelector("details.previous");
          const text = (sel, root = document) => root.querySelector(sel)?.textContent ?? null;
          return {
            widgets: document.querySelectorAll(
              ".centre-row, .stock, .indicator, .okey-tile, .melds101").length,
            middle: text(".middle"),
            title: text("h2", end),
            winners: text(".winners", end),
            rows: Object.fromEntries([...end.querySelectorAll("tr[data-user]")].map(
              (r) => [r.dataset.user, [...r.children].map((c) => c.textContent)])),
            again: text(".again", end),
            ended: text(".ended", box),
            players: Object.fromEntries([...box.querySelectorAll("li[data-user]")].map(
              (li) => [li.dataset.user, li.textContent])),
            rack: [...box.querySelectorAll(".last-rack .finished-rack")].flatMap(
              (row) => [...row.children].map((n) => n.dataset.tile || null)),
          };
        }"""
    )


async def test_a_101_match_played_to_its_end_shows_its_result_and_the_finishing_rack(browser):
    async with site(OKEY101, seed=SEED_END) as s:
        ayse = await open_page(browser, s.url("ayse"))
        mehmet = await open_page(browser, s.url("mehmet", locale="tr"))
        ended = await play_to_the_end(s)
        result = ended.result
        assert result["reason"] == "finished"
        _user, view = await turn(s)
        last = view.last
        assert view.phase == "waiting" and last is not None and last.over
        finisher = next(p for p in last.players if p.winner)
        assert finisher.user_id == "mehmet"
        # the finishing rack: the finisher's melds on the table, then the finishing discard
        theirs = [list(m["tiles"]) for m in ended.table if m["owner"] == result["winner"]]
        assert runs(list(last.rack)) == [*theirs, [result["discard"]]]

        shown = await match_end(ayse)
        assert shown["widgets"] == 0  # no stock, indicator, okey or melds without a round
        assert t("en", "web.waiting") not in shown["middle"]
        assert shown["title"] == t("en", "web.okey.match_result")
        winners = ", ".join(p.name for p in last.players if p.match_winner)
        assert shown["winners"] == t("en", "web.okey.match_winners", names=winners)
        assert sum(p.paid or 0 for p in last.players) == 20  # two stakes of 10
        for p in last.players:
            name = f"{p.name} \u2605" if p.match_winner else p.name
            assert shown["rows"][p.user_id] == [
                name,
                t("en", "web.okey.final_points", points=p.points),
                t("en", "web.okey.paid", chips=p.paid),
            ]
            assert t("en", "web.last.penalty", points=p.penalty) in shown["players"][p.user_id]
        assert shown["again"] == t("en", "web.okey.again")
        assert shown["ended"] == t("en", "web.last.finished", name=finisher.name)
        assert shown["rack"] == list(last.rack)
        await shot(ayse, "okey101-end")

        shown = await match_end(mehmet)
        assert shown["widgets"] == 0
        assert shown["title"] == t("tr", "web.okey.match_result")
        assert shown["again"] == t("tr", "web.okey.again")
        assert shown["ended"] == t("tr", "web.last.finished", name=finisher.name)
        assert shown["rack"] == list(last.rack)
        await close_all([ayse, mehmet])


async def test_the_101_confirm_names_the_tile_after_the_verb_and_the_pile_label_fits(browser):
    async with site(OKEY101, seed=SEED_AYSE) as s:
        user, view = await turn(s)
        assert user == "ayse"
        okey = view.okey
        # the left pile's label ("Mehmet's discards") is drawn whole on a 360 px phone
        english = await open_page(browser, s.url("ayse"))
        label = english.locator(".centre-row .pile .pile-label").first
        await label.wait_for(timeout=WAIT_MS)
        fits = await label.evaluate(
            "n => n.scrollWidth <= n.clientWidth && n.scrollHeight <= n.clientHeight"
        )
        assert fits and await label.inner_text() == t("en", "web.okey.pile", name="Mehmet")
        await close_all([english])
        ayse = await open_page(browser, s.url("ayse", locale="tr"))
        await ayse.locator(f'#main[data-nonce="{view.nonce}"]').wait_for(
            state="attached", timeout=WAIT_MS
        )
        await ayse.locator(f'.rack .slot:has([data-tile="{okey}"])').first.click()
        await ayse.locator('button[data-key="act-discard"]:enabled').click()
        button = ayse.locator('button[data-key="act-discard-anyway"]')
        await button.wait_for(timeout=WAIT_MS)
        assert await button.inner_text() == t("tr", "web.okey101.discard_anyway", tile=okey)
        assert (await button.inner_text()).startswith("Yine de at")
        await close_all([ayse])
