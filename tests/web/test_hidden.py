"""Hidden information holds over the socket: two tables that differ only in cards or tiles
hidden from a viewer (hidden twins, `testkit.hidden`) give that viewer, a seated player or a
spectator, the very same `state` frame. Türk pokeri, Açık poker, Okey and 101 Okey, and the
tables of a tournament (a Türk pokeri sit-and-go, an Okey knockout's match)."""

from __future__ import annotations

import json

import pytest
from hypothesis import event

from testkit.hidden import Bases, ViewerTwins, check_viewer_twins, run_examples
from testkit.web import serve_web
from tests.core.okey101.test_hidden_core101 import prelude as okey101_prelude
from tests.core.test_contract_hidden import MOVES, SEEDS, twins_after_fold_out
from tests.core.test_contract_hidden import prelude as classic_prelude


def prelude(game: str, seed: int) -> list[str]:
    """Open a table, seat the players, deal (101 Okey: two or three players, one round)."""
    return (okey101_prelude if game == "okey101" else classic_prelude)(game, seed)


BASES = Bases("web", prelude, MOVES, SEEDS)


async def payload(core, table: str, viewer: str) -> str:
    """The first frame a page of `viewer` receives, as sent (text), but for the server's clock
    (`view.now`: when the frame was built, the same for any cards)."""
    async with serve_web(core) as web:
        ws = await web.connect()
        await ws.send_json({"type": "hello", "session": await web.session(viewer, table)})
        message = await ws.receive(timeout=5)
        await ws.close()
        data = json.loads(str(message.data))
        assert data["view"]["now"].endswith("Z")
        del data["view"]["now"]
        return json.dumps(data, ensure_ascii=False)


async def same_payload(twins: ViewerTwins) -> None:
    """The viewer's page gets the same first frame from both twins."""
    frame_a = await payload(twins.a, twins.table, twins.viewer)
    frame_b = await payload(twins.b, twins.table, twins.viewer)
    assert frame_a == frame_b
    event("seated" if twins.seated else "spectator")


@pytest.mark.parametrize("game", ["turkish", "acik", "okey", "okey101"])
def test_a_socket_payload_never_depends_on_cards_hidden_from_its_viewer(game, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"web-{game}")

    async def check(data) -> None:
        await check_viewer_twins(tmp, await BASES.draw(tmp, game, data), data, same_payload)

    run_examples(12, check)


async def same_last_frame(core_a, core_b, table: str, viewer: str, showdown: bool, folded) -> None:
    """After the hand ended, the viewer's frames hold the same `last` in both twins unless it
    ended at a showdown; a folded hand's cards are never in it."""
    frame_a = json.loads(await payload(core_a, table, viewer))
    frame_b = json.loads(await payload(core_b, table, viewer))
    last_a, last_b = frame_a["view"]["last"], frame_b["view"]["last"]
    assert last_a is not None and last_b is not None
    for last in (last_a, last_b):
        assert all(p["shown"] == [] for p in last["players"] if p["user_id"] in folded)
    if not showdown:
        assert last_a == last_b


@pytest.mark.parametrize("game", ["turkish", "acik"])
def test_the_previous_hand_over_the_socket_never_depends_on_hidden_cards(game, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"web-last-{game}")

    async def check(data) -> None:
        await twins_after_fold_out(tmp, game, data, same_last_frame)

    run_examples(8, check)


def tournament_prelude(kind: str, seed: int) -> list[str]:
    """A tournament opened in c1, its entrants registered and play started: a Türk pokeri
    sit-and-go of three, or an Okey knockout's one table of four (a shared room of c1)."""
    line, count = (
        ("/tournament poker turkish 100 60 1", 3)
        if kind == "sng"
        else ("/tournament okey 100 1", 4)
    )
    joins = [f"p{i}: /tournament join" for i in range(count)]
    return [f"org: {line}", *joins, "org: /tournament start"]


TOURNAMENT_BASES = Bases("web-tournament", tournament_prelude, MOVES, SEEDS)


async def same_tournament_payload(twins: ViewerTwins) -> None:
    """As `same_payload`, at a tournament's table: the frame carries the tournament's box."""
    frame_a = await payload(twins.a, twins.table, twins.viewer)
    frame_b = await payload(twins.b, twins.table, twins.viewer)
    assert frame_a == frame_b
    assert json.loads(frame_a)["view"]["tournament"]["standing"]
    event("seated" if twins.seated else "spectator")


@pytest.mark.parametrize("kind", ["sng", "knockout"])
def test_a_tournament_tables_payload_never_depends_on_cards_hidden_from_its_viewer(
    kind, tmp_path_factory
):
    tmp = tmp_path_factory.mktemp(f"web-tournament-{kind}")

    async def check(data) -> None:
        base = await TOURNAMENT_BASES.draw(tmp, kind, data)
        await check_viewer_twins(tmp, base, data, same_tournament_payload)

    run_examples(8, check)
