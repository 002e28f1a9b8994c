"""Poker on the web table in a real browser: a Türk pokeri hand with a draw made by tapping
cards, an Açık hand with the live odds, a spectator who sees no hidden card, a page that
resumes after the server dropped its socket, and a stale move refused with a toast."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.core.i18n import t
from tests.web_browser.conftest import DESKTOP, SHOTS, WAIT_MS, open_page, shot, site
from tests.web_browser.helpers import ACIK, PLATFORM, TURKISH, close_all, kinds, ready, turn

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def cards_in_hand(page: Any) -> list[str]:
    """The viewer's own cards as the page shows them."""
    return await page.locator("section.hand [data-card]").evaluate_all(
        "nodes => nodes.map(n => n.dataset.card)"
    )


async def moved_on(page: Any, nonce: str) -> None:
    """Wait until `page` shows a turn after `nonce` (the move it sent was made)."""
    await page.locator(f'#main:not([data-nonce="{nonce}"])').wait_for(
        state="attached", timeout=WAIT_MS
    )


async def bet_with_the_amount_box(page: Any, low: int, high: int) -> int:
    """Type an amount between the bounds into the bet control, check the slider and the button
    follow it, and bet it; the amount."""
    box = page.get_by_role("spinbutton", name="Amount")
    assert await box.get_attribute("min") == str(low) and await box.get_attribute("max") == str(
        high
    )
    amount = low + (high - low) // 2
    await box.fill(str(amount))
    assert await page.get_by_role("slider", name="Amount").input_value() == str(amount)
    await page.get_by_role("button", name=t("en", "web.act.bet", amount=amount)).click()
    return amount


async def play_move(page: Any, offered: list[str]) -> str:
    """Press the move a cautious player makes: open or call, else check or pass."""
    for kind in ("open", "call", "check", "pass", "fold"):
        if kind in offered:
            await page.locator(f'button.act[data-kind="{kind}"]').click()
            return kind
    raise AssertionError(f"no move to make among {offered}")


async def test_a_turkish_hand_with_a_draw_by_tapping_cards(browser):
    async with site(TURKISH, seed="web-turkish") as s:
        pages = {
            "ayse": await open_page(browser, s.url("ayse")),
            "mehmet": await open_page(browser, s.url("mehmet", locale="tr")),
        }
        # the Turkish page speaks Turkish, from the catalogue
        await pages["mehmet"].get_by_text(t("tr", "web.your_cards")).wait_for(timeout=WAIT_MS)
        drawn: tuple[str, str, list[str]] | None = None
        for _ in range(80):
            user, view = await turn(s)
            if user is None:
                break
            if drawn is not None and view.hand_id != drawn[1]:
                break
            page = pages[user]
            await ready(page, view.nonce)
            offered = await kinds(page)
            if "draw" in offered and drawn is None:
                before = await cards_in_hand(page)
                for card in before[-2:]:
                    await page.locator(f'section.hand button[data-card="{card}"]').click()
                await page.locator('section.hand button[aria-pressed="true"]').nth(1).wait_for()
                await shot(page, "turkish-draw")
                label = t("en" if user == "ayse" else "tr", "web.act.draw", count=2)
                await page.get_by_role("button", name=label).click()
                drawn = (user, view.hand_id, before)
                await moved_on(page, view.nonce)
                after = await cards_in_hand(page)
                assert len(after) == 5 and after != before
                assert len(set(before) - set(after)) == 2 and set(before[:3]) <= set(after)
                me = view.me
                plate = page.locator(f'.seat[data-seat="{me}"] .state')
                locale = "en" if user == "ayse" else "tr"
                await plate.get_by_text(t(locale, "web.drew", count=2)).wait_for(timeout=WAIT_MS)
            elif "draw" in offered:
                await page.locator('button.act[data-kind="draw"]').click()  # stands pat
            else:
                await play_move(page, offered)
            await moved_on(page, view.nonce)
        assert drawn is not None, "no hand reached the draw"
        # the hand is over: the page keeps its moves under the next one as "Previous hand"
        for page in pages.values():
            await page.locator(f'#main:not([data-hand="{drawn[1]}"])').wait_for(timeout=WAIT_MS)
            previous = page.locator(f'details.previous[data-hand="{drawn[1]}"] li')
            await previous.first.wait_for(timeout=WAIT_MS)
        await close_all(list(pages.values()))


async def test_an_acik_hand_shows_the_odds_and_a_spectator_sees_no_hidden_card(browser):
    async with site(ACIK, seed="web-acik") as s:
        pages = {
            "ayse": await open_page(browser, s.url("ayse")),
            "mehmet": await open_page(browser, s.url("mehmet")),
        }
        zed = await open_page(browser, s.url("zed"))
        # a desktop page too, only to take its picture
        wide = await open_page(browser, s.url("ayse"), DESKTOP) if SHOTS else None
        hand = (await turn(s))[1].hand_id
        seen_odds = bet_made = False
        for _ in range(40):
            user, view = await turn(s)
            if user is None or view.hand_id != hand:
                break
            page = pages[user]
            await ready(page, view.nonce)
            public = await s.core.table_view(s.table, PLATFORM, "zed")
            in_hand = [i for i, seat in enumerate(public.seats) if seat.in_play and not seat.folded]
            odds = page.locator(".seat .odds")
            await odds.nth(len(in_hand) - 1).wait_for(timeout=WAIT_MS)
            texts = await odds.all_inner_texts()
            assert len(texts) == len(in_hand) and all(x.endswith("%") for x in texts)
            shown = [public.odds[i] for i in in_hand]
            assert sorted(int(x.rstrip("%")) for x in texts) == sorted(shown)
            seen_odds = True
            await spectator_sees_only_public_cards(s, zed, view.nonce)
            if wide is not None and not await shot_once(wide, view.nonce, "acik-desktop"):
                await shot(page, "acik")
            offered = await kinds(page)
            bet = next((a for a in view.actions if a.kind == "bet"), None)
            if bet is not None and not bet_made and bet.min_amount < bet.max_amount:
                amount = await bet_with_the_amount_box(page, bet.min_amount, bet.max_amount)
                bet_made = True
                await moved_on(page, view.nonce)
                after = await s.core.table_view(s.table, PLATFORM, "zed")
                assert after.seats[view.me].stake == amount
            else:
                await play_move(page, offered)
                await moved_on(page, view.nonce)
        assert seen_odds and bet_made
        await close_all([*pages.values(), zed, *([wide] if wide else [])])


_shots: set[str] = set()


async def shot_once(page: Any, nonce: str, name: str) -> bool:
    """The first time only: wait for `nonce` on `page` and take the screenshot `name`."""
    if name in _shots:
        return False
    _shots.add(name)
    await page.locator(f'#main[data-nonce="{nonce}"]').wait_for(timeout=WAIT_MS)
    await shot(page, name)
    return True


async def spectator_sees_only_public_cards(s: Any, page: Any, nonce: str) -> None:
    """The spectator's page shows exactly the up cards, no move, no hand of its own."""
    await page.locator(f'#main[data-nonce="{nonce}"]').wait_for(timeout=WAIT_MS)
    public = await s.core.table_view(s.table, PLATFORM, "zed")
    up = sorted(card for seat in public.seats for card in seat.up)
    shown = await page.locator("[data-card]").evaluate_all("ns => ns.map(n => n.dataset.card)")
    assert sorted(shown) == up
    assert await page.locator("section.hand").count() == 0
    assert await page.locator("button.act").count() == 0
    backs = sum(seat.down for seat in public.seats)
    assert await page.locator(".card.back").count() == backs
    html = await page.content()
    for user in ("ayse", "mehmet"):
        mine = (await s.core.table_view(s.table, PLATFORM, user)).mine
        for card in set(mine) - set(up):
            assert f'data-card="{card}"' not in html


async def test_a_spectator_of_a_turkish_hand_sees_no_card(browser):
    async with site(TURKISH, seed="web-turkish") as s:
        zed = await open_page(browser, s.url("zed"))
        await zed.get_by_text(t("en", "web.spectator")).first.wait_for(timeout=WAIT_MS)
        _user, view = await turn(s)
        await spectator_sees_only_public_cards(s, zed, view.nonce)
        await shot(zed, "spectator")
        await close_all([zed])


async def test_the_page_resumes_after_the_socket_drops_and_a_stale_move_is_refused(browser):
    async with site(TURKISH, seed="web-turkish") as s:
        stale = {"on": False}

        async def route(ws: Any) -> None:
            server = ws.connect_to_server()

            def out(message: str | bytes) -> None:
                frame = json.loads(message)
                if stale["on"] and frame.get("type") == "act":
                    frame["nonce"] = "stale0"  # as a page that missed a state would send it
                server.send(json.dumps(frame))

            ws.on_message(out)
            server.on_message(lambda message: ws.send(message))

        pages = {}
        for user in ("ayse", "mehmet"):
            context = await browser.new_context(viewport={"width": 360, "height": 740})
            page = await context.new_page()
            page.errors = []
            page.on("pageerror", lambda error, page=page: page.errors.append(str(error)))
            await page.route_web_socket("**/ws", route)
            await page.goto(s.url(user))
            await page.locator("#main section.poker").wait_for(timeout=WAIT_MS)
            pages[user] = page
        user, view = await turn(s)
        page = pages[user]
        await ready(page, view.nonce)
        # the server drops every socket of the table: the pages say so, then resume
        hub = s.web.web.hub
        for viewer in [
            *hub.pages_of(PLATFORM, s.table, "ayse"),
            *hub.pages_of(PLATFORM, s.table, "mehmet"),
        ]:
            await viewer.ws.close()
        for each in pages.values():
            status = each.locator("#status")
            await status.get_by_text("Connection lost", exact=False).wait_for(timeout=WAIT_MS)
        for each in pages.values():
            await each.locator("body:not(.offline) #status:empty").wait_for(
                state="attached", timeout=WAIT_MS
            )
        assert hub.count(PLATFORM, s.table) == 2
        # a move made from a page that missed a state is refused, with the reason shown
        await ready(page, view.nonce)
        stale["on"] = True
        await play_move(page, await kinds(page))
        toast = page.locator(".toast.error")
        await toast.get_by_text(t("en", "err.stale_button")).wait_for(timeout=WAIT_MS)
        # the resumed page still plays: the same move, now with the turn's nonce
        stale["on"] = False
        await ready(page, view.nonce)
        await play_move(page, await kinds(page))
        await page.locator(f'#main:not([data-nonce="{view.nonce}"])').wait_for(timeout=WAIT_MS)
        _user, after = await turn(s)
        assert after is None or after.nonce != view.nonce
        await close_all(list(pages.values()))
