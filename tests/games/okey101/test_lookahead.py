"""hard's look-ahead before it opens (games/okey101/lookahead.py): what the seat cannot see, how
many tiles it still draws, its quick test of a rack less one tile (checked against the exact
search), the chances it gives a discard that keeps an opening within reach against one that
throws it away, and its node budget."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.okey.tiles import full_set
from games.okey101.lookahead import _opens_without, _slot, draws_left, open_chances, unseen
from games.okey101.solver import Budget, Spent, pair_count, rack_counts, reaches, series_value

from .helpers import rigged

OKEY = "K4"  # indicator K3


def test_unseen_is_everything_the_seat_cannot_see() -> None:
    table = [{"kind": "set", "number": 7, "tiles": ["R7", "Y7", "B7"], "owner": 2}]
    game = rigged({0: ["R1"] * 2 + ["Y5"] * 2}, table=table, discard="B13", stock=12)
    view = game.view(0)
    hidden = unseen(view)
    shown = [
        *view["hand"],
        view["indicator"],
        "R7",
        "Y7",
        "B7",
        *(t for pile in view["discard_piles"] for t in pile),
    ]
    assert Counter(hidden) + Counter(shown) == Counter(full_set())
    assert Counter(hidden) == Counter(t for s in (1, 2, 3) for t in game.racks[s]) + Counter(
        game.stock
    )


@pytest.mark.parametrize(("stock", "draws"), [(20, 5), (19, 4), (4, 1), (3, 0), (0, 0)])
def test_draws_left_counts_this_seats_turns_before_the_stock_runs_out(
    stock: int, draws: int
) -> None:
    assert draws_left({"stock": stock, "players": ["a", "b", "c", "d"]}) == draws


TILES = full_set()


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9), st.integers(20, 27), st.sampled_from([101, 120]))
def test_the_quick_test_of_a_rack_less_a_tile_agrees_with_the_exact_search(
    salt: int, size: int, threshold: int
) -> None:
    rack = random.Random(salt).sample(TILES, size)
    counts, wilds = rack_counts(rack, OKEY)
    kinds = list(dict.fromkeys(rack))
    got = _opens_without(
        counts, wilds, [_slot(t, OKEY) for t in kinds], (threshold, True), Budget(10**9)
    )
    for tile, ok in zip(kinds, got, strict=True):
        rest = list(rack)
        rest.remove(tile)
        exact = series_value(rest, OKEY) >= threshold or pair_count(rest, OKEY) >= 5
        assert ok == exact, (rack, tile)
    assert rack_counts(rack, OKEY) == (counts, wilds)  # the counts are given back untouched


# 92 in two runs, B5 B6 waiting for B4 or B7 (or a wild), K2 and the rest loose
HAND = ["R10", "R11", "R12", "R13", "Y10", "Y11", "Y12", "Y13", "B5", "B6", "K2", "R2", "Y6"]


def test_the_discard_that_keeps_the_opening_within_reach_has_the_better_chance() -> None:
    hand = [*HAND, "B9", "Y8", "R7", "K7", "B1", "K12", "R4", "Y3", "K5"]
    assert series_value(hand, OKEY) == 92
    pool = sorted((Counter(full_set()) - Counter([*hand, "K3"])).elements())
    chances = open_chances(
        hand, ["K2", "B6"], OKEY, (101, False), (pool, 2), random.Random(1), 48, 10**9
    )
    assert chances["K2"] > chances["B6"] > 0


def test_nothing_left_to_draw_gives_no_chance() -> None:
    pool = ["R1", "R2"]
    assert open_chances(
        HAND, ["K2"], OKEY, (101, True), (pool, 0), random.Random(1), 24, 10**9
    ) == {"K2": 0.0}


def test_the_budget_bounds_the_work() -> None:
    counts, wilds = rack_counts([*HAND, "B11", "Y9", "R9", "K9"], OKEY)
    with pytest.raises(Spent):
        reaches(counts, wilds, 101, Budget(3))
    assert reaches(counts, wilds, 101, Budget(10**6))
    pool = sorted((Counter(full_set()) - Counter([*HAND, "K3"])).elements())
    spent = open_chances(HAND, ["K2", "B13"], OKEY, (101, True), (pool, 5), random.Random(1), 24, 0)
    assert spent == {"K2": 0.0, "B13": 0.0}  # no future sampled within the budget
