"""`TableView.last` at a 101 Okey table: once a round (here the match) is over, every viewer
sees its end: each player's round score and match total, the melds that lay on the table, the
result lines; never a rack."""

from __future__ import annotations

import random

from testkit.helpers import cmd, make_core
from tests.core.okey101.play import play_out
from tests.core.okey101.rig import live


async def test_the_previous_101_round_is_kept_after_the_match(store):
    core = make_core(store, seed="last101")
    await core.handle(cmd("ayse", "/okey start 101 1 10"))
    await core.handle(cmd("mehmet", "/okey join"))
    await core.handle(cmd("mehmet", "/okey begin"))
    table = live(core).id
    assert await play_out(core, random.Random(3)) > 0
    views = [await core.table_view(str(table), "test", who) for who in ("ayse", "zed")]
    assert views[0] is not None and views[1] is not None
    assert views[0].last == views[1].last  # all public: the same for a player and a spectator
    last = views[0].last
    assert last is not None and last.hand_id == f"{table}-1" and last.over
    assert [p.user_id for p in last.players] == ["ayse", "mehmet"]
    assert all(p.penalty is not None and p.points is not None for p in last.players)
    assert all(p.shown == () for p in last.players) and last.rack is None
    assert last.lines and last.okey is not None
