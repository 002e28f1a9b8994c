"""`TableView.last`: the public end of the previous hand or round, kept after the next one is
dealt and across a restart. Türk pokeri: the cards shown at a showdown are there, a folded
hand's cards never are (for any viewer). Okey: the finisher's laid-down rack and the round's
penalties, after the match is over too. Its result lines are kept as messages and read in the
language a view is asked in; an older snapshot's text lines read as they were written."""

from __future__ import annotations

from typing import Any

from bot.core.poker.session import PokerSession
from bot.core.table.deliver import words
from bot.core.table.last import last_view
from bot.core.table.session import Msg
from games.okey import auto_action
from testkit.drive import live_session
from testkit.helpers import Clock, cmd, errors, make_core

PLAYERS = ("ayse", "mehmet", "cem")


def poker_line(session: Any, folder: str) -> tuple[str, str]:
    """The next move of the seat to act: `folder` folds at once when it may; the others open
    when they may, else call, check, stand pat or pass (so the hand reaches a showdown)."""
    index = session.engine.to_act()
    user = session.seat_of_engine(index).user_id
    kinds = {spec.kind: spec for spec in session.engine.legal_actions(index)}
    if user == folder and "fold" in kinds:
        return user, "/poker fold"
    if "open" in kinds:
        return user, f"/poker open {kinds['open'].min_amount}"
    for kind in ("call", "check"):
        if kind in kinds:
            return user, f"/poker {kind}"
    if "draw" in kinds:
        return user, "/poker pat"
    return user, "/poker pass"


async def play_to_showdown(core: Any, folder: str) -> tuple[str, list[str]]:
    """Play hands until one ends at a showdown in which `folder` folded: that hand's id and
    the cards `folder` held when folding."""
    folded: tuple[str, list[str]] = ("", [])
    for _ in range(400):
        session = live_session(core)
        assert session is not None and session.running()
        hand = session.hand_id()
        user, line = poker_line(session, folder)
        held: list[str] = []
        if user == folder and line == "/poker fold":
            seat = next(s for s in session.seats if s.user_id == user)
            held = list(session.engine.view(session.engine_seat(seat.player_id))["hand"])
        out = await core.handle(cmd(user, line))
        assert not errors(out), (line, errors(out))
        if held:
            folded = (hand, held)
        ended = session.last
        showdown = ended and any(p["shown"] for p in ended["players"])
        if showdown and ended["hand_id"] == hand and folded[0] == hand:
            return folded
    raise AssertionError("no showdown with a fold")


async def test_a_showdown_shows_its_cards_and_never_a_folded_hand(store):
    core = make_core(store, seed="last-hand")
    await core.handle(cmd("ayse", "/poker open turkish 5"))
    for user in PLAYERS:
        await core.handle(cmd(user, "/poker join 400"))
    await core.handle(cmd("ayse", "/poker start"))
    hand, held = await play_to_showdown(core, "cem")
    session = live_session(core)
    assert session is not None and session.hand_id() != hand  # the next hand was dealt at once
    table = str(session.table_id)
    for viewer in (*PLAYERS, "zed"):  # every seat, and a spectator
        view = await core.table_view(table, "test", viewer)
        assert view is not None and view.last is not None
        last = view.last
        assert last.hand_id == hand
        by_user = {p.user_id: p for p in last.players}
        assert by_user["cem"].shown == ()  # the folded hand is never shown
        shown = [c for p in last.players for c in p.shown]
        assert not set(held) & set(shown)
        assert not any(card in line for card in held for line in last.lines)
        showed = [p for p in last.players if p.shown]
        assert len(showed) >= 2 and all(len(p.shown) == 5 for p in showed)
        assert by_user["cem"].delta is not None and by_user["cem"].delta < 0  # the ante
        assert any(p.winner and (p.delta or 0) > 0 for p in last.players) and last.lines
        assert {p.seat for p in last.players} <= set(range(len(view.seats)))
    # a restart keeps it (it is in the snapshot)
    again = make_core(store, seed="last-hand")
    await again.start()
    after = await again.table_view(table, "test", "zed")
    before = await core.table_view(table, "test", "zed")
    assert after is not None and before is not None and after.last == before.last


async def test_okey_keeps_the_finishing_rack_and_the_penalties_after_the_match(store):
    core = make_core(store, seed="last-okey-3")
    await core.handle(cmd("ayse", "/okey start 1 10"))
    for user in ("mehmet", "cem", "deniz"):
        await core.handle(cmd(user, "/okey join"))
    await core.handle(cmd("ayse", "/okey begin"))
    finished = None
    for _ in range(60):  # one-round matches until a round is won by finishing
        steps = 0
        while (session := live_session(core)) is not None and session.running() and steps < 800:
            index = session.match.round.to_act()
            user = session.seat_of(index).user_id
            action = auto_action(session.match.round, index)
            if action.kind == "take":
                line = f"/okey take {action.source}"
            elif action.kind == "show_indicator":
                line = "/okey show"
            else:
                line = f"/okey {action.kind} {action.cards[0]}"
            out = await core.handle(cmd(user, line))
            assert not errors(out), errors(out)
            steps += 1
        session = live_session(core)
        assert session is not None and not session.running()
        if session.last and session.last["rack"] is not None:
            finished = session
            break
        await core.handle(cmd("ayse", "/okey begin"))
    assert finished is not None
    view = await core.table_view(str(finished.table_id), "test", "zed")
    assert view is not None and view.last is not None
    last = view.last
    assert last.over and last.rack is not None and len(last.rack) == 30
    laid = [t for t in last.rack if t is not None]
    assert laid[:-1] == [t for meld in last.melds for t in meld]  # the melds, then the discard
    assert len(laid) == 15
    winners = [p for p in last.players if p.winner]
    assert len(winners) == 1 and all(p.points is not None for p in last.players)
    assert all(p.penalty is not None for p in last.players)
    assert all(p.shown == () for p in last.players)
    assert last.lines  # the round's and the match's result as announced
    # the seats show no points once the match is over, `last` still does
    assert all(s.points is None for s in view.seats)


async def test_the_previous_hands_lines_are_kept_as_messages_and_read_in_the_asked_language(
    store,
):
    core = make_core(store, seed="last-hand")
    await core.handle(cmd("ayse", "/poker open turkish 5", locale="tr"))
    for user in PLAYERS:
        await core.handle(cmd(user, "/poker join 400", locale="tr"))
    await core.handle(cmd("ayse", "/poker start", locale="tr"))
    await play_to_showdown(core, "cem")
    session = live_session(core)
    assert session is not None and session.locale == "tr"
    kept = session.to_dict()["last"]["lines"]
    assert kept and all(isinstance(line, dict) for line in kept)  # messages, not words
    table = str(session.table_id)
    views = {
        locale: await core.table_view(table, "test", "zed", locale) for locale in (None, "tr", "en")
    }
    lines = {locale: view.last.lines for locale, view in views.items() if view and view.last}
    assert lines[None] == lines["tr"] == tuple(words("tr", Msg.from_dict(m)) for m in kept)
    assert lines["en"] == tuple(words("en", Msg.from_dict(m)) for m in kept)
    assert lines["en"] != lines["tr"]


def test_an_old_snapshots_text_lines_read_as_written_in_any_language():
    session = PokerSession.create("turkish", "tr", (), make_core(None).config, Clock().now)
    old = ["El 1-1 bitti.", "Ayse 20 fiş kazandı."]  # as an older version kept them
    session.last = {"hand_id": "1-1", "lines": old, "players": []}
    again = PokerSession.from_dict(session.to_dict())
    for locale in (None, "tr", "en"):
        last = last_view(again, locale)
        assert last is not None and last.lines == tuple(old)
