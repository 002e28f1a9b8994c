"""The page's tile style (`prefs` frames): the first state says the viewer's own `/tiles` choice,
a `prefs` frame keeps a new one with the player (as `/tiles` in the chat does), an unknown
choice is refused in the player's language and changes nothing."""

from __future__ import annotations

from bot.core.i18n import t
from testkit.helpers import cmd, make_core
from testkit.web import receive, receive_until, serve_web


async def open_okey(core) -> str:
    await core.handle(cmd("ayse", "/okey start"))
    await core.handle(cmd("mehmet", "/okey join"))
    await core.handle(cmd("ayse", "/okey begin"))
    return str(core.tables.in_channel("test", "c1").id)


async def test_the_choice_comes_with_the_first_state_and_is_kept(memory_store):
    core = make_core(memory_store)
    table = await open_okey(core)
    await core.handle(cmd("mehmet", "/tiles symbols"))
    async with serve_web(core) as web:
        ws, first = await web.viewer("ayse", table)
        assert first["prefs"] == {"tiles": "colours"}
        _other, theirs = await web.viewer("mehmet", table)
        assert theirs["prefs"] == {"tiles": "symbols"}  # each viewer their own

        await ws.send_json({"type": "prefs", "ref": 1, "tiles": "symbols"})
        assert await receive_until(ws, "ack") == {"type": "ack", "ref": 1}
        assert (await memory_store.find_player("test", "ayse")).tile_symbols is True
        assert await core.tile_symbols_of("test", "ayse") is True
        assert web.delivered == []  # the chat is not told about a page's setting
        _again, reload = await web.viewer("ayse", table)
        assert reload["prefs"] == {"tiles": "symbols"}
        # later states carry no prefs (only the first one)
        await ws.send_json({"type": "sort", "ref": 2, "by": "runs"})
        await receive_until(ws, "ack")
        assert "prefs" not in await receive_until(ws, "state")


async def test_an_unknown_choice_is_refused_in_the_player_s_language(memory_store):
    core = make_core(memory_store)
    table = await open_okey(core)
    async with serve_web(core) as web:
        for user, locale in (("ayse", "en"), ("mehmet", "tr")):
            ws, _ = await web.viewer(user, table, locale=locale)
            await ws.send_json({"type": "prefs", "ref": 7, "tiles": "purple"})
            refused = await receive_until(ws, "refused")
            assert refused == {"type": "refused", "ref": 7, "text": t(locale, "err.tiles_usage")}
            for bad in (None, 5, "", "x" * 40):
                await ws.send_json({"type": "prefs", "ref": 8, "tiles": bad})
                frame = await receive(ws)
                assert frame == {"type": "refused", "ref": 8, "text": t(locale, "err.web_frame")}
            player = await memory_store.find_player("test", user)
            assert player is not None and player.tile_symbols is False
