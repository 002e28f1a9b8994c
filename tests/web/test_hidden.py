"""Hidden information holds over the socket: two tables that differ only in cards or tiles
hidden from a viewer (hidden twins, `testkit.hidden`) give that viewer, a seated player or a
spectator, the very same `state` frame. Türk pokeri, Açık poker and Okey."""

from __future__ import annotations

import asyncio
import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from testkit.hidden import (
    SPECTATOR,
    Base,
    engine_seat,
    hidden_slots,
    open_twin,
    play_base,
    refresh,
    shuffle_slots,
    table_session,
)
from testkit.web import serve_web
from tests.core.test_contract_hidden import MOVES, SEEDS, prelude

_bases: dict[tuple[str, int, int], Base] = {}


async def base(tmp, game: str, moves: int, seed: int) -> Base:
    key = (game, moves, seed)
    if key not in _bases:
        path = tmp / f"web-{game}-{moves}-{seed}.db"
        _bases[key] = await play_base(path, game, prelude(game, seed), moves, seed)
    return _bases[key]


async def payload(core, table: str, viewer: str) -> str:
    """The first frame a page of `viewer` receives, as sent (text)."""
    async with serve_web(core) as web:
        ws = await web.connect()
        await ws.send_json({"type": "hello", "session": await web.session(viewer, table)})
        message = await ws.receive(timeout=5)
        await ws.close()
        return str(message.data)


async def same_payload_for_twins(tmp, game: str, data, n: int) -> None:
    moves = data.draw(st.sampled_from(MOVES), label="moves")
    seed = data.draw(st.sampled_from(SEEDS), label="seed")
    saved = await base(tmp, game, moves, seed)
    viewer = data.draw(st.sampled_from((*saved.users, SPECTATOR)), label="viewer")
    rng = random.Random(data.draw(st.integers(0, 2**32), label="shuffle"))
    twin_a = await open_twin(saved, tmp / f"wa{n}.db")
    assert twin_a is not None
    store_a, core_a = twin_a
    try:
        session = table_session(core_a)
        if session is None:
            event("no table")
            return
        seat = next((s for s in session.seats if s.user_id == viewer), None)
        player = None if seat is None else seat.player_id

        def change(snapshot) -> bool:
            _own, hidden = hidden_slots(snapshot, engine_seat(snapshot, player))
            done = shuffle_slots(hidden, rng)
            refresh(snapshot)
            return done

        twin_b = await open_twin(saved, tmp / f"wb{n}.db", change)
        if twin_b is None:
            event("nothing hidden")
            return
        store_b, core_b = twin_b
        try:
            table = str(session.table_id)
            frame_a = await payload(core_a, table, viewer)
            frame_b = await payload(core_b, table, viewer)
            assert frame_a == frame_b
            event("spectator" if seat is None else "seated")
        finally:
            await store_b.close()
    finally:
        await store_a.close()
        for name in (f"wa{n}.db", f"wb{n}.db"):
            (tmp / name).unlink(missing_ok=True)


@pytest.mark.parametrize("game", ["turkish", "acik", "okey"])
def test_a_socket_payload_never_depends_on_cards_hidden_from_its_viewer(game, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"web-{game}")
    counter = iter(range(10**6))

    @settings(
        max_examples=12,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(st.data())
    def run(data):
        asyncio.run(same_payload_for_twins(tmp, game, data, next(counter)))

    run()
