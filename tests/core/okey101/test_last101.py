"""`TableView.last` at a 101 Okey table: once a round (here the match) is over, every viewer
sees its end: each player's round score and match total, the melds that lay on the table, the
result lines, how the round ended; a finisher's melds on the table laid out as their finishing
rack with the finishing discard last (never a rack's hidden tiles); the match's winner and each
player's payout."""

from __future__ import annotations

import random

from bot.core.api import RACK_SLOTS
from testkit.helpers import cmd, make_core
from tests.core.okey101.play import play_out
from tests.core.okey101.rig import live


def groups(rack) -> list[tuple[str, ...]]:
    """The runs of tiles between gaps of a laid-out rack."""
    out: list[tuple[str, ...]] = [()]
    for tile in rack:
        out[-1] += (tile,) if tile else ()
        if not tile and out[-1]:
            out.append(())
    return [g for g in out if g]


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
    assert all(p.shown == () for p in last.players)
    assert last.lines and last.okey is not None
    assert last.reason == "finished" and [p.winner for p in last.players].count(True) == 1
    # the rack: melds that lay on the table, each then a gap, and the finishing discard alone
    assert last.rack is not None and len(last.rack) == RACK_SLOTS
    *melds, discard = groups(last.rack)
    assert melds and all(m in last.melds for m in melds) and len(discard) == 1
    finisher = next(p for p in last.players if p.winner)
    assert any(discard[0] in line and finisher.name in line for line in last.lines)
    # the match's end: who won it (the lowest total), each player's chips from the pool
    best = min(p.points or 0 for p in last.players)
    assert [p.match_winner for p in last.players] == [p.points == best for p in last.players]
    assert sum(p.paid or 0 for p in last.players) == 20 and all(
        p.paid is not None for p in last.players
    )
