"""Computer player levels through the core: `addbot [level]` in both games (English and Turkish
words), the level on the seat and on the table message, refusals that change nothing, old
snapshots, and a whole Okey match with computer seats of every level."""

from __future__ import annotations

import pytest

from bot.core.table.session import Seat
from games.okey import auto_action
from storage import escrow
from testkit.drive import live_session
from testkit.helpers import cmd, errors, make_core, public_text


async def test_poker_addbot_level_and_buy_in(store):
    core = make_core(store, seed="levels-poker")
    await core.handle(cmd("ayse", "/poker open turkish 10"))
    await core.handle(cmd("ayse", "/poker join 200"))
    out = await core.handle(cmd("ayse", "/poker addbot hard 150"))
    assert "computer (hard)" in public_text(out)
    await core.handle(cmd("ayse", "/poker addbot"))
    await core.handle(cmd("ayse", "/poker botekle 120 kolay"))
    session = live_session(core)
    bots = [s for s in session.seats if s.bot]
    assert [s.level for s in bots] == ["hard", "normal", "easy"]
    assert [session.chips[str(s.player_id)] for s in bots] == [150, 200, 120]


async def test_poker_addbot_refusals_change_nothing(store):
    core = make_core(store, seed="levels-refuse")
    await core.handle(cmd("ayse", "/poker open turkish 10"))
    before = live_session(core).to_dict()
    for line in ("/poker addbot hard 150 more", "/poker addbot genius"):
        out = await core.handle(cmd("ayse", line))
        assert errors(out) == ["Usage: /poker addbot [easy|normal|hard] [buy-in]"]
        assert live_session(core).to_dict() == before
    out = await core.handle(cmd("ayse", "/poker addbot hard 150 more", locale="tr"))
    assert "botekle [kolay|orta|zor]" in errors(out)[0]


async def test_okey_addbot_levels_in_turkish(store):
    core = make_core(store, seed="levels-okey")
    await core.handle(cmd("ayse", "/okey start 1 40", locale="tr"))
    await core.handle(cmd("ayse", "/okey botekle zor", locale="tr"))
    await core.handle(cmd("ayse", "/okey botekle orta", locale="tr"))
    before = live_session(core).to_dict()
    out = await core.handle(cmd("ayse", "/okey botekle dahi", locale="tr"))
    assert errors(out) == ["Kullanım: /okey botekle [kolay|orta|zor]"]
    assert live_session(core).to_dict() == before
    assert [s.level for s in live_session(core).seats if s.bot] == ["hard", "normal"]
    out = await core.handle(cmd("ayse", "/okey begin", locale="tr"))
    text = public_text(out)
    assert "bilgisayar (zor)" in text and "bilgisayar (orta)" in text


def test_old_snapshot_computer_seat_plays_as_easy():
    old = {"player_id": 7, "user_id": "bot-1", "name": "Bot 1", "locale": "en", "bot": True}
    seat = Seat.from_dict(old)
    assert seat.level == "easy"
    assert Seat.from_dict(seat.to_dict()) == seat


async def test_okey_match_with_every_level(store):
    """Ayse plays against an easy, a normal and a hard computer; the computers act on their own
    and the match ends with the pool paid out."""
    core = make_core(store, seed="levels-match")
    await core.handle(cmd("ayse", "/okey start 1 40"))
    for level in ("easy", "normal", "hard"):
        assert not errors(await core.handle(cmd("ayse", f"/okey addbot {level}")))
    out = await core.handle(cmd("ayse", "/okey begin"))
    table = live_session(core).table_id
    for _ in range(400):
        session = live_session(core)
        if session is None or session.match is None or session.match.round is None:
            break
        game = session.match.round
        index = game.to_act()
        if index is None:
            break
        assert session.seat_of(index).user_id == "ayse"  # the computers have moved already
        action = auto_action(game, index)
        word = f"take {action.source}" if action.kind == "take" else action.kind
        line = f"/okey {word}" + (f" {action.cards[0]}" if action.cards else "")
        out = await core.handle(cmd("ayse", line))
        assert not errors(out), errors(out)
    assert await store.balance(escrow(table)) == 0


@pytest.mark.parametrize("variant", ["turkish", "acik"])
async def test_poker_hands_against_normal_and_hard_computers(store, variant):
    """Whole hands against `normal` and `hard` seats through the core: every step accepted,
    the computers act, the books stay sound."""
    core = make_core(store, seed=f"levels-{variant}")
    await core.handle(cmd("ayse", f"/poker open {variant} 10"))
    await core.handle(cmd("ayse", "/poker join 300"))
    await core.handle(cmd("ayse", "/poker addbot hard 300"))
    await core.handle(cmd("ayse", "/poker addbot normal 300"))
    out = await core.handle(cmd("ayse", "/poker start"))
    assert not errors(out), errors(out)
    session = live_session(core)
    table, bots = session.table_id, {s.player_id for s in session.seats if s.bot}
    for _ in range(300):  # ayse calls or checks whatever the computers do
        session = live_session(core)
        if session is None or session.hand_no > 6 or not session.running():
            break
        specs = {s.kind: s for s in session.engine.legal_actions(session.engine.to_act())}
        kind = next(k for k in ("call", "check", "pass", "draw", "open", "fold") if k in specs)
        line = {"open": f"open {specs[kind].min_amount}", "draw": "pat"}.get(kind, kind)
        step = await core.handle(cmd("ayse", f"/poker {line}"))
        assert not errors(step), errors(step)
    assert bots <= {a.player_id for a in await store.actions(table)}  # both computers acted
    assert await store.audit() == []
