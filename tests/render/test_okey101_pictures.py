"""101 Okey pictures: random rounds render at their states (the public table with the melds on
it, the rack of the seat to act with the tiles that can be laid marked), scenes hold only what
their view shows, and the marks follow the solver."""

from __future__ import annotations

import io
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.core.okey101 import plays
from bot.render.pictures import PictureStyle
from bot.render.pictures.okey101 import render_rack, render_table
from bot.render.pictures.views import okey101_rack_scene, okey101_table_scene
from games.okey101 import Match101, ai
from tests.core.okey101.rig import OPENING_RACK

STYLE = PictureStyle(lang="tr")


def png_size(png: bytes) -> tuple[int, int]:
    assert png.startswith(b"\x89PNG") and len(png) < 400_000
    return Image.open(io.BytesIO(png)).size


@settings(max_examples=6, deadline=None)
@given(players=st.integers(2, 4), seed=st.binary(min_size=32, max_size=32), rng=st.randoms())
def test_random_rounds_render(players, seed, rng):
    match = Match101.new([str(i) for i in range(players)], {"rounds": 1})
    match.start_round(seed)
    names = [f"P{i}" for i in range(players)]
    for step in range(120):
        game = match.round
        if game is None or game.finished:
            break
        index = game.to_act()
        if step % 30 == 0:
            public = match.view(None)
            assert "hand" not in public
            table = okey101_table_scene(public, names)
            assert [m.tiles for m in table.melds] == [tuple(m["tiles"]) for m in public["table"]]
            w, h = png_size(render_table(table, STYLE))
            assert w >= 700 and h > 560
            mine = game.view(index)
            marked = plays.layable(game, index)
            rack = okey101_rack_scene(mine, marked)
            assert Counter(rack.tiles) == Counter(mine["hand"])
            assert {t for t, m in zip(rack.tiles, rack.marked, strict=True) if m} <= marked
            png_size(render_rack(rack, STYLE))
        match.apply(index, ai.choose_action(game, index, "easy", random.Random(step)))
    png_size(render_table(okey101_table_scene(match.view(None), names), STYLE))


def test_the_rack_marks_the_best_opening():
    view = {"hand": list(OPENING_RACK), "indicator": "K1", "okey": "K2"}
    laid = {"R10", "R11", "R12", "R13", "Y10", "Y11", "Y12", "Y13", "B9", "B10", "B11", "B12"}
    scene = okey101_rack_scene(view, laid)
    assert sum(scene.marked) == 12
    assert png_size(render_rack(scene, STYLE))[0] > 500


def test_a_view_of_another_game_is_refused():
    with pytest.raises(ValueError):
        okey101_table_scene({"game": "okey"}, [])
    with pytest.raises(ValueError):
        okey101_rack_scene({"indicator": "K1"}, ())


def test_the_table_counts_this_rounds_penalties_into_the_totals():
    match = Match101.new(["a", "b"], {"rounds": 3})
    match.start_round(bytes(range(32)))
    view = match.view(None)
    view["totals"], view["penalties"] = [40, -101], [101, 0]
    scene = okey101_table_scene(view, ["A", "B"])
    assert scene.table.penalties == (141, -101)
    view["result"] = {"reason": "finished"}  # once over, the totals hold the round already
    assert okey101_table_scene(view, ["A", "B"]).table.penalties == (40, -101)
