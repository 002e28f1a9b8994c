"""Tournament tables on the web page (issue #37 item 6): a poker sit-and-go's table and an Okey
knockout's match table served like any table, to a seated player (their own cards or rack, the
moves through the same `act` path) and a spectator (the public table), each with what the table
shows of its tournament (`view.tournament`: the ante level and the next one, the round, the
standing); a spectator's move, a forged link or one naming the tournament itself refused; and
`/table web` in the tournament's channel giving a spectator the link to one of its tables."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.adapters.web.server import table_of_start
from bot.adapters.web.tokens import Identity, Signer
from bot.core.i18n import t
from bot.core.messages import OutKind
from testkit.helpers import Clock, cmd, errors, make_core
from testkit.web import PLATFORM, receive_until, serve_web
from tests.tournament.test_tournament_core import register

FEE = 100


async def sit_and_go(core, entrants: int = 3) -> str:
    """A Türk pokeri sit-and-go of p0.. (60 chips, 1-minute levels), started; its table's id."""
    await register(core, entrants, f"/tournament poker turkish {FEE} 60 1")
    assert not errors(await core.handle(cmd("org", "/tournament start")))
    [table] = [live for live in core.tables.tables.values() if live.session.running()]
    return str(table.id)


async def knockout(core, entrants: int = 4, variant: str = "") -> list[str]:
    """An Okey knockout of p0.. (1-round matches; `variant` "101": of 101 Okey), started; its
    tables' ids."""
    await register(core, entrants, f"/tournament okey {variant} {FEE} 1".replace("  ", " "))
    assert not errors(await core.handle(cmd("org", "/tournament start")))
    return sorted(str(live.id) for live in core.tables.tables.values())


def iso(moment: datetime) -> str:
    """A time as the frames carry it (ISO 8601 UTC with `Z`)."""
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


async def test_a_sit_and_go_table_for_a_player_and_a_spectator(memory_store):
    core = make_core(memory_store, clock=Clock())
    table = await sit_and_go(core)
    async with serve_web(core) as web:
        _ws, p0 = await web.viewer("p0", table)
        _ws, zed = await web.viewer("zed", table)
    mine, watching = p0["view"], zed["view"]
    assert mine["me"] is not None and len(mine["mine"]) == 5
    assert watching["me"] is None and watching["mine"] == []
    assert all(seat["up"] == [] for seat in watching["seats"])  # no card before a showdown
    info = mine["tournament"]
    assert info == watching["tournament"]  # the tournament's box is public: the same to all
    assert (info["id"], info["kind"], info["table"], info["rounds"]) == (1, "sng", None, None)
    assert (info["level"], info["chips"], info["entrants"]) == (1, 60, 3)
    assert info["ante"] == info["next_ante"] == 1  # 60 chips: antes 1, 1, 2, 2, 4, ...
    started = core.tables.get(table).session.started
    assert info["next_level"] == iso(started + timedelta(minutes=1))
    assert sorted(s["name"] for s in info["standing"]) == ["P0", "P1", "P2"]
    assert all(s["value"] == 60 and s["place"] is None for s in info["standing"])
    assert sorted(s["seat"] for s in info["standing"]) == [0, 1, 2]


async def pages(web, table: str, users: list[str]) -> dict[str, tuple]:
    """Each user's socket and first state at `table`."""
    return {user: await web.viewer(user, table) for user in users}


async def test_a_player_moves_at_a_sit_and_go_from_the_page_a_spectator_cannot(memory_store):
    core = make_core(memory_store, clock=Clock())
    table = await sit_and_go(core)
    async with serve_web(core) as web:
        opened = await pages(web, table, ["p0", "p1", "p2", "zed"])
        [(user, (ws, first))] = [
            (u, page) for u, page in opened.items() if page[1]["view"]["actions"]
        ]
        view = first["view"]
        kinds = [a["kind"] for a in view["actions"]]
        kind = next(k for k in ("check", "pass", "fold") if k in kinds)
        await ws.send_json({"type": "act", "ref": 1, "kind": kind, "nonce": view["nonce"]})
        assert await receive_until(ws, "ack") == {"type": "ack", "ref": 1}
        ws_z, _ = opened["zed"]
        state = await receive_until(ws_z, "state")  # the spectator sees the move
        assert state["view"]["nonce"] != view["nonce"] and state["view"]["tournament"]
        assert any(o.kind is OutKind.EDIT_TABLE and o.table_id == table for o in web.delivered)
        # a spectator's move, even with the turn's own nonce, is refused and changes nothing
        version = core.tables.get(table).version
        nonce = state["view"]["nonce"]
        await ws_z.send_json({"type": "act", "ref": 2, "kind": "fold", "nonce": nonce})
        refused = await receive_until(ws_z, "refused")
        assert refused == {"type": "refused", "ref": 2, "text": t("en", "err.not_in_hand")}
        assert core.tables.get(table).version == version
        assert user != "zed"


@pytest.mark.parametrize(("variant", "tiles"), [("", (14, 15)), ("101", (21, 22))])
async def test_an_okey_knockout_table_for_a_player_and_a_spectator(memory_store, variant, tiles):
    core = make_core(memory_store, clock=Clock())
    [table] = await knockout(core, variant=variant)
    async with serve_web(core) as web:
        opened = await pages(web, table, ["p0", "p1", "p2", "p3", "zed"])
        ws_z, zed = opened["zed"]
        watching = zed["view"]
        assert watching["me"] is None and watching["mine"] == [] and watching["rack"] == []
        info = watching["tournament"]
        assert (info["id"], info["kind"], info["table"]) == (1, "knockout", 1)
        assert (info["round"], info["rounds"], info["entrants"]) == (1, 1, 4)
        assert [s["value"] for s in info["standing"]] == [0, 0, 0, 0]
        assert sum(s["advancing"] for s in info["standing"]) == 2  # the better half goes on
        assert info["level"] is None and info["next_level"] is None
        for user in ("p0", "p1", "p2", "p3"):
            view = opened[user][1]["view"]
            assert view["tournament"] == info
            assert view["me"] is not None and len(view["mine"]) in tiles
            assert view["game"] == ("okey101" if variant else "okey")
        [(ws, first)] = [page for page in opened.values() if page[1]["view"]["actions"]]
        view = first["view"]
        tile = next(code for code in view["mine"] if code != view["okey"])  # (101: no +101)
        act = {"type": "act", "ref": 1, "kind": "discard", "cards": [tile], "nonce": view["nonce"]}
        await ws.send_json(act)
        assert await receive_until(ws, "ack") == {"type": "ack", "ref": 1}
        state = await receive_until(ws_z, "state")
        assert state["view"]["nonce"] != view["nonce"]
        # a spectator has no rack to arrange or sort, and no move
        not_seated = t("en", "err.not_seated")
        await ws_z.send_json({"type": "arrange", "ref": 2, "tiles": [tile]})
        assert (await receive_until(ws_z, "refused"))["text"] == not_seated
        await ws_z.send_json({"type": "sort", "ref": 3, "by": "runs"})
        assert (await receive_until(ws_z, "refused"))["text"] == not_seated
        nonce = state["view"]["nonce"]
        take = {"type": "act", "ref": 4, "kind": "take", "source": "stock", "nonce": nonce}
        await ws_z.send_json(take)
        assert (await receive_until(ws_z, "refused"))["text"] == t("en", "err.not_in_hand")


async def test_forged_links_and_links_naming_the_tournament_are_refused(memory_store):
    core = make_core(memory_store, clock=Clock())
    table = await sit_and_go(core)
    async with serve_web(core) as web:
        forged = Signer("another-secret-0123456789").link(
            Identity(PLATFORM, "p0", "P0", table, "en")
        )
        for token in (
            forged,
            web.link("p0", "t1"),  # the tournament's own id: no table
            web.link("p0", table, platform="discord"),  # the table is another platform's
        ):
            response = await web.client.post("/api/auth/link", json={"token": token})
            assert response.status == 401
            assert (await response.json())["error"]
        ws = await web.connect()
        await ws.send_json({"type": "hello", "session": forged})
        assert (await receive_until(ws, "error"))["text"] == t("en", "err.web_session")
    assert table_of_start(f"t{table}") == table
    assert table_of_start("tt1") is None  # a Mini App start parameter naming the tournament


def web_link(platform: str, user: str, name: str, table: str, locale: str) -> str:
    """A made-up link maker for `/table web` (the real one signs a token)."""
    return f"http://127.0.0.1/t/{table}-{user}"


async def test_table_web_in_the_tournaments_channel_links_one_of_its_tables(memory_store):
    core = make_core(memory_store, clock=Clock(), web_link=web_link)
    tables = await knockout(core, 8)
    assert len(tables) == 2
    [which] = await core.handle(cmd("zed", "/table web"))  # a spectator must name one
    assert which.kind is OutKind.ERROR
    assert which.text == t("en", "err.web_which", tables=", ".join(tables))
    for table in tables:
        [link] = await core.handle(cmd("zed", f"/table web {table}"))
        assert link.kind is OutKind.PRIVATE and link.user_id == "zed"
        assert link.web_url == f"http://127.0.0.1/t/{table}-zed" and link.table_id == table
    [gone] = await core.handle(cmd("zed", "/table web 999"))
    assert gone.kind is OutKind.ERROR and gone.text == t("en", "err.no_such_table")
    for user in ("p0", "p5"):  # a player gets their own table's link without naming it
        [link] = await core.handle(cmd(user, "/table web"))
        assert link.kind is OutKind.PRIVATE and link.table_id in tables
        player = await memory_store.find_player("test", user)
        assert core.tables.get(link.table_id).session.find(player.id) is not None
    [none] = await core.handle(cmd("zed", "/table web", channel="c2"))
    assert none.kind is OutKind.ERROR and none.text == t("en", "err.no_table")


async def test_the_tournaments_message_names_its_tables_playing(memory_store):
    core = make_core(memory_store, clock=Clock())
    tables = await knockout(core, 8)
    out = await core.handle(cmd("zed", "/tournament standings"))
    [living] = [o for o in out if o.kind is OutKind.EDIT_TABLE and o.table_id == "t1"]
    assert sorted(link.table_id for link in living.tables) == tables
    assert sorted(link.number for link in living.tables) == [1, 2]
