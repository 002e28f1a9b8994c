"""A private table on the web table: its page says "private", and once its opener turns
watching off a spectator is refused at sign-in and a watching page is closed, told why."""

from __future__ import annotations

from bot.core.i18n import t
from testkit.helpers import cmd, errors, make_core
from testkit.web import receive_until, serve_web


async def test_a_spectator_is_blocked_when_watching_is_off(memory_store):
    core = make_core(memory_store, invite_key="k" * 43)
    assert not errors(await core.handle(cmd("ayse", "/okey start private")))
    live = core.tables.in_channel("test", "c1")
    table = str(live.id)
    async with serve_web(core) as web:
        _ws, ayse = await web.viewer("ayse", table)
        assert ayse["view"]["private"] is True and ayse["view"]["watchers"] is True
        ws_z, zed = await web.viewer("zed", table)  # watching is on: a spectator sees it
        assert zed["view"]["me"] is None and zed["view"]["seats"]
        assert zed["view"]["private"] is True
        assert not errors(await core.handle(cmd("ayse", "/table watchers off")))
        closed = await receive_until(ws_z, "closed")
        assert closed["text"] == t("en", "err.private_no_watchers")
        response = await web.client.post("/api/auth/link", json={"token": web.link("zed", table)})
        assert response.status == 403
        assert (await response.json())["error"] == t("en", "err.private_no_watchers")
        # an invitee may watch
        assert not errors(await core.handle(cmd("ayse", "/table invite <@mehmet>")))
        _ws_m, mehmet = await web.viewer("mehmet", table)
        assert mehmet["view"]["me"] is None and not mehmet["view"]["hidden"]
