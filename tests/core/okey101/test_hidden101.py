"""Hidden tiles of a 101 table never reach a public surface: twin tables that differ only in the
tiles hidden from a viewer (other racks and the stock, rack sizes kept) give a spectator the same
`TableView`, the same table message, buttons and picture scene, and give a seated player the same
view but for their own rack (the engine's own tests check its public events)."""

from __future__ import annotations

import random
from copy import deepcopy
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.okey101.session import Okey101Session
from bot.core.okey101.view import okey101_view
from bot.core.table import house
from bot.core.table.deliver import table_text
from bot.core.table.session import Seat
from bot.render.pictures.views import okey101_table_scene
from games.base import seed_from_hex
from games.okey101 import Match101, ai

NOW = datetime(2026, 1, 5, tzinfo=UTC)


def table(seed: int, moves: int) -> Okey101Session:
    """A 3-player 101 table `moves` moves into its first round."""
    session = Okey101Session("en", {**house.defaults("okey101"), "stake": 10}, NOW)
    session.table_id = 7
    session.seats = [Seat(i + 1, f"u{i}", f"P{i}", "en") for i in range(3)]
    session.staked = [1, 2, 3]
    session.phase = "playing"
    session.match = Match101.new(["1", "2", "3"], {})
    session.match.start_round(seed_from_hex(f"{seed:064x}"))
    rng = random.Random(seed)
    for _ in range(moves):
        game = session.game101
        if game is None:
            break
        index = game.to_act()
        session.match.apply(index, ai.choose_action(game, index, "easy", rng))
    return session


def twin(session: Okey101Session, viewer: int | None, rng: random.Random) -> Okey101Session:
    """The same table with the tiles hidden from `viewer` (an engine seat or None) shuffled
    among the hidden places: other racks and the stock, each keeping its size."""
    data = deepcopy(session.to_dict())
    game = data["match"]["round"]
    places = [k for k in range(len(game["racks"])) if k != viewer]
    hidden = [t for k in places for t in game["racks"][k]] + game["stock"]
    rng.shuffle(hidden)
    for k in places:
        size = len(game["racks"][k])
        game["racks"][k], hidden = hidden[:size], hidden[size:]
    game["stock"] = hidden
    other = Okey101Session.from_dict(data)
    other.table_id = session.table_id
    return other


def public_surfaces(session: Okey101Session, user: str | None):
    view = okey101_view(session, user)
    scene = None
    if session.match is not None and session.game101 is not None:
        names = [s.name for s in session.seats]
        scene = okey101_table_scene(session.match.view(None), names)
    return view, table_text(session), session.buttons(), scene


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(1, 10**9), moves=st.integers(0, 40), viewer=st.sampled_from([None, 0, 1]))
def test_twins_look_the_same_to_whoever_may_not_see_the_difference(seed, moves, viewer):
    session = table(seed, moves)
    if session.game101 is None:
        return
    other = twin(session, viewer, random.Random(seed))
    user = None if viewer is None else f"u{viewer}"
    assert public_surfaces(session, user) == public_surfaces(other, user)
    spectator = okey101_view(session, "someone")
    assert spectator.mine == () and spectator.actions == () and spectator.me is None
