"""Rack arranging: never a tile twice, always valid melds, and the most tiles placed."""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.okey import arrange, is_complete, suggest_discard
from games.okey.melds import meld_kind
from games.okey.tiles import COLOURS, okey_of

from .strategies import dense_racks, indicators, racks

IND = "K3"
WILD = "K4"


def _brute_placed(tiles: list[str], indicator: str) -> int:
    """Most tiles placeable in sets and runs, by trying every split (small racks only)."""

    @cache
    def best(rest: tuple[str, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        top = best(others)
        for size in range(3, len(rest) + 1):
            for picked in combinations(range(len(others)), size - 1):
                meld = [first, *(others[j] for j in picked)]
                if meld_kind(meld, indicator) in ("set", "run"):
                    left = tuple(t for j, t in enumerate(others) if j not in picked)
                    top = max(top, size + best(left))
        return top

    return best(tuple(sorted(tiles)))


def _check_layout(tiles: list[str], indicator: str, mode: str) -> int:
    result = arrange(tiles, indicator, mode)
    assert Counter(result.tiles()) == Counter(tiles), "a tile was lost, added or placed twice"
    kinds = {"runs": ("set", "run"), "pairs": ("pair",)}[mode]
    for meld in result.melds:
        assert meld_kind(meld, indicator) in kinds, meld
    return result.placed


@settings(max_examples=150)
@given(dense_racks(max_size=8), indicators)
def test_runs_mode_places_the_most_tiles_dense(tiles: list[str], indicator: str) -> None:
    assert _check_layout(tiles, indicator, "runs") == _brute_placed(tiles, indicator)


@settings(max_examples=60)
@given(st.data(), st.integers(3, 6), indicators)
def test_runs_mode_with_wilds_places_the_most_tiles(
    data: st.DataObject, size: int, indicator: str
) -> None:
    okey = okey_of(indicator)
    tiles = data.draw(dense_racks(min_size=size, max_size=size))
    assume(tiles.count(okey) == 0)
    tiles = [*tiles, okey, okey][: size + data.draw(st.integers(1, 2))]
    assert _check_layout(tiles, indicator, "runs") == _brute_placed(tiles, indicator)


@settings(max_examples=150)
@given(st.one_of(racks(), dense_racks()), indicators)
def test_layouts_are_valid_for_any_rack(tiles: list[str], indicator: str) -> None:
    _check_layout(tiles, indicator, "runs")
    placed = _check_layout(tiles, indicator, "pairs")
    okey = okey_of(indicator)
    plain = Counter("F" if t == "F" else t for t in tiles if t != okey)
    wilds = tiles.count(okey)
    pairs = sum(c // 2 for c in plain.values())
    singles = sum(c % 2 for c in plain.values())
    expected = 2 * (pairs + min(wilds, singles)) + (2 if wilds - singles >= 2 else 0)
    assert placed == expected


@st.composite
def complete_hands(draw: st.DrawFn) -> tuple[list[str], str]:
    """A 14-tile hand built from runs and sets, with up to two tiles swapped for wilds."""
    indicator = draw(indicators)
    okey = okey_of(indicator)
    sizes = draw(st.sampled_from([(3, 3, 4, 4), (3, 3, 3, 5), (4, 4, 3, 3), (3, 4, 7), (5, 5, 4)]))
    hand: list[str] = []
    for size in sizes:
        if size <= 4 and draw(st.booleans()):
            number = draw(st.integers(1, 13))
            colours = draw(st.permutations(COLOURS))[:size]
            hand += [f"{c}{number}" for c in colours]
        else:
            colour = draw(st.sampled_from(COLOURS))
            start = draw(st.integers(1, 15 - size))
            hand += [f"{colour}{1 if n == 14 else n}" for n in range(start, start + size)]
    hand = ["F" if t == okey else t for t in hand]  # the okey's own value is played by F
    assume(all(hand.count(t) <= 2 for t in hand))
    for _ in range(draw(st.integers(0, 2))):
        hand[draw(st.integers(0, 13))] = okey
    assume(hand.count(okey) <= 2)
    return hand, indicator


@settings(max_examples=150)
@given(complete_hands())
def test_built_hands_are_complete_and_fully_arranged(case: tuple[list[str], str]) -> None:
    hand, indicator = case
    assert is_complete(hand, indicator)
    assert _check_layout(hand, indicator, "runs") == 14


def test_runs_mode_prefers_higher_face_value_on_ties() -> None:
    # the wild could be the 1 after 13 (total 26) or the 11 (total 36): the 11 wins
    assert arrange(["R12", "R13", WILD], IND).melds == [[WILD, "R12", "R13"]]
    # three tiles either way: the set of 9s beats the run 7-8-9
    assert arrange(["R7", "R8", "R9", "Y9", "B9"], IND).melds == [["R9", "Y9", "B9"]]


def test_long_runs_show_as_one_meld() -> None:
    tiles = ["B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9"]
    assert arrange(tiles, IND).melds == [tiles]


def test_pairs_mode_pairs_wilds_with_the_highest_single() -> None:
    result = arrange(["R5", "R5", "Y2", "B9", WILD], IND, mode="pairs")
    assert result.melds == [["R5", "R5"], ["B9", WILD]]
    assert result.loose == ["Y2"]


def test_arrange_bad_input() -> None:
    with pytest.raises(ValueError, match="Z9"):
        arrange(["Z9"], IND)
    with pytest.raises(ValueError, match="B9"):
        arrange(["B9", "B9", "B9"], IND)
    with pytest.raises(ValueError, match="1-15"):
        arrange([], IND)
    with pytest.raises(ValueError, match="mode"):
        arrange(["B9"], IND, mode="seri")


def test_suggest_discard_keeps_melds_and_finishes_when_it_can() -> None:
    rack = ["R11", "R12", "R13", "R1", "Y1", "Y2", "Y3", "B5", "Y5", "K5", "R7", "R8", "R9"]
    assert suggest_discard([*rack, "R10", "B13"], IND) == "B13"
    assert suggest_discard([*rack, "R10", WILD], IND) == WILD  # finishing with the okey
    assert suggest_discard([*rack, "K12", "B2"], IND) in ("K12", "B2")
