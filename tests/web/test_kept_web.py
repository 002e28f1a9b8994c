"""A kept seat on the web page (docs/web.md, "A kept seat"): every viewer's frame marks the seat
`kept`; the away player's own page still holds their cards, and its `back` move takes the seat
back; the same move from anyone else is refused in their language and changes nothing."""

from __future__ import annotations

from testkit.drive import live_session
from testkit.helpers import Clock, cmd, make_core
from testkit.web import open_poker, receive_until, serve_web

TURN = 30


async def kept_table(core, clock: Clock) -> str:
    """Ayşe and Mehmet at Türk pokeri; Ayşe plays, Mehmet times out until he is away."""
    await open_poker(core)
    for _ in range(30):
        session = live_session(core)
        mehmet = next(s for s in session.seats if s.user_id == "mehmet")
        if mehmet.away:
            break
        actor = session.seats[session.actor()]
        if actor.user_id == "mehmet":
            await core.tick(clock.advance(TURN + 1))
            continue
        kinds = {b.action for b in session.buttons()}
        word = next(k for k in ("check", "pass", "pat", "call", "fold") if k in kinds)
        await core.handle(cmd("ayse", f"/poker {word}"))
    return str(live_session(core).table_id)


async def test_a_kept_seat_on_the_page_and_its_back_move(memory_store):
    clock = Clock()
    core = make_core(memory_store, clock=clock, turn_seconds=TURN, afk_limit=2)
    table = await kept_table(core, clock)
    async with serve_web(core) as web:
        ws_m, first_m = await web.viewer("mehmet", table)
        ws_a, first_a = await web.viewer("ayse", table, locale="tr")
        ws_z, first_z = await web.viewer("zed", table)
        for first in (first_m, first_a, first_z):
            seat = next(s for s in first["view"]["seats"] if s["user_id"] == "mehmet")
            assert seat["kept"] and seat["away"]
        assert first_m["view"]["mine"]  # his own cards, as normal
        assert not first_z["view"]["mine"]
        assert "web.kept" in first_m["texts"] and "web.back" in first_m["texts"]
        refusals = ((ws_a, 1, "Zaten masadasın"), (ws_z, 2, "not sitting at this table"))
        for ws, ref, reason in refusals:  # not their seat to take back; nothing changes
            await ws.send_json({"type": "act", "ref": ref, "kind": "back", "nonce": "x"})
            refused = await receive_until(ws, "refused")
            assert refused["ref"] == ref and reason in refused["text"], refused
        assert next(s for s in live_session(core).seats if s.user_id == "mehmet").away
        await ws_m.send_json({"type": "act", "ref": 3, "kind": "back", "nonce": "old"})
        assert await receive_until(ws_m, "ack") == {"type": "ack", "ref": 3}
        state = await receive_until(ws_m, "state")
        seat = next(s for s in state["view"]["seats"] if s["user_id"] == "mehmet")
        assert not seat["kept"] and not seat["away"]
        await ws_m.send_json({"type": "act", "ref": 4, "kind": "back", "nonce": "old"})
        assert (await receive_until(ws_m, "refused"))["ref"] == 4
