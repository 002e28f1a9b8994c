"""`Core.table_views`: the views of several viewers from one call are each what `table_view` gives
that viewer, and every spectator's view (one that sits nowhere at the table) is one and the same,
built once for them all."""

from __future__ import annotations

from testkit.drive import live_session
from testkit.helpers import cmd, errors, make_core


async def test_spectators_share_one_view_and_players_keep_their_own(memory_store):
    core = make_core(memory_store, seed="views")
    await core.handle(cmd("ayse", "/okey start 1 10"))
    await core.handle(cmd("mehmet", "/okey join"))
    assert not errors(await core.handle(cmd("ayse", "/okey begin")))
    table = str(live_session(core).table_id)
    users = ["ayse", "mehmet", "zed", None, "yan"]
    views = await core.table_views(table, "test", users, locale="tr")
    assert views is not None
    for user in users:
        assert views[user] == await core.table_view(table, "test", user or "nobody", "tr")
    assert views["zed"] is views[None] is views["yan"] and views["zed"].me is None
    assert views["ayse"].me == 0 and views["mehmet"].me == 1
    assert views["ayse"].mine and views["ayse"].mine != views["mehmet"].mine
