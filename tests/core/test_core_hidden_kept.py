"""A kept seat (`bot.core.table.kept`) holds hidden information like any seat, at Türk pokeri,
Açık poker, Okey and 101 Okey (hidden twins, `testkit.hidden`):

1. Twins whose tables differ only in cards hidden from a viewer, the kept seat's own among them,
   give that viewer (another player or a spectator) the same table view, the same web frame and
   the same table message, "playing for X" and its "I'm back" button included.
2. The kept seat decides only from what its player may see: twins differing only in cards
   hidden from the kept seat get the very same kept move at its time-out, and the channel sees
   the same while that hand or round goes on.
3. The kept seat's own page (the absent player's) still shows their own cards or rack.
"""

from __future__ import annotations

import random
import shutil
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event
from hypothesis import strategies as st

from bot.core.app import Core
from storage import Store
from testkit.helpers import Clock, cmd, make_core
from testkit.hidden import (
    SPECTATOR,
    TWIN_SEED,
    Base,
    Bases,
    engine_seat,
    hidden_slots,
    public,
    refresh,
    run_examples,
    same_hand,
    seen_by,
    showdown,
    shuffle_slots,
    table_session,
)
from tests.web.test_hidden import payload, prelude

GAMES = ["turkish", "acik", "okey", "okey101"]
MOVES = (0, 1, 3, 6)
SEEDS = (0, 1)  # (the preludes of `tests.web.test_hidden`)
BASES = Bases("kept", prelude, MOVES, SEEDS)
TURN = 60.0  # the twins' turn time (the base table's deadline was set with the same)


def keep_seat(user: str, permute_for: int | None, rng: random.Random | None) -> Any:
    """A snapshot change: `user`'s seat is kept (away), and with `rng` the cards hidden from
    the player `permute_for` (None: a spectator) are permuted."""

    def change(snapshot: dict[str, Any]) -> bool:
        seat = next((s for s in snapshot["seats"] if s["user_id"] == user), None)
        if seat is None:
            return False
        seat["away"] = True
        if rng is None:
            return True
        _own, hidden = hidden_slots(snapshot, engine_seat(snapshot, permute_for))
        done = shuffle_slots(hidden, rng)
        refresh(snapshot)
        return done

    return change


CLOCKS: dict[int, Clock] = {}  # each twin core's clock, by the core's id


async def open_kept_twin(base: Base, path: Path, change: Any) -> tuple[Store, Core] | None:
    """A core (on a clock at the base table's start, `CLOCKS`) on a copy of the base database
    with the open table's snapshot rewritten by `change`; None when it found nothing to
    change."""
    shutil.copyfile(base.path, path)
    store = await Store.open(f"sqlite+aiosqlite:///{path}", migrate=False)
    changed = False
    for record in await store.load_open_tables():
        snapshot = record.snapshot
        if change(snapshot):
            due = snapshot.get("deadline")  # the turn's timer stays as the base table set it
            deadline = None if due is None else datetime.fromisoformat(due)
            await store.commit(record.id, record.version, snapshot, deadline=deadline)
            changed = True
    if not changed:
        await store.close()
        return None
    clock = Clock()
    core = make_core(store, seed=TWIN_SEED, clock=clock, turn_seconds=TURN)
    CLOCKS[id(core)] = clock
    await core.start()
    return store, core


def in_play(base_core: Core) -> list[tuple[str, int]]:
    """(user, player id) of the seats dealt into the running hand or round."""
    session = table_session(base_core)
    if session is None:
        return []
    snapshot = session.to_dict()
    return [
        (s.user_id, s.player_id)
        for s in session.seats
        if engine_seat(snapshot, s.player_id) is not None
    ]


async def twins(tmp: Path, game: str, data: Any, purpose: str) -> Any:
    """Draw a base table and a kept seat; yields nothing when the base has no hand in play."""
    base = await BASES.draw(tmp, game, data)
    n = data.draw(st.integers(0, 10**9), label="file")
    probe = await open_kept_twin(base, tmp / f"probe{n}.db", lambda _s: True)
    assert probe is not None
    store, core = probe
    try:
        seated = in_play(core)
        session = table_session(core)
        actor = None if session is None else session.actor()
        actor_user = None if actor is None else session.seats[actor].user_id
    finally:
        await store.close()
        (tmp / f"probe{n}.db").unlink(missing_ok=True)
    return base, n, seated, actor_user


async def close(tmp: Path, opened: list[tuple[Store, Core]], names: list[str]) -> None:
    for store, core in opened:
        CLOCKS.pop(id(core), None)
        await store.close()
    for name in names:
        (tmp / name).unlink(missing_ok=True)


# --- 1. what others see of a kept seat -----------------------------------------------------------


async def others_see_the_same(tmp: Path, game: str, data: Any) -> None:
    base, n, seated, _actor = await twins(tmp, game, data, "view")
    if not seated:
        event("no hand in play")
        return
    kept_user, _ = data.draw(st.sampled_from(seated), label="kept seat")
    others = [u for u in (*base.users, SPECTATOR) if u != kept_user]
    viewer = data.draw(st.sampled_from(others), label="viewer")
    rng = random.Random(data.draw(st.integers(0, 2**32), label="shuffle"))
    names = [f"view-a{n}.db", f"view-b{n}.db"]
    twin_a = await open_kept_twin(base, tmp / names[0], keep_seat(kept_user, None, None))
    assert twin_a is not None
    opened = [twin_a]
    try:
        seats = table_session(twin_a[1]).seats
        player = next((s.player_id for s in seats if s.user_id == viewer), None)
        twin_b = await open_kept_twin(base, tmp / names[1], keep_seat(kept_user, player, rng))
        if twin_b is None:
            event("nothing hidden")
            return
        opened.append(twin_b)
        (_sa, core_a), (_sb, core_b) = twin_a, twin_b
        table = str(table_session(core_a).table_id)
        assert next(s for s in table_session(core_a).seats if s.user_id == kept_user).kept
        view_a = await core_a.table_view(table, "test", viewer)
        view_b = await core_b.table_view(table, "test", viewer)
        assert view_a == view_b
        kept_seat = next(s for s in view_a.seats if s.user_id == kept_user)
        assert kept_seat.kept and kept_seat.away
        assert await payload(core_a, table, viewer) == await payload(core_b, table, viewer)
        group = "poker" if game in ("turkish", "acik") else "okey"
        shown_a = await core_a.handle(cmd(viewer, f"/{group} table"))
        shown_b = await core_b.handle(cmd(viewer, f"/{group} table"))
        assert seen_by(shown_a, viewer) == seen_by(shown_b, viewer)
        message = "\n".join(o.text for o in shown_a)
        name = kept_user.capitalize()
        assert f"playing for {name}" in message or "oynuyor" in message, message
        buttons = [b.action for o in shown_a for row in o.buttons for b in row]
        assert "back" in buttons
        event("seated viewer" if player is not None else "spectator")
    finally:
        await close(tmp, opened, names)


@pytest.mark.parametrize("game", GAMES)
def test_others_see_nothing_of_a_kept_seats_cards(game, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"kept-view-{game}")
    run_examples(10, lambda data: others_see_the_same(tmp, game, data))


# --- 2. the kept seat plays from its own view ----------------------------------------------------


async def kept_move_is_the_same(tmp: Path, game: str, data: Any) -> None:
    base, n, seated, actor_user = await twins(tmp, game, data, "move")
    kept_id = next((pid for u, pid in seated if u == actor_user), None)
    if actor_user is None or kept_id is None:
        event("nobody to act")
        return
    rng = random.Random(data.draw(st.integers(0, 2**32), label="shuffle"))
    names = [f"move-a{n}.db", f"move-b{n}.db"]
    twin_a = await open_kept_twin(base, tmp / names[0], keep_seat(actor_user, None, None))
    assert twin_a is not None
    opened = [twin_a]
    try:
        twin_b = await open_kept_twin(base, tmp / names[1], keep_seat(actor_user, kept_id, rng))
        if twin_b is None:
            event("nothing hidden from the kept seat")
            return
        opened.append(twin_b)
        outs, moves, hands = [], [], []
        for store, core in (twin_a, twin_b):
            session = table_session(core)
            table, hand_no = session.table_id, session.hand_no
            seen = len(await store.actions(table))
            out = await core.tick(CLOCKS[id(core)].advance(TURN + 1))  # past the deadline
            logged = (await store.actions(table))[seen:]
            kept = [r.action for r in logged if r.player_id == kept_id and r.action.get("kept")]
            assert kept, logged  # the kept seat moved at its time-out, at once
            outs.append(out)
            moves.append(kept)
            hands.append(same_hand(table_session(core), hand_no))
        assert moves[0] == moves[1]  # decided from what its player may see, never more
        if all(hands) and not (showdown(outs[0]) or showdown(outs[1])):
            assert public(outs[0]) == public(outs[1])
            event("kept move: same channel")
        else:
            event("kept move: hand over")
    finally:
        await close(tmp, opened, names)


@pytest.mark.parametrize("game", GAMES)
def test_a_kept_seat_decides_only_from_what_its_player_sees(game, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"kept-move-{game}")
    run_examples(10, lambda data: kept_move_is_the_same(tmp, game, data))


# --- 3. the kept seat's own page -----------------------------------------------------------------


async def own_page_shows_the_rack(tmp: Path, game: str, data: Any) -> None:
    base, n, seated, _actor = await twins(tmp, game, data, "own")
    if not seated:
        event("no hand in play")
        return
    kept_user, _ = data.draw(st.sampled_from(seated), label="kept seat")
    names = [f"own{n}.db", f"plain{n}.db"]
    twin = await open_kept_twin(base, tmp / names[0], keep_seat(kept_user, None, None))
    plain = await open_kept_twin(base, tmp / names[1], lambda _s: True)
    assert twin is not None and plain is not None
    try:
        table = str(table_session(twin[1]).table_id)
        view = await twin[1].table_view(table, "test", kept_user)
        before = await plain[1].table_view(table, "test", kept_user)
        assert view is not None and before is not None and view.me is not None
        assert view.seats[view.me].kept and not before.seats[view.me].kept
        # their own cards or rack, exactly as when they were here
        assert (view.mine, view.rack, view.actions) == (before.mine, before.rack, before.actions)
        event("own cards shown" if view.mine else "nothing in hand (folded)")
    finally:
        await close(tmp, [twin, plain], names)


@pytest.mark.parametrize("game", GAMES)
def test_the_kept_players_own_page_shows_their_cards(game, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"kept-own-{game}")
    run_examples(6, lambda data: own_page_shows_the_rack(tmp, game, data))
