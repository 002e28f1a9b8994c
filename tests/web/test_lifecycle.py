"""A table that closes tells its pages; Açık odds ride on the state; the server stops cleanly
with pages connected."""

from __future__ import annotations

import aiohttp

from bot.adapters.web.server import Front, WebTable
from bot.adapters.web.tokens import Identity, Signer
from testkit.helpers import cmd, make_core
from testkit.web import receive, receive_until, serve_web


async def test_a_closing_table_tells_its_pages_and_closes_them(memory_store):
    core = make_core(memory_store)
    await core.handle(cmd("ayse", "/poker open turkish 10"))
    await core.handle(cmd("ayse", "/poker join 200"))
    table = str(core.tables.in_channel("test", "c1").id)
    async with serve_web(core) as web:
        ws, _first = await web.viewer("zed", table)
        await core.handle(cmd("ayse", "/poker leave"))  # the last player out closes it
        closed = await receive_until(ws, "closed")
        assert closed["text"] == "That table is closed or does not exist."
        assert (await receive(ws))["type"] == "closed_socket"


async def test_acik_odds_come_per_seat_from_the_public_cards(memory_store):
    core = make_core(memory_store)
    await core.handle(cmd("ayse", "/poker open acik 10"))
    for user in ("ayse", "mehmet", "cem"):
        await core.handle(cmd(user, "/poker join 200"))
    await core.handle(cmd("ayse", "/poker start"))
    table = str(core.tables.in_channel("test", "c1").id)
    async with serve_web(core) as web:
        _ws, first = await web.viewer("zed", table)
    view = first["view"]
    assert len(view["odds"]) == len(view["seats"]) == 3
    assert all(isinstance(p, int) for p in view["odds"])
    assert all(len(seat["up"]) == 1 and seat["down"] == 1 for seat in view["seats"])


async def test_the_server_stops_with_pages_connected(memory_store):
    core = make_core(memory_store)
    await core.handle(cmd("ayse", "/okey start"))
    table = str(core.tables.in_channel("test", "c1").id)
    signer = Signer("a-secret-of-some-length")
    web = WebTable({"test": Front(core)}, signer)
    await web.start("127.0.0.1", 0)
    base = f"http://127.0.0.1:{web.port}"
    session = signer.session(Identity("test", "ayse", "Ayse", table, "en"))
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(f"{base}/ws", headers={"Origin": base})
        await ws.send_json({"type": "hello", "session": session})
        assert (await receive(ws))["type"] == "state"
        assert (await http.get(f"{base}/healthz")).status == 200
        await web.stop()
        assert (await receive(ws))["type"] == "closed_socket"
        assert web.hub.viewers() == 0
