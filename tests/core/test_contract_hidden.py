"""A table view (`Core.table_view`) never holds a card hidden from its viewer.

Hidden twins (`testkit.hidden`): a table is played to some point, copied twice, and in the
second copy the cards hidden from one viewer (the other players' cards or tiles, the stock) are
permuted before a core starts on it. Both cores must give that viewer, a seated player or a
spectator, the very same view. Açık poker, Türk pokeri and Okey, every viewer, several points of
a hand or round.
"""

from __future__ import annotations

import asyncio
import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from testkit.helpers import cmd
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

PLAYERS = {
    "turkish": ("ayse", "mehmet", "cem", "deniz"),
    "acik": ("ayse", "mehmet", "cem"),
    "okey": ("ayse", "mehmet", "cem", "deniz"),
}
MOVES = (0, 1, 3, 6, 10)
SEEDS = (0, 1)

_bases: dict[tuple[str, int, int], Base] = {}


def prelude(game: str, seed: int) -> list[str]:
    """Open a table, seat the players, deal."""
    users = PLAYERS[game]
    if game == "okey":
        lines = [f"{users[0]}: /okey start {1 + 2 * seed} 10"]
        lines += [f"{u}: /okey join" for u in users[1:]]
        return [*lines, f"{users[0]}: /okey begin"]
    lines = [f"{users[0]}: /poker open {game} 5"]
    lines += [f"{u}: /poker join {150 + 40 * i}" for i, u in enumerate(users)]
    return [*lines, f"{users[0]}: /poker start"]


async def base(tmp, game: str, moves: int, seed: int) -> Base:
    key = (game, moves, seed)
    if key not in _bases:
        path = tmp / f"view-{game}-{moves}-{seed}.db"
        _bases[key] = await play_base(path, game, prelude(game, seed), moves, seed)
    return _bases[key]


async def same_view_for_twins(tmp, game: str, data, n: int) -> None:
    moves = data.draw(st.sampled_from(MOVES), label="moves")
    seed = data.draw(st.sampled_from(SEEDS), label="seed")
    saved = await base(tmp, game, moves, seed)
    viewer = data.draw(st.sampled_from((*saved.users, SPECTATOR)), label="viewer")
    rng = random.Random(data.draw(st.integers(0, 2**32), label="shuffle"))
    twin_a = await open_twin(saved, tmp / f"va{n}.db")
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

        twin_b = await open_twin(saved, tmp / f"vb{n}.db", change)
        if twin_b is None:
            event("nothing hidden")
            return
        store_b, core_b = twin_b
        try:
            table = str(session.table_id)
            view_a = await core_a.table_view(table, "test", viewer)
            view_b = await core_b.table_view(table, "test", viewer)
            assert view_a is not None
            assert view_a == view_b
            event("spectator" if view_a.me is None else "seated")
        finally:
            await store_b.close()
    finally:
        await store_a.close()
        for name in (f"va{n}.db", f"vb{n}.db"):
            (tmp / name).unlink(missing_ok=True)


@pytest.mark.parametrize("game", ["turkish", "acik", "okey"])
def test_a_view_never_depends_on_cards_hidden_from_its_viewer(game, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"view-{game}")
    counter = iter(range(10**6))

    @settings(
        max_examples=20,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(st.data())
    def run(data):
        asyncio.run(same_view_for_twins(tmp, game, data, next(counter)))

    run()


# --- the previous hand's end (`TableView.last`) ---------------------------------------------------


def public_line(session) -> tuple[str, str]:
    """A move of the seat to act chosen from public information only (fold to a bet, the
    smallest bet, pass, check, stand pat), so that both twins play the very same moves."""
    index = session.engine.to_act()
    user = session.seat_of_engine(index).user_id
    specs = {spec.kind: spec for spec in session._public_specs(index)}
    kinds = list(specs)
    if "fold" in kinds and "call" in kinds:  # a bet to face (folding unbet is refused)
        return user, "/poker fold"
    if "bet" in kinds:  # the others then fold: the hand ends without a showdown
        return user, f"/poker bet {specs['bet'].min_amount}"
    for kind in ("pass", "check"):
        if kind in kinds:
            return user, f"/poker {kind}"
    if "draw" in kinds:
        return user, "/poker pat"
    return user, "/poker fold"


async def fold_out(core) -> tuple[bool, set[str]]:
    """Play the running hand to its end with `public_line` moves: (whether it ended at a
    showdown, the users who folded in it)."""
    session = table_session(core)
    hand = session.hand_no
    folded: set[str] = set()
    for _ in range(60):
        session = table_session(core)
        if session is None or session.hand_no != hand or session.actor() is None:
            break
        user, line = public_line(session)
        if line == "/poker fold":
            folded.add(user)
        await core.handle(cmd(user, line))
    session = table_session(core)
    ended = None if session is None else session.last
    shown = bool(ended) and any(p["shown"] for p in ended["players"])
    return shown, folded


async def twins_after_fold_out(tmp, game: str, data, n: int, compare) -> None:
    """Hidden twins of a hand in play, played on to its end by the same public moves; then
    `compare(core_a, core_b, table, viewer, showdown, folded)`."""
    moves = data.draw(st.sampled_from(MOVES), label="moves")
    seed = data.draw(st.sampled_from(SEEDS), label="seed")
    saved = await base(tmp, game, moves, seed)
    viewer = data.draw(st.sampled_from((*saved.users, SPECTATOR)), label="viewer")
    rng = random.Random(data.draw(st.integers(0, 2**32), label="shuffle"))
    twin_a = await open_twin(saved, tmp / f"la{n}.db")
    assert twin_a is not None
    store_a, core_a = twin_a
    try:
        session = table_session(core_a)
        if session is None or session.actor() is None:
            event("no hand in play")
            return
        seat = next((s for s in session.seats if s.user_id == viewer), None)
        player = None if seat is None else seat.player_id

        def change(snapshot) -> bool:
            _own, hidden = hidden_slots(snapshot, engine_seat(snapshot, player))
            done = shuffle_slots(hidden, rng)
            refresh(snapshot)
            return done

        twin_b = await open_twin(saved, tmp / f"lb{n}.db", change)
        if twin_b is None:
            event("nothing hidden")
            return
        store_b, core_b = twin_b
        try:
            showdown_a, folded = await fold_out(core_a)
            showdown_b, folded_b = await fold_out(core_b)
            assert folded == folded_b
            table = str(session.table_id)
            await compare(core_a, core_b, table, viewer, showdown_a or showdown_b, folded)
            event("showdown" if showdown_a or showdown_b else "folded out")
        finally:
            await store_b.close()
    finally:
        await store_a.close()
        for name in (f"la{n}.db", f"lb{n}.db"):
            (tmp / name).unlink(missing_ok=True)


async def same_last(core_a, core_b, table: str, viewer: str, showdown: bool, folded) -> None:
    """The viewer sees the same previous hand in both twins unless it ended at a showdown
    (which shows cards the twins hold differently); a folded hand is never in it."""
    view_a = await core_a.table_view(table, "test", viewer)
    view_b = await core_b.table_view(table, "test", viewer)
    assert view_a is not None and view_b is not None
    assert view_a.last is not None and view_b.last is not None
    for last in (view_a.last, view_b.last):
        assert all(p.shown == () for p in last.players if p.user_id in folded)
    if not showdown:
        assert view_a.last == view_b.last


@pytest.mark.parametrize("game", ["turkish", "acik"])
def test_the_previous_hand_never_depends_on_cards_hidden_from_its_viewer(game, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"last-{game}")
    counter = iter(range(10**6))

    @settings(
        max_examples=12,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(st.data())
    def run(data):
        asyncio.run(twins_after_fold_out(tmp, game, data, next(counter), same_last))

    run()
