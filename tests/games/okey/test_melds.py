"""The meld rules: sets, runs (12-13-1 yes, 13-1-2 no), seven pairs, wilds and false jokers."""

from __future__ import annotations

import pytest

from games.okey import is_complete, winning_discards
from games.okey.melds import is_melds, is_seven_pairs, meld_kind
from games.okey.tiles import full_set, okey_of

IND = "K3"  # the okey (wild) is K4; a false joker F plays as K4
WILD = "K4"

MELDS_HAND = [
    "R11",
    "R12",
    "R13",
    "R1",
    "Y1",
    "Y2",
    "Y3",
    "B5",
    "Y5",
    "K5",
    "R7",
    "R8",
    "R9",
    "R10",
]
PAIRS_HAND = ["R1", "R1", "Y2", "Y2", "B3", "B3", "K5", "K5", "R7", "R7", "Y9", "Y9", "B11", "B11"]


def test_okey_is_next_number_of_the_indicator_colour() -> None:
    assert okey_of("K3") == "K4"
    assert okey_of("R13") == "R1"
    with pytest.raises(ValueError, match="false joker"):
        okey_of("F")


@pytest.mark.parametrize(
    ("tiles", "kind"),
    [
        (["R5", "Y5", "B5"], "set"),
        (["R5", "Y5", "B5", "K5"], "set"),
        (["R5", "R5", "Y5"], None),  # a colour twice
        (["R5", "Y5", "B5", "K5", "R5"], None),
        (["R5", "Y5", WILD], "set"),
        (["R5", WILD, WILD], "set"),
        (["R5", "Y5", "B5", "K5", WILD], None),  # five tiles cannot be a set
        (["R5", "Y5", "B6"], None),
        (["R3", "R4", "R5"], "run"),
        (["R5", "R3", "R4"], "run"),  # order does not matter
        (["R1", "R2", "R3"], "run"),
        (["R12", "R13", "R1"], "run"),
        (["R11", "R12", "R13", "R1"], "run"),
        (["R13", "R1", "R2"], None),  # no wrap
        (["R12", "R13", "R1", "R2"], None),
        (["R3", "R4", "Y5"], None),  # two colours
        (["R3", "R5", "R6"], None),  # a gap
        (["R3", WILD, "R5"], "run"),
        (["R12", "R13", WILD], "run"),  # the wild plays the 1 after 13 (or the 11)
        (["R13", WILD, "R2"], None),  # a wild cannot bridge 13-1-2
        (["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11", "R12", "R13"], "run"),
        (["K3", "F", "K5"], "run"),  # the false joker is the K4
        (["F", "R9", "R10"], None),  # ... and is not wild
        (["F", "Y4", "B4"], "set"),
        (["F", "F"], "pair"),
        (["R5", WILD], "pair"),
        (["R5", "R6"], None),
    ],
)
def test_meld_kind(tiles: list[str], kind: str | None) -> None:
    assert meld_kind(tiles, IND) == kind


def test_complete_with_12_13_1() -> None:
    assert is_complete(MELDS_HAND, IND)
    assert is_melds(MELDS_HAND, IND)
    assert not is_seven_pairs(MELDS_HAND, IND)


def test_not_complete_with_13_1_2() -> None:
    hand = ["R13", "R1", "R2", "Y1", "Y2", "Y3", "B5", "Y5", "K5", "R7", "R8", "R9", "R10", "R11"]
    assert not is_complete(hand, IND)
    # the same tiles with a 12 instead of the 2 make 7-8-9-10-11-12-13-1
    assert is_complete([*hand[:2], "R12", *hand[3:]], IND)


def test_repeated_colour_in_a_set_is_not_complete() -> None:
    hand = ["R5", "R5", "Y5", "B1", "B2", "B3", "Y7", "Y8", "Y9", "K10", "K11", "K12", "K13", "R9"]
    assert not is_complete(hand, IND)
    assert is_complete([*hand[:1], "K5", *hand[2:13], "B4"], IND)


def test_wild_as_the_1_after_13() -> None:
    hand = ["B12", "B13", WILD, "Y1", "Y2", "Y3", "B5", "Y5", "K5", "R7", "R8", "R9", "R10", "R11"]
    assert is_complete(hand, IND)
    wrap = ["B13", WILD, "B2", "Y1", "Y2", "Y3", "B5", "Y5", "K5", "R7", "R8", "R9", "R10", "R11"]
    assert not is_complete(wrap, IND)


def test_two_wilds_in_melds() -> None:
    hand = [WILD, WILD, "R1", "Y1", "Y2", "Y3", "B5", "Y5", "K5", "R7", "R8", "R9", "R10", "R11"]
    assert is_complete(hand, IND)  # R1 + two wilds is a set (or a run)


def test_false_joker_in_a_run_as_the_okey_value() -> None:
    hand = ["K3", "F", "K5", "Y1", "Y2", "Y3", "B5", "Y5", "R5", "R7", "R8", "R9", "R10", "R11"]
    assert is_complete(hand, IND)
    # a false joker is not wild: it cannot stand in for R6
    assert not is_complete(["R5", "F", "R7", *hand[3:8], "K9", *hand[9:]], IND)


def test_seven_pairs() -> None:
    assert is_complete(PAIRS_HAND, IND)
    assert is_seven_pairs(PAIRS_HAND, IND)
    assert not is_melds(PAIRS_HAND, IND)


def test_seven_pairs_with_a_wild() -> None:
    hand = [*PAIRS_HAND[:12], "B11", WILD]
    assert is_complete(hand, IND)
    assert not is_complete([*PAIRS_HAND[:12], "B11", "B12"], IND)


def test_seven_pairs_with_two_false_jokers() -> None:
    assert is_complete([*PAIRS_HAND[:12], "F", "F"], IND)


def test_seven_pairs_with_two_wilds_together() -> None:
    assert is_complete([*PAIRS_HAND[:12], WILD, WILD], IND)


def test_false_joker_pairs_only_with_a_false_joker_or_a_wild() -> None:
    # F plays as K4: it pairs with the other F, never with some other tile
    assert not is_complete([*PAIRS_HAND[:12], "F", "R13"], IND)


@pytest.mark.parametrize(
    ("tiles", "needle"),
    [
        (["X5", *MELDS_HAND[1:]], "X5"),
        (["R14", *MELDS_HAND[1:]], "R14"),
        (["R7", "R7", *MELDS_HAND[2:]], "R7"),  # R7 is already in the hand: three copies
    ],
)
def test_bad_tiles_raise_value_error_naming_the_tile(tiles: list[str], needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        is_complete(tiles, IND)


def test_wrong_counts_raise_value_error() -> None:
    with pytest.raises(ValueError, match="14"):
        is_complete(MELDS_HAND[:13], IND)
    with pytest.raises(ValueError, match="15"):
        winning_discards(MELDS_HAND, IND)
    with pytest.raises(ValueError, match="F"):
        is_complete([*MELDS_HAND[:11], "F", "F", "F"], IND)


def test_winning_discards_on_finished_racks() -> None:
    assert winning_discards([*MELDS_HAND, "B9"], IND) == ["B9"]
    # with a second R11: drop it, or the R1 (7..11 + 11-12-13), or the R7 (8..11 + 11..1);
    # each name once, in rack order
    rack = [*MELDS_HAND, "R11"]
    assert winning_discards(rack, IND) == ["R11", "R1", "R7"]
    # with a wild in a finished hand any tile may go: the wild takes its place
    assert winning_discards([*MELDS_HAND, WILD], IND) == [*MELDS_HAND, WILD]


def test_winning_discards_from_seven_pairs_and_none() -> None:
    assert winning_discards([*PAIRS_HAND, "K13"], IND) == ["K13"]
    rack = [*PAIRS_HAND[:12], "B11", "K12", "K13"]
    assert winning_discards(rack, IND) == []


def test_winning_discards_several() -> None:
    # 3-4-5-6 in red: either end may go
    rack = [
        "R3",
        "R4",
        "R5",
        "R6",
        "Y1",
        "Y2",
        "Y3",
        "B5",
        "Y5",
        "K5",
        "B7",
        "B8",
        "B9",
        "B10",
        "B11",
    ]
    assert sorted(winning_discards(rack, IND)) == ["B11", "B7", "R3", "R6"]


def test_full_set_has_106_tiles_two_of_each() -> None:
    tiles = full_set()
    assert len(tiles) == 106
    assert tiles.count("F") == 2
    assert all(tiles.count(t) == 2 for t in set(tiles))
