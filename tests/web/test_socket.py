"""The web table's socket: a session, the state on connect, moves through the press path, the
chat adapter getting the same edits, refusals in the viewer's language, limits."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from bot.core.messages import OutKind
from testkit.helpers import make_core
from testkit.web import open_poker, receive, receive_until, serve_web


async def test_a_player_gets_their_state_and_a_spectator_the_public_one(memory_store):
    core = make_core(memory_store)
    table = await open_poker(core)
    async with serve_web(core) as web:
        _ws, ayse = await web.viewer("ayse", table)
        _ws2, zed = await web.viewer("zed", table)
    view = ayse["view"]
    assert view["me"] is not None and len(view["mine"]) == 5
    assert view["nonce"] and view["me_name"] == "Ayse"
    assert "texts" in ayse
    assert zed["view"]["me"] is None and zed["view"]["mine"] == []
    for seat in zed["view"]["seats"]:
        assert seat["up"] == []  # Türk pokeri: nothing face up before a showdown


async def test_a_move_on_the_page_moves_the_table_and_the_chat_gets_the_edit(memory_store):
    core = make_core(memory_store)
    table = await open_poker(core)
    async with serve_web(core) as web:
        ws_a, first = await web.viewer("ayse", table)
        ws_m, first_m = await web.viewer("mehmet", table)
        view = first if first["view"]["actions"] else first_m
        ws = ws_a if view is first else ws_m
        other = ws_m if ws is ws_a else ws_a
        kinds = [a["kind"] for a in view["view"]["actions"]]
        kind = "check" if "check" in kinds else ("pass" if "pass" in kinds else "fold")
        await ws.send_json({"type": "act", "ref": 1, "kind": kind, "nonce": view["view"]["nonce"]})
        assert await receive_until(ws, "ack") == {"type": "ack", "ref": 1}
        state = await receive_until(other, "state")
        assert state["view"]["nonce"] != view["view"]["nonce"]
        assert any(item.kind is OutKind.EDIT_TABLE for item in web.delivered)
        # the same move again carries a stale nonce: refused, in the viewer's language
        await ws.send_json({"type": "act", "ref": 2, "kind": kind, "nonce": view["view"]["nonce"]})
        refused = await receive_until(ws, "refused")
        assert refused["ref"] == 2 and refused["text"]


async def test_a_stale_move_is_refused_in_turkish_and_english(memory_store):
    core = make_core(memory_store)
    table = await open_poker(core)
    texts = {}
    async with serve_web(core) as web:
        for locale in ("tr", "en"):
            ws, _first = await web.viewer("ayse", table, locale=locale)
            await ws.send_json({"type": "act", "ref": 7, "kind": "fold", "nonce": "000000"})
            refused = await receive_until(ws, "refused")
            texts[locale] = refused["text"]
    assert texts["tr"] != texts["en"]
    from bot.core.i18n import t

    assert texts["en"] == t("en", "err.stale_button")
    assert texts["tr"] == t("tr", "err.stale_button")


async def test_bad_session_wrong_origin_flood_and_oversize(memory_store):
    core = make_core(memory_store)
    table = await open_poker(core)
    async with serve_web(core) as web:
        response = await web.client.get("/ws", headers={"Origin": "https://evil.example"})
        assert response.status == 403
        ws = await web.connect()
        await ws.send_json({"type": "hello", "session": "forged"})
        assert (await receive(ws))["type"] == "error"
        assert (await receive(ws))["type"] == "closed_socket"
        ws, _ = await web.viewer("ayse", table)
        await ws.send_str('{"type": "ping", "pad": "' + "x" * 5000 + '"}')
        assert (await receive(ws))["type"] == "error"
        ws, _ = await web.viewer("ayse", table)
        for _ in range(40):
            await ws.send_json({"type": "ping"})
        refused = await receive_until(ws, "refused")  # the budget: 20 at once (hello included)
        assert refused["text"] == "Too many messages; slow down."
        for _ in range(60):  # on and on: the socket is closed
            await ws.send_json({"type": "ping"})
        error = await receive_until(ws, "error")
        assert error["text"] == "Too many messages; slow down."
        assert (await receive(ws))["type"] == "closed_socket"


async def test_the_viewer_cap_refuses_spectators_beyond_it(memory_store):
    from bot.adapters.web.server import WebConfig

    core = make_core(memory_store)
    table = await open_poker(core)
    async with serve_web(core, config=WebConfig(max_viewers=2, default_locale="en")) as web:
        await web.viewer("zed", table)
        await web.viewer("ayse", table)
        ws = await web.connect()
        await ws.send_json({"type": "hello", "session": await web.session("yuri", table)})
        assert (await receive(ws))["type"] == "error"
        await web.viewer("mehmet", table)  # a seated player always gets in


async def test_link_tokens_good_expired_forged_and_for_no_such_table(memory_store):
    core = make_core(memory_store)
    table = await open_poker(core)
    async with serve_web(core) as web:
        good = await web.client.post("/api/auth/link", json={"token": web.link("ayse", table)})
        assert good.status == 200
        body = await good.json()
        assert body["table"] == table and body["locale"] == "en"
        forged = web.link("ayse", table)[:-3] + "AAA"
        bad = await web.client.post("/api/auth/link", json={"token": forged})
        assert bad.status == 401 and (await bad.json())["error"]
        other = await web.client.post("/api/auth/link", json={"token": web.link("ayse", "999")})
        assert other.status == 401
        elsewhere = web.link("ayse", table, platform="discord")
        assert (await web.client.post("/api/auth/link", json={"token": elsewhere})).status == 401
        old = web.link("ayse", table)
        web.clock[0] += 2 * 24 * 3600
        expired = await web.client.post("/api/auth/link", json={"token": old})
        assert expired.status == 401
    await asyncio.sleep(0)


async def test_every_state_carries_the_servers_clock(memory_store):
    """`view.now`: the web server's clock when the frame was built (ISO 8601 Z), on connect
    and in a broadcast after a move, so that a page counts down on it; `last` is null before
    a hand ended."""
    core = make_core(memory_store)
    table = await open_poker(core)
    async with serve_web(core) as web:
        start = web.clock[0]
        ws_a, first = await web.viewer("ayse", table)
        ws_m, first_m = await web.viewer("mehmet", table)
        assert first["view"]["now"].endswith("Z")
        assert read(first["view"]["now"]) == datetime.fromtimestamp(start, UTC)
        assert first["view"]["last"] is None
        web.clock[0] += 7.5
        view = first if first["view"]["actions"] else first_m
        ws, other = (ws_a, ws_m) if view is first else (ws_m, ws_a)
        kinds = [a["kind"] for a in view["view"]["actions"]]
        kind = "check" if "check" in kinds else ("pass" if "pass" in kinds else "fold")
        await ws.send_json({"type": "act", "ref": 1, "kind": kind, "nonce": view["view"]["nonce"]})
        state = await receive_until(other, "state")
        assert read(state["view"]["now"]) == datetime.fromtimestamp(start + 7.5, UTC)


def read(text: str) -> datetime:
    """An ISO 8601 time with `Z` as a datetime."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


async def test_one_user_keeps_a_few_pages_the_oldest_is_closed_saying_why(memory_store):
    """A player's link opened over and over (or by a script) neither fills the table's viewer
    cap nor multiplies its broadcasts: past `MAX_PAGES_PER_USER` pages of one user at a table,
    the oldest is told why and closed; the newest works."""
    from bot.adapters.web.server import MAX_PAGES_PER_USER, WebConfig
    from bot.core.i18n import t

    core = make_core(memory_store)
    table = await open_poker(core)
    config = WebConfig(max_viewers=2 * MAX_PAGES_PER_USER + 1, default_locale="en")
    async with serve_web(core, config=config) as web:
        pages = [(await web.viewer("ayse", table))[0] for _ in range(MAX_PAGES_PER_USER)]
        newest, _ = await web.viewer("ayse", table)
        error = await receive_until(pages[0], "error")
        assert error["text"] == t("en", "err.web_pages")
        assert (await receive(pages[0]))["type"] == "closed_socket"
        assert web.web.hub.count("test", table) == MAX_PAGES_PER_USER
        await newest.send_json({"type": "ping"})
        assert (await receive(newest))["type"] == "pong"
        for page in pages[1:]:
            await page.send_json({"type": "ping"})
            assert (await receive(page))["type"] == "pong"
        # the same for a spectator's link: the cap of viewers still has room for others
        for _ in range(MAX_PAGES_PER_USER + 1):
            await web.viewer("zed", table)
        await web.viewer("yuri", table)


async def test_a_socket_that_never_says_hello_is_closed_saying_why(memory_store):
    """Opening a socket needs no session: one that sends nothing (or only pings) past the
    hello time is told why and closed, so idle sockets cannot pile up."""
    from bot.adapters.web.server import WebConfig
    from bot.core.i18n import t

    core = make_core(memory_store)
    table = await open_poker(core)
    config = WebConfig(default_locale="en", hello_seconds=0.0)
    async with serve_web(core, config=config) as web:
        ws = await web.connect()
        await ws.send_json({"type": "ping"})
        error = await receive_until(ws, "error")
        assert error["text"] == t("en", "err.web_hello")
        assert (await receive(ws))["type"] == "closed_socket"
    async with serve_web(core) as web:  # in time, the page goes on as ever
        ws, _first = await web.viewer("ayse", table)
        await ws.send_json({"type": "ping"})
        assert (await receive(ws))["type"] == "pong"


async def test_a_bug_behind_a_frame_is_answered_and_the_socket_stays(memory_store, caplog):
    """Whatever fails behind a frame (a bug in a rack's solver, say), the page is told in its
    language that nothing changed, the socket stays up and the bug is logged."""
    from bot.core.app import Core
    from bot.core.i18n import t

    class _Broken(Core):
        async def sort_rack(self, *args: object) -> str | None:
            raise ValueError("a bug")

    core = make_core(memory_store)
    core.__class__ = _Broken
    table = await open_poker(core)
    async with serve_web(core) as web:
        ws, _first = await web.viewer("ayse", table)
        await ws.send_json({"type": "sort", "ref": 3, "by": "runs"})
        refused = await receive_until(ws, "refused")
        assert refused == {"type": "refused", "ref": 3, "text": t("en", "err.internal")}
        await ws.send_json({"type": "ping"})
        assert (await receive(ws))["type"] == "pong"
    assert any("web_frame_failed" in r.getMessage() for r in caplog.records)
