"""101 Okey over the socket: the state frame carries the melds, the threshold, the openings and
the player's 30-slot rack; the one-press opening, an opening with named melds (the `x` press)
and a +101 discard (warned in the ack, made with `discard!`) go through the press path (on a file SQLite store: the in-memory one shares one connection
between the press and the pages' reads)."""

from __future__ import annotations

from bot.core.okey101 import plays
from testkit.helpers import cmd, make_core
from testkit.web import receive_until, serve_web

# deals found once with tests/web's seeds: "web101-0" lets mehmet (the starter) open with the
# best melds (105) at the first turn; "web101-2" lets ayse open with 114
SEED_MEHMET, SEED_AYSE = "web101-0", "web101-2"


async def open_101(store, seed: str):
    """A 101 table of ayse and mehmet, the first round dealt: the core and the table id."""
    core = make_core(store, seed=seed)
    await core.handle(cmd("ayse", "/okey start 101 1 10"))
    await core.handle(cmd("mehmet", "/okey join"))
    await core.handle(cmd("ayse", "/okey begin"))
    return core, str(core.tables.in_channel("test", "c1").id)


def session_of(core):
    """The live 101 session of the test channel (read only)."""
    return core.tables.in_channel("test", "c1").session


async def test_a_101_state_carries_threshold_rack_and_the_one_press_opening(store):
    core, table = await open_101(store, SEED_MEHMET)
    async with serve_web(core) as web:
        ws, first = await web.viewer("mehmet", table)
        _ws_z, spectator = await web.viewer("zed", table)
        view = first["view"]
        assert view["game"] == "okey101" and view["threshold"] == 101
        assert view["melds"] == [] and view["nonce"]
        assert len(view["mine"]) == 22 and len(view["rack"]) == 30
        assert sorted(t for t in view["rack"] if t) == sorted(view["mine"])
        kinds = {a["kind"]: a for a in view["actions"]}
        assert kinds["open_best"]["min_amount"] == 105 and "discard" in kinds
        assert all(seat["opened"] is None for seat in view["seats"])
        assert spectator["view"]["mine"] == [] and spectator["view"]["rack"] == []
        assert spectator["view"]["actions"] == []

        await ws.send_json({"type": "act", "ref": 1, "kind": "open_best", "nonce": view["nonce"]})
        assert await receive_until(ws, "ack") == {"type": "ack", "ref": 1}
        seen = await receive_until(_ws_z, "state")
        me = view["me"]
        assert seen["view"]["melds"] and all(m["owner"] == me for m in seen["view"]["melds"])
        assert sum(m["value"] for m in seen["view"]["melds"]) == 105
        assert seen["view"]["seats"][me]["opened"] == "series"
        assert seen["view"]["seats"][me]["opening"] == 105
        assert seen["view"]["mine"] == [] and seen["view"]["rack"] == []
        assert len(seen["view"]["seats"][me]["down"] * "x") < 22
        assert any(item.kind.name == "EDIT_TABLE" for item in web.delivered)


async def test_a_warned_discard_then_an_opening_with_named_melds(store):
    core, table = await open_101(store, SEED_AYSE)
    session = session_of(core)
    game = session.game101
    index = game.to_act()
    assert game.okey in game.racks[index]  # ayse holds the okey: discarding it costs +101
    plan = plays.open_plan(game, index, plays.SERIES_OPEN)
    assert plan is not None
    cards = list(plan.action.cards)
    assert "/" in cards  # several melds, parted as the page parts them
    async with serve_web(core) as web:
        ws, first = await web.viewer("ayse", table)
        nonce = first["view"]["nonce"]
        await ws.send_json(
            {"type": "act", "ref": 1, "kind": "discard", "cards": [game.okey], "nonce": nonce}
        )
        assert await receive_until(ws, "ack") == {"type": "ack", "ref": 1, "warn": game.okey}
        # nothing was played nor committed: no new state, the turn's nonce still holds, and the
        # other players cannot tell that a warning was given
        assert session_of(core).nonce == nonce
        assert all(item.kind.name == "PRIVATE" for item in web.delivered)  # to her alone
        assert game.okey in session_of(core).game101.racks[index]
        await ws.send_json(
            {"type": "act", "ref": 2, "kind": "open", "cards": cards, "nonce": nonce}
        )
        assert await receive_until(ws, "ack") == {"type": "ack", "ref": 2}
        state = await receive_until(ws, "state")
        view = state["view"]
        assert view["seats"][view["me"]]["opened"] == "series"
        assert view["seats"][view["me"]]["opening"] == plan.value
        assert len(view["melds"]) == cards.count("/") + 1
        tile = next(t for t in view["rack"] if t)
        await ws.send_json(
            {"type": "act", "ref": 3, "kind": "discard!", "cards": [tile], "nonce": view["nonce"]}
        )
        assert await receive_until(ws, "ack") == {"type": "ack", "ref": 3}
        after = await receive_until(ws, "state")
        assert after["view"]["acting"] != view["me"]
        assert after["view"]["seats"][view["me"]]["discards"] == [tile]


async def test_bad_101_frames_are_refused(store):
    core, table = await open_101(store, SEED_AYSE)
    async with serve_web(core) as web:
        ws, first = await web.viewer("ayse", table)
        nonce = first["view"]["nonce"]
        for ref, fields in enumerate(
            (
                {"kind": "lay", "cards": ["R1", "//"]},
                {"kind": "add", "cards": ["R1"], "source": "elsewhere"},
                {"kind": "open_best", "cards": ["/"] * 41},
                {"kind": "discard", "cards": ["/"]},
            )
        ):
            await ws.send_json({"type": "act", "ref": ref, "nonce": nonce, **fields})
            refused = await receive_until(ws, "refused")
            assert refused["ref"] == ref and refused["text"]


async def test_arrange_runs_and_pairs_lay_out_a_101_rack_of_22(store):
    """The page's "Arrange runs" / "Arrange pairs" on a 101 rack (21-22 tiles, more than the
    classic solver takes): the melds the 101 solver finds, then the loose tiles, in the 30
    slots; the socket stays up."""
    from collections import Counter

    from games.okey101.solver import best_opening, pairs_of

    core, table = await open_101(store, SEED_MEHMET)
    async with serve_web(core) as web:
        ws, first = await web.viewer("mehmet", table)
        mine, okey = first["view"]["mine"], first["view"]["okey"]
        assert len(mine) == 22
        for ref, (by, melds) in enumerate(
            (("runs", best_opening(mine, okey).melds), ("pairs", pairs_of(mine, okey))), 1
        ):
            await ws.send_json({"type": "sort", "ref": ref, "by": by})
            assert await receive_until(ws, "ack") == {"type": "ack", "ref": ref}
            rack = (await receive_until(ws, "state"))["view"]["rack"]
            assert Counter(t for t in rack if t) == Counter(mine)
            laid = [t for t in rack if t]
            assert laid[: len(melds[0])] == melds[0], by
