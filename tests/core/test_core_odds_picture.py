"""The table picture of an Açık hand carries the table message's live odds: the core passes its
cached public figures (computed once per position, never a player's own chance), none at
odds=off."""

from __future__ import annotations

import pytest

import bot.core.poker.odds_cache as core_poker
from games.poker.odds import estimate
from testkit.drive import live_session
from testkit.helpers import cmd, errors, make_core

PLAYERS = ("ayse", "mehmet", "cem")


async def seated(store, options: str = ""):
    core = make_core(store, seed="odds-picture", pictures=True)
    out = await core.handle(cmd(PLAYERS[0], f"/poker open acik 10 {options}".strip()))
    for user in PLAYERS:
        out += await core.handle(cmd(user, "/poker join 200"))
    out += await core.handle(cmd(PLAYERS[0], "/poker start"))
    assert not errors(out), errors(out)
    return core, live_session(core)


@pytest.fixture
def counted():
    """How many positions the core's odds were worked out for (from none kept)."""
    core_poker.ODDS.clear()  # kept per position across tables: start from none
    computed = core_poker.Counter.computed
    return lambda: core_poker.Counter.computed - computed


async def test_table_picture_shows_each_live_players_public_percentage(memory_store, counted):
    _, session = await seated(memory_store)
    scene = session.table_sketch().scene
    public = estimate(session.engine.view(None))
    assert [s.odds for s in scene.seats] == [public.percent(e) for e in range(len(PLAYERS))]
    assert all(s.odds is not None for s in scene.seats)
    # the message and the picture share one estimate per position, from the public view only
    assert counted() == len(core_poker.ODDS) >= 1
    assert all(core_poker.position(session.engine.view(None)) == key for key in core_poker.ODDS)


async def test_a_folded_seat_has_no_figure_and_the_rest_follow_the_new_position(memory_store):
    core, session = await seated(memory_store)
    for _ in range(6):
        view = session.engine.view(None)
        if view["finished"] or any(view["folded"]):
            break
        actor = session.seats[session.actor()].user_id
        specs = {a.kind: a for a in session.engine.legal_actions(view["to_act"])}
        line = "/poker fold" if "fold" in specs else f"/poker bet {specs['bet'].min_amount}"
        out = await core.handle(cmd(actor, line))
        assert not errors(out), errors(out)
    view = session.engine.view(None)
    assert any(view["folded"]) and not view["finished"]
    scene = session.table_sketch().scene
    public = estimate(view)
    for e, seat in enumerate(scene.seats):
        assert seat.odds == (None if view["folded"][e] else public.percent(e))


async def test_odds_off_leaves_the_picture_without_figures(memory_store):
    _, session = await seated(memory_store, "odds=off")
    assert all(s.odds is None for s in session.table_sketch().scene.seats)
