"""The web table sends the core's typed moves: an `act` frame becomes a `Move` made through
`Core.act`, never a chat button's code (`Core.press` is never called from a page)."""

from __future__ import annotations

from typing import Any

from bot.core.moves import ConfirmDiscard, Plan
from games.base import Action
from testkit.helpers import cmd, make_core
from testkit.web import receive_until, serve_web


class NoChatCodes:
    """The real core, with every move a page makes recorded; a press (a chat code) fails."""

    def __init__(self, core: Any) -> None:
        self.core = core
        self.moves: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.core, name)

    async def act(self, table_id, who, nonce, move):
        self.moves.append((who.channel_id, move))
        return await self.core.act(table_id, who, nonce, move)

    async def press(self, press):
        raise AssertionError(f"the web built a chat code: {press.action!r}")


async def test_poker_moves_from_a_page_are_typed(memory_store):
    core = make_core(memory_store)
    await core.handle(cmd("ayse", "/poker open turkish 10"))
    await core.handle(cmd("ayse", "/poker join 200"))
    await core.handle(cmd("mehmet", "/poker join 200"))
    await core.handle(cmd("ayse", "/poker start"))
    table = str(core.tables.in_channel("test", "c1").id)
    spy = NoChatCodes(core)
    async with serve_web(spy) as web:
        ws_a, first_a = await web.viewer("ayse", table)
        ws_m, first_m = await web.viewer("mehmet", table)
        first, ws = (first_a, ws_a) if first_a["view"]["actions"] else (first_m, ws_m)
        kinds = [a["kind"] for a in first["view"]["actions"]]
        kind = next(k for k in ("pass", "check", "call", "fold") if k in kinds)
        nonce = first["view"]["nonce"]
        await ws.send_json({"type": "act", "ref": 1, "kind": kind, "nonce": nonce})
        assert await receive_until(ws, "ack") == {"type": "ack", "ref": 1}
        await ws.send_json({"type": "act", "ref": 2, "kind": "ts", "nonce": nonce})
        refused = await receive_until(ws, "refused")  # a chat code is no move of the page's
        assert refused["ref"] == 2
    assert spy.moves == [("web", Action(kind))]


async def test_101_moves_from_a_page_are_typed(store):
    core = make_core(store, seed="web101-2")
    await core.handle(cmd("ayse", "/okey start 101 1 10"))
    await core.handle(cmd("mehmet", "/okey join"))
    await core.handle(cmd("ayse", "/okey begin"))
    live = core.tables.in_channel("test", "c1")
    game = live.session.game101
    spy = NoChatCodes(core)
    async with serve_web(spy) as web:
        ws, first = await web.viewer("ayse", str(live.id))
        nonce = first["view"]["nonce"]
        frames = [
            {"kind": "discard", "cards": [game.okey]},
            {"kind": "open_best"},
        ]
        for ref, fields in enumerate(frames):
            await ws.send_json({"type": "act", "ref": ref, "nonce": nonce, **fields})
            await receive_until(ws, "ack")
        state = await receive_until(ws, "state")
        tile = next(t for t in state["view"]["rack"] if t)
        confirm = {"kind": "discard", "cards": [tile], "confirm": True}
        await ws.send_json({"type": "act", "ref": 9, "nonce": state["view"]["nonce"], **confirm})
        assert await receive_until(ws, "ack") == {"type": "ack", "ref": 9}
    assert [move for _, move in spy.moves] == [
        Action("discard", cards=(game.okey,)),
        Plan("open_best"),
        ConfirmDiscard(tile),
    ]
