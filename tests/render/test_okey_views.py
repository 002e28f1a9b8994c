"""Every state of random Okey rounds renders: the public table and the rack of the seat to act."""

from __future__ import annotations

import io
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.render.pictures import PictureStyle, render_okey_rack, render_okey_table
from bot.render.pictures.okey import rack_size, table_size
from bot.render.pictures.views import okey_finish_scene, okey_rack_scene, okey_table_scene
from games.base import Action
from games.okey import OkeyMatch, winning_discards
from games.okey.round import new

STYLE = PictureStyle(lang="tr")
MAX_STEPS = 40  # moves per random round (a round can run ~100; the early and late states are alike)
DRAW_EVERY = 5  # scenes are checked at every state, pictures drawn at every 5th (drawing is slow)


def size_of(png: bytes) -> tuple[int, int]:
    assert len(png) < 200_000
    return Image.open(io.BytesIO(png)).size


def check_state(game, names: list[str], draw: bool = True) -> None:
    public = game.view(None)
    assert "hand" not in public
    table = okey_table_scene(public, names)
    if draw:
        assert size_of(render_okey_table(table, STYLE)) == table_size(table)
    seat = game.to_act()
    if seat is not None:
        mine = game.view(seat)
        rack = okey_rack_scene(mine)
        assert Counter(rack.tiles) == Counter(mine["hand"])
        if draw:
            assert size_of(render_okey_rack(rack, STYLE)) == rack_size(rack)


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.binary(min_size=32, max_size=32),
    choices=st.randoms(use_true_random=False),
)
def test_random_rounds_render_at_every_state(players: int, seed: bytes, choices) -> None:
    names = ["Ayşe", "Mehmet", "Gülşen", "İsmail"][:players]
    game = new([f"p{i}" for i in range(players)], seed, None)
    check_state(game, names)
    for step in range(1, MAX_STEPS + 1):
        seat = game.to_act()
        if seat is None:
            break
        kinds = {spec.kind for spec in game.legal_actions(seat)}
        hand = game.view(seat)["hand"]
        if "show_indicator" in kinds and choices.random() < 0.5:
            action = Action("show_indicator")
        elif "take" in kinds:
            action = Action("take", source=choices.choice(game.sources(seat)))
        elif "finish" in kinds:
            action = Action("finish", cards=(winning_discards(hand, game.indicator)[0],))
        else:
            action = Action("discard", cards=(choices.choice(hand),))
        game.apply(seat, action)
        check_state(game, names, draw=step % DRAW_EVERY == 0 or game.to_act() is None)


def test_a_finished_round_shows_the_winners_melds() -> None:
    scene = okey_finish_scene(
        {
            "result": {
                "reason": "finished",
                "winner": 0,
                "discard": "K9",
                "melds": [["R1", "R2", "R3"], ["B5", "Y5", "K5"]],
            },
            "indicator": "R4",
            "okey": "R5",
        }
    )
    assert scene is not None
    assert scene.melds == (("R1", "R2", "R3"), ("B5", "Y5", "K5"))
    assert scene.loose == ("K9",)
    assert okey_finish_scene({"result": {"reason": "stock_exhausted", "winner": None}}) is None
    assert okey_finish_scene({"result": None}) is None


def test_public_table_from_a_fresh_round() -> None:
    game = new(["a", "b", "c"], bytes(32), None)
    scene = okey_table_scene(game.view(None))
    assert scene.names == ("a", "b", "c")
    assert scene.discard_tops == (None, None, None)
    assert scene.stock_count == game.view(None)["stock"]
    assert scene.indicator == game.indicator
    assert scene.okey == game.okey
    assert sorted(scene.hand_counts or ()) == [14, 14, 15]


def test_match_view_before_and_during_a_round() -> None:
    match = OkeyMatch.new(["a", "b"], None)
    empty = okey_table_scene(match.view(None))
    assert empty.discard_tops == (None, None)
    assert empty.indicator is None
    assert size_of(render_okey_table(empty)) == table_size(empty)
    match.start_round(bytes(32))
    scene = okey_table_scene(match.view(None), ["Ayşe", "Mehmet"])
    assert scene.penalties == tuple(match.totals)
    assert sorted(scene.hand_counts or ()) == [14, 15]


def test_classic_preset_totals_are_points() -> None:
    match = OkeyMatch.new(["a", "b"], {"preset": "classic"})
    match.start_round(bytes(32))
    scene = okey_table_scene(match.view(None))
    assert scene.score_word == "points"
    assert scene.penalties == tuple(match.totals)
    assert okey_table_scene(new(["a", "b"], bytes(32), None).view(None)).score_word == "penalty"
