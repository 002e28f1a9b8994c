""" "Play again" on the web page of a poker table every person left: the `closed` frame carries
the offer only to its players (counts and the button's words, nothing of anyone's cards); a
press (`POST /api/rematch` with the page's session) seats that player at the new table and
gives their page a session there, for them only; refusals come back in the page's language."""

from __future__ import annotations

from typing import Any

from bot.adapters.web.tokens import Identity
from bot.core.i18n import t
from bot.core.messages import Sender
from testkit.helpers import Clock, cmd, make_core
from testkit.web import Harness, receive, receive_until, serve_web

LOCALES = {"ayse": "en", "mehmet": "tr", "cem": "en"}


async def poker_table(core: Any) -> str:
    """A Türk pokeri table of ayse and mehmet with a hand under way: its id."""
    for user in LOCALES:
        await core.accounts.who(Sender("test", "c1", user, user.capitalize(), "en"))
    await core.handle(cmd("ayse", "/poker open turkish 10"))
    for user in ("ayse", "mehmet"):
        await core.handle(cmd(user, "/poker join 200"))
    await core.handle(cmd("ayse", "/poker start"))
    return str(core.tables.in_channel("test", "c1").id)


async def everyone_leaves(core: Any) -> None:
    for user in ("ayse", "mehmet"):
        await core.handle(cmd(user, "/poker leave", locale=LOCALES[user]))
    assert core.tables.in_channel("test", "c1") is None


def signed(web: Harness, user: str, table: str, locale: str = "en") -> str:
    """A session for `user` at `table` signed now (a page that got it before the table closed)."""
    return web.web.signer.session(Identity("test", user, user.capitalize(), table, locale))


async def press(web: Harness, session: str) -> tuple[int, dict[str, Any]]:
    response = await web.client.post("/api/rematch", json={"session": session})
    return response.status, await response.json()


async def test_the_closed_frame_offers_play_again_to_its_players_only(memory_store):
    core = make_core(memory_store, clock=Clock())
    table = await poker_table(core)
    async with serve_web(core) as web:
        pages = {
            user: (await web.viewer(user, table, locale))[0] for user, locale in LOCALES.items()
        }
        await everyone_leaves(core)
        frames = {user: await receive_until(ws, "closed") for user, ws in pages.items()}
        assert frames["ayse"]["rematch"] == {
            "pressed": 0,
            "total": 2,
            "done": False,
            "label": t("en", "web.rematch.play", pressed=0, total=2),
        }
        assert frames["mehmet"]["rematch"]["label"] == t(
            "tr", "web.rematch.play", pressed=0, total=2
        )
        assert frames["mehmet"]["text"] == t("tr", "err.no_such_table")
        assert "rematch" not in frames["cem"]  # a spectator is offered nothing
        for ws in pages.values():
            assert (await receive(ws))["type"] == "closed_socket"

        # a reload: the player's hello is answered with the offer; anyone else's with the error
        ws = await web.connect()
        await ws.send_json({"type": "hello", "session": await web.session("ayse", table)})
        again = await receive(ws)
        assert again["type"] == "closed" and again["rematch"]["total"] == 2
        response = await web.client.post("/api/auth/link", json={"token": web.link("cem", table)})
        assert response.status == 401
        ws = await web.connect()
        await ws.send_json({"type": "hello", "session": signed(web, "cem", table)})
        assert await receive(ws) == {"type": "error", "text": t("en", "err.no_such_table")}


async def test_play_again_moves_each_page_to_the_new_table(memory_store):
    core = make_core(memory_store, clock=Clock())
    table = await poker_table(core)
    async with serve_web(core) as web:
        sessions = {u: await web.session(u, table, LOCALES[u]) for u in LOCALES}
        await everyone_leaves(core)

        status, body = await press(web, sessions["ayse"])
        assert status == 200, body
        new = body["table"]
        assert new != table and new == str(core.tables.in_channel("test", "c1").id)
        assert body["locale"] == "en"
        who = web.web.signer.read_session(body["session"], web.clock[0])
        assert who is not None and (who.user_id, who.table_id) == ("ayse", new)
        ws = await web.connect()
        await ws.send_json({"type": "hello", "session": body["session"]})
        first = await receive(ws)
        assert first["type"] == "state" and first["view"]["me"] is not None
        assert first["view"]["rematch"]["pressed"] == 1

        # refusals, in the page's language, change nothing
        assert await press(web, sessions["ayse"]) == (
            409,
            {"error": t("en", "err.rematch_pressed")},
        )
        assert await press(web, sessions["cem"]) == (
            409,
            {"error": t("en", "err.rematch_not_player")},
        )
        forged = sessions["mehmet"][:-4] + "AAAA"
        assert (await press(web, forged))[0] == 401
        assert (await press(web, body["session"].replace(".", "", 1)))[0] == 401
        seats = [s.user_id for s in core.tables.in_channel("test", "c1").session.seats]
        assert "cem" not in seats and "mehmet" not in seats

        # the second player's press starts the rematch; their page goes to the same table
        status, other = await press(web, sessions["mehmet"])
        assert status == 200, other
        assert other["table"] == new and other["locale"] == "tr"
        mine = web.web.signer.read_session(other["session"], web.clock[0])
        assert mine is not None and mine.user_id == "mehmet"
        session = core.tables.in_channel("test", "c1").session
        assert session.rematch is None and {s.user_id for s in session.seats if not s.bot} == {
            "ayse",
            "mehmet",
        }
        # once it started, a press on the closed table is over
        assert await press(web, sessions["ayse"]) == (409, {"error": t("en", "err.rematch_over")})


async def test_an_expired_offer_is_refused_on_the_page(memory_store):
    clock = Clock()
    core = make_core(memory_store, clock=clock)
    table = await poker_table(core)
    async with serve_web(core) as web:
        session = await web.session("mehmet", table, "tr")
        await everyone_leaves(core)
        clock.advance(core.config.rematch_seconds + 1)
        assert await press(web, session) == (409, {"error": t("tr", "err.rematch_expired")})
        assert core.tables.in_channel("test", "c1") is None
        ws = await web.connect()  # and a reload is told the table is closed, no offer
        await ws.send_json({"type": "hello", "session": session})
        assert await receive(ws) == {"type": "error", "text": t("tr", "err.no_such_table")}
