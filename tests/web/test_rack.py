"""An Okey player's rack on the web table: arranged by hand or by the solver, kept by the server
per player and round (a reload or another device finds it)."""

from __future__ import annotations

from collections import Counter

from bot.core.api import RACK_SLOTS
from testkit.helpers import cmd, make_core
from testkit.web import receive_until, serve_web


async def open_okey(core) -> str:
    await core.handle(cmd("ayse", "/okey start"))
    for user in ("mehmet", "cem", "deniz"):
        await core.handle(cmd(user, "/okey join"))
    await core.handle(cmd("ayse", "/okey begin"))
    return str(core.tables.in_channel("test", "c1").id)


async def test_an_arrangement_is_kept_across_a_reconnect(memory_store):
    core = make_core(memory_store)
    table = await open_okey(core)
    async with serve_web(core) as web:
        ws, first = await web.viewer("mehmet", table)
        rack = first["view"]["rack"]
        assert len(rack) == RACK_SLOTS
        tiles = [t for t in rack if t is not None]
        assert Counter(tiles) == Counter(first["view"]["mine"])
        wanted = [None] * RACK_SLOTS
        for i, tile in enumerate(reversed(tiles)):
            wanted[29 - i] = tile  # right-aligned in the second row, reversed
        await ws.send_json({"type": "arrange", "ref": 3, "tiles": wanted})
        assert await receive_until(ws, "ack") == {"type": "ack", "ref": 3}
        state = await receive_until(ws, "state")
        assert state["view"]["rack"] == wanted
        await ws.close()
        _ws2, again = await web.viewer("mehmet", table)  # a reload, or another device
        assert again["view"]["rack"] == wanted
        _zed, spectator = await web.viewer("zed", table)
        assert spectator["view"]["rack"] == [] and spectator["view"]["mine"] == []


async def test_tiles_not_held_are_refused_and_sorting_uses_the_solver(memory_store):
    core = make_core(memory_store)
    table = await open_okey(core)
    async with serve_web(core) as web:
        ws, first = await web.viewer("cem", table)
        held = set(first["view"]["mine"])
        foreign = next(f"{c}{n}" for c in "RYBK" for n in range(1, 14) if f"{c}{n}" not in held)
        await ws.send_json({"type": "arrange", "ref": 1, "tiles": [foreign]})
        refused = await receive_until(ws, "refused")
        assert refused["ref"] == 1 and refused["text"] == "You do not hold those tiles."
        for mode in ("runs", "pairs"):
            await ws.send_json({"type": "sort", "ref": 2, "by": mode})
            assert (await receive_until(ws, "ack"))["ref"] == 2
            state = await receive_until(ws, "state")
            rack = state["view"]["rack"]
            assert Counter(t for t in rack if t) == Counter(first["view"]["mine"])
        await ws.send_json({"type": "sort", "ref": 4, "by": "colours"})
        assert (await receive_until(ws, "refused"))["ref"] == 4
        zed, _ = await web.viewer("zed", table)
        await zed.send_json({"type": "sort", "ref": 5, "by": "runs"})
        assert (await receive_until(zed, "refused"))["text"] == "You are not sitting at this table."


async def test_an_okey_discard_from_the_page_moves_the_table(memory_store):
    core = make_core(memory_store)
    table = await open_okey(core)
    async with serve_web(core) as web:
        pages = {u: await web.viewer(u, table) for u in ("ayse", "mehmet", "cem", "deniz")}
        _user, (ws, first) = next((u, p) for u, p in pages.items() if p[1]["view"]["actions"])
        kinds = {a["kind"] for a in first["view"]["actions"]}
        assert "discard" in kinds  # the starter holds 15 tiles and discards first
        tile = first["view"]["mine"][0]
        await ws.send_json(
            {"type": "act", "ref": 9, "kind": "discard", "cards": [tile],
             "nonce": first["view"]["nonce"]}
        )  # fmt: skip
        assert await receive_until(ws, "ack") == {"type": "ack", "ref": 9}
        state = await receive_until(ws, "state")
        me = state["view"]["me"]
        assert state["view"]["seats"][me]["discards"][-1] == tile
        assert len(state["view"]["mine"]) == 14
        assert any(item.table_id == table for item in web.delivered)
