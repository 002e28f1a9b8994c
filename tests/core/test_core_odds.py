"""Açık poker's live odds at the table (option odds=on|off): each live player's public chance on
the table message, the player's own chance in /poker hand, nothing at odds=off or Türk pokeri."""

from __future__ import annotations

import re

from bot.core.messages import OutKind
from games.poker.odds import estimate
from testkit.drive import live_session
from testkit.helpers import cmd, errors, private_to
from testkit.house_play import FixedSeeds, core_on, open_table

PLAYERS = [f"p{i}" for i in range(10)]
ODDS = re.compile(r"wins (\d+)%")


def table_message(out: list) -> str:
    """The newest table message in `out`."""
    return [o.text for o in out if o.kind is OutKind.EDIT_TABLE][-1]


async def started(store, line: str, users: list[str]):
    core = core_on(store, FixedSeeds(master="odds"))
    out = await open_table(core, line, users)
    out += await core.handle(cmd(users[0], "/poker start"))
    assert not errors(out), errors(out)
    return core, out


async def test_ten_seats_show_each_public_chance_within_the_message_limit(store):
    core, out = await started(store, "/poker open acik 10", PLAYERS)
    text = table_message(out)
    session = live_session(core, "c1")
    odds = estimate(session.engine.view(None))
    shown = [int(p) for p in ODDS.findall(text)]
    assert shown == [odds.percent(e) for e in range(10)]
    assert 90 <= sum(shown) <= 110
    assert len(text) <= 1024, len(text)


async def test_own_chance_in_poker_hand_uses_the_down_card(store):
    core, _ = await started(store, "/poker open acik 10", PLAYERS[:3])
    session = live_session(core, "c1")
    out = await core.handle(cmd("p1", "/poker hand"))
    e = session.engine_seat(session.seats[1].player_id)
    mine = estimate(session.engine.view(e)).percent(e)
    public = estimate(session.engine.view(None)).percent(e)
    lines = "\n".join(private_to(out, "p1"))
    assert f"Your chance of winning: {mine}% (the table sees {public}%)" in lines


async def test_odds_off_and_turkish_show_no_odds(store):
    _, out = await started(store, "/poker open acik 10 odds=off", PLAYERS[:3])
    assert not ODDS.search(table_message(out))
    assert "odds=off" in table_message(out)


async def test_odds_turkish_alias(store):
    _, out = await started(store, "/poker open acik 10 şans=kapalı", PLAYERS[:3])
    assert not ODDS.search(table_message(out))


async def test_a_refused_press_does_not_work_the_odds_out_again(store):
    from bot.core.poker.odds_cache import Counter
    from testkit.helpers import last_buttons, press

    users = PLAYERS[:3]
    core, out = await started(store, "/poker open acik 10", users)
    session = live_session(core, "c1")
    actor = session.seats[session.actor()].user_id
    buttons = last_buttons(out)
    computed = Counter.computed
    refused = await core.press(press(actor, buttons["bet"], "999999"))  # beyond the limit
    assert errors(refused)
    assert live_session(core, "c1") is not session  # the refusal rebuilt the session
    shown = await core.handle(cmd(users[0], "/poker table"))
    assert ODDS.search(table_message(shown))
    assert Counter.computed == computed  # the same position: the kept figures


async def test_the_odds_are_worked_out_in_the_worker_processes(store, monkeypatch):
    import os

    from bot.core.poker import odds_cache
    from testkit.odds import estimate_marked

    monkeypatch.setattr(odds_cache, "estimate", estimate_marked)  # deals: the worker's pid
    odds_cache.ODDS.clear()
    computed = odds_cache.Counter.computed
    users = PLAYERS[:3]
    core, out = await started(store, "/poker open acik 10", users)
    session = live_session(core, "c1")
    out = await core.handle(cmd(users[1], "/poker hand"))  # the asker's own chance too
    assert "Your chance of winning" in "\n".join(private_to(out, users[1]))
    actor = session.seats[session.actor()].user_id
    out = await core.handle(cmd(actor, "/poker bet 20"))  # the same cards: the same figures
    assert not errors(out), errors(out)
    assert odds_cache.Counter.computed - computed == 2  # the deal's position and the asker's own
    session = live_session(core, "c1")
    out = await core.handle(cmd(session.seats[session.actor()].user_id, "/poker fold"))
    assert not errors(out), errors(out)
    assert odds_cache.Counter.computed - computed == 3  # a fold is a new position
    workers = {odds_cache.ODDS[key].deals for key in odds_cache.ODDS}
    assert len(odds_cache.ODDS) == 3 and os.getpid() not in workers
