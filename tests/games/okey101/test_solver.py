"""The solver against the plain exhaustive search on random racks, and what its melds are."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.okey.tiles import NAMES, full_set
from games.okey101 import addable, best_opening, discard_penalty, pair_count, read_meld
from games.okey101.melds import effective, meld_value
from testkit.okey101_exhaustive import exhaustive_value

from .helpers import run, set_of


def rack_of(seed: int, size: int = 22, wilds: int = 2) -> tuple[list[str], str]:
    rng = random.Random(seed)
    okey = rng.choice(NAMES)
    pool = [t for t in full_set() if t != okey]
    rng.shuffle(pool)
    return [okey] * wilds + pool[: size - wilds], okey


def check_layout(tiles: list[str], okey: str) -> None:
    best = best_opening(tiles, okey)
    used = Counter(t for meld in best.melds for t in meld)
    assert not used - Counter(tiles), "the melds use tiles the rack does not hold"
    total = 0
    for meld in best.melds:
        read = read_meld(meld, okey)
        assert read is not None, meld
        total += meld_value(read)
    assert total == best.value


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 2), st.integers(14, 22))
def test_best_opening_equals_the_exhaustive_search(seed: int, wilds: int, size: int) -> None:
    tiles, okey = rack_of(seed, size, wilds)
    assert best_opening(tiles, okey).value == exhaustive_value(tiles, okey)
    check_layout(tiles, okey)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 2))
def test_forced_tile_opening_equals_the_exhaustive_search(seed: int, wilds: int) -> None:
    tiles, okey = rack_of(seed, 18, wilds)
    forced = random.Random(seed).choice(tiles)
    got = best_opening(tiles, okey, forced=forced)
    assert got.value == exhaustive_value(tiles, okey, forced)
    if got.value >= 0:
        assert any(
            effective(t, okey) == effective(forced, okey) for meld in got.melds for t in meld
        )


def test_both_okeys_go_where_they_count_most() -> None:
    okey = "K4"
    best = best_opening(["R12", "R13", okey, "B1", "Y1", okey], okey)
    assert best.value == 46  # 10-11-12-13 beats 11-12-13 + a set of 1s (39); no wild 14
    assert best.melds == [[okey, okey, "R12", "R13"]]
    assert best_opening(["R13", okey, okey], okey).value == 39  # a set of 13s beats 11-12-13


def test_pairs_count_okeys_with_any_tile_and_false_jokers_together() -> None:
    okey = "K4"
    assert pair_count(["R1", "R1", "Y2", "Y2", "F", "F", "B5", okey, okey, "R9"], okey) == 5
    assert best_opening(
        ["R1", "R1", "Y2", "Y2", "B3", "B3", "K5", "K5", "R7", "R7"], okey
    ).can_pairs
    assert not best_opening(["R1", "R1", "Y2", "Y2", "B3", "B3", "K5", "K5", "R7"], okey).can_pairs


def test_addable_names_each_rack_tile_and_the_meld_it_fits() -> None:
    okey = "K4"
    table = [
        run(5, ["R5", "R6", "R7"]),
        set_of(9, ["R9", "Y9", "B9"]),
        run(11, ["B11", "B12", "B13"]),
    ]
    got = addable(["R4", "R8", "K9", "B10", "Y9", "R1", okey], table, okey)
    assert got == [("R4", 0), ("R8", 0), ("K9", 1), ("B10", 2), (okey, 0), (okey, 1), (okey, 2)]


def test_discard_warning_says_why_a_discard_costs_101() -> None:
    okey = "K4"
    table = [run(5, ["R5", "R6", "R7"])]
    assert discard_penalty(okey, table, okey) == "okey"
    assert discard_penalty("R8", table, okey) == "playable"
    assert discard_penalty("F", [run(1, ["K1", "K2", "K3"])], okey) == "playable"  # F is K4
    assert discard_penalty("R9", table, okey) is None


def test_bad_racks_are_refused_naming_the_tile() -> None:
    with pytest.raises(ValueError, match="R5"):
        best_opening(["R5", "R5", "R5"], "K4")
    with pytest.raises(ValueError, match="X9"):
        best_opening(["X9"], "K4")
    with pytest.raises(ValueError):
        best_opening("R5 R6 R7", "K4")
