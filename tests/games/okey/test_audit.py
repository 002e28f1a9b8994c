"""An independent rules audit of the Okey engine, scripted the way a kahvehane player checks a table.

Each test states one rule from `shared/rules/okey.txt` / DECISIONS.md and plays it through the
public API: the tile set and the okey, melds with wilds and false jokers, seven pairs, finished
racks, the turn order and take sources, the indicator, the stock running out, scoring presets, the
match and its payout. The last part checks the engine's promises: refused moves change nothing,
the public view and error messages never show a hidden tile, and a snapshot plays on identically.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from functools import cache
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import Action, IllegalAction, shuffled
from games.okey import (
    OkeyMatch,
    OkeyRound,
    auto_action,
    full_set,
    is_complete,
    meld_kind,
    new,
    okey_of,
    payout,
    winning_discards,
)
from games.okey.tiles import COLOURS, NAMES

from .strategies import dense_racks, indicators

PLAYERS = ["ayse", "baris", "cem", "deniz"]
TILE_TOKEN = re.compile(r"\b[RYBK](?:1[0-3]|[1-9])\b")


def _seed(k: int) -> bytes:
    return hashlib.sha256(f"audit-{k}".encode()).digest()


def _position(
    racks: dict[int, list[str]],
    *,
    indicator: str = "K3",
    players: int = 4,
    turn: int = 0,
    phase: str = "discard",
    started: list[bool] | None = None,
    stock: int | None = None,
    piles: dict[int, list[str]] | None = None,
    preset: str = "penalty",
    starter: int = 0,
) -> OkeyRound:
    """A round in a chosen position, built from a snapshot; all 106 tiles stay accounted for."""
    rest = Counter(full_set())
    rest[indicator] -= 1
    for tiles in [*racks.values(), *(piles or {}).values()]:
        rest.subtract(tiles)
    assert all(v >= 0 for v in rest.values()), "the position uses a tile three times"
    pool = sorted(rest.elements())
    full: list[list[str]] = []
    for seat in range(players):
        if seat in racks:
            full.append(list(racks[seat]))
        else:
            size = 15 if seat == turn and phase == "discard" else 14
            full.append(pool[:size])
            pool = pool[size:]
    all_piles: list[list[str]] = [list((piles or {}).get(s, [])) for s in range(players)]
    if stock is not None:
        all_piles[(turn - 1) % players] += pool[stock:]
        pool = pool[:stock]
    data: dict[str, Any] = {
        "players": PLAYERS[:players],
        "options": {"rounds": 1, "preset": preset},
        "seed": _seed(0).hex(),
        "starter": starter,
        "start_draw": [["R1"]] * players,
        "indicator": indicator,
        "racks": full,
        "stock": pool,
        "piles": all_piles,
        "turn": turn,
        "phase": phase,
        "started": started if started is not None else [True] * players,
        "shown_by": None,
        "penalties": [0] * players,
        "result": None,
    }
    game = OkeyRound.from_dict(data)
    assert game.tiles_accounted() == 106
    return game


def _refused(game: OkeyRound, seat: int, action: Action, code: str) -> IllegalAction:
    before = game.to_dict()
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, action)
    assert info.value.code == code, str(info.value)
    assert game.to_dict() == before, "a refused move changed the round"
    return info.value


# --- the tiles, the indicator and the okey ----------------------------------------------------


def test_the_set_is_106_tiles_four_colours_two_of_each_and_two_false_jokers() -> None:
    tiles = Counter(full_set())
    assert sum(tiles.values()) == 106
    assert tiles["F"] == 2
    assert {t for t in tiles if t != "F"} == {f"{c}{n}" for c in "RYBK" for n in range(1, 14)}
    assert all(count == 2 for count in tiles.values())


@pytest.mark.parametrize("colour", COLOURS)
def test_okey_is_the_same_colour_next_number_and_13_wraps_to_1(colour: str) -> None:
    for n in range(1, 13):
        assert okey_of(f"{colour}{n}") == f"{colour}{n + 1}"
    assert okey_of(f"{colour}13") == f"{colour}1"
    with pytest.raises(ValueError, match="F"):
        okey_of("F")


def test_the_indicator_is_never_a_false_joker_even_when_one_is_next_in_the_stock() -> None:
    # find a seed whose first tile after a 4-player deal is a false joker
    dealt = 15 + 3 * 14
    for k in range(3000):
        tiles = shuffled(full_set(), _seed(k), "okey-deal")
        if tiles[dealt] == "F":
            break
    else:
        pytest.fail("no seed put a false joker right after the deal")
    game = new(PLAYERS, _seed(k))
    after = tiles[dealt:]
    expected = next(t for t in after if t != "F")
    assert game.indicator == expected != "F"
    assert game.stock[0] == "F"  # the false joker stays in the stock
    assert game.tiles_accounted() == 106
    assert Counter(game.stock) + Counter({game.indicator: 1}) == Counter(after)


def test_indicators_over_many_deals_are_never_f() -> None:
    for k in range(60):
        assert new(PLAYERS[: 2 + k % 3], _seed(k)).indicator != "F"


# --- melds: wilds, false jokers, sets, runs ---------------------------------------------------

# Indicator Y6: the okey (wild) is Y7, a false joker F plays as a plain Y7.
Y6 = "Y6"


@pytest.mark.parametrize(
    ("tiles", "kind"),
    [
        # the false joker is the okey's own value, in runs and in sets
        (["Y5", "Y6", "F"], "run"),
        (["F", "Y8", "Y9"], "run"),
        (["F", "R7", "B7"], "set"),
        (["F", "R7", "B7", "K7"], "set"),
        (["F", "Y7", "R7"], "set"),  # F is the yellow 7, the wild fills another colour
        # ... and not wild
        (["F", "R3", "R4"], None),
        (["F", "R8", "R9"], None),
        (["F", "Y7", "Y7"], "set"),  # F with two wilds: a set (it could also read as a run)
        (["F", "Y5", "Y9"], None),
        # sets: 3-4 different colours, a wild fills a missing colour, no colour twice
        (["R5", "B5", "K5"], "set"),
        (["R5", "Y5", "B5", "K5"], "set"),
        (["R5", "B5", "Y7"], "set"),
        (["R5", "Y7", "Y7"], "set"),
        (["R5", "B5", "K5", "Y7"], "set"),
        (["R5", "R5", "B5"], None),
        (["R5", "R5", "Y7"], None),
        (["R5", "B5", "B5", "K5"], None),
        (["R5", "Y5", "B5", "K5", "Y7"], None),  # five is too many for a set
        (["R5", "B6", "K5"], None),
        # runs: one colour, consecutive; 12-13-1 and 1-2-3 yes, 13-1-2 no, never wraps
        (["R12", "R13", "R1"], "run"),
        (["R1", "R2", "R3"], "run"),
        (["R13", "R1", "R2"], None),
        (["R11", "R12", "R13", "R1"], "run"),
        (["R12", "R13", "R1", "R2"], None),
        (["R1", "R2", "B3"], None),
        (["R4", "R5"], None),
        (["R4", "R5", "R7"], None),
        # a wild at either end or in the middle
        (["Y7", "R5", "R6"], "run"),
        (["R5", "R6", "Y7"], "run"),
        (["R5", "Y7", "R7"], "run"),
        (["R5", "Y7", "Y7", "R8"], "run"),
        (["R12", "R13", "Y7"], "run"),  # the wild plays the 1 after 13 (or the 11)
        (["R13", "Y7", "R2"], None),  # a wild cannot bridge 13 and 2
        (["Y7", "R1", "R2"], "run"),
        (["R1", "Y7", "R13"], "run"),  # the wild is R12, the 1 plays after 13
        # the whole colour 1..13 with the 1 after 13
        ([*(f"B{n}" for n in range(1, 14)), "B1"], "run"),
        ([*(f"B{n}" for n in range(1, 14)), "Y7"], "run"),
    ],
)
def test_meld_rules(tiles: list[str], kind: str | None) -> None:
    assert meld_kind(tiles, Y6) == kind


def test_a_wild_between_13_and_1_makes_12_13_1_not_a_wrap() -> None:
    # R13, W, R1: the wild plays R12 and the 1 follows 13, a legal run
    assert meld_kind(["R13", "Y7", "R1"], Y6) == "run"
    # but 13-1-2 stays illegal even with a wild somewhere
    assert meld_kind(["R13", "R1", "R2", "Y7"], Y6) is None


def test_false_joker_when_the_okey_is_a_1() -> None:
    # indicator K13 -> okey K1; F plays the black 1: low in 1-2-3, high in 12-13-1, never 13-1-2
    assert okey_of("K13") == "K1"
    assert meld_kind(["F", "K2", "K3"], "K13") == "run"
    assert meld_kind(["K12", "K13", "F"], "K13") == "run"
    assert meld_kind(["K13", "F", "K2"], "K13") is None


# A 14-tile hand of melds, indicator Y6 (okey Y7 wild, F = yellow 7).
MELDS_WITH_F = ["Y5", "Y6", "F", "R7", "B7", "K7", "R1", "R2", "R3"]
MELDS_WITH_F += ["B11", "B12", "B13", "B1", "K9"]


def test_complete_hands_with_false_jokers_and_wilds() -> None:
    assert not is_complete(MELDS_WITH_F, Y6)  # K9 is loose
    hand = [*MELDS_WITH_F[:13], "Y7"]  # the okey joins B11-B12-B13-B1 as ... or a set/run
    assert is_complete(hand, Y6)
    # F used as a red 7 does not work: it is the yellow 7 only
    assert not is_complete(["F", "R8", "R9", *MELDS_WITH_F[3:13], "K9"], Y6)
    # a wild fills a colour of a set and a gap of a run in one hand
    wilds = ["R5", "B5", "Y7", "K1", "Y7", "K3", "R9", "R10", "R11", "R12", "B2", "Y2", "K2", "R2"]
    assert is_complete(wilds, Y6)


def test_sets_with_a_colour_twice_never_complete_a_hand() -> None:
    base = ["R1", "R2", "R3", "B11", "B12", "B13", "K4", "K5", "K6", "K7", "K8"]
    assert is_complete([*base, "R9", "B9", "K9"], Y6)
    assert not is_complete([*base, "R9", "R9", "K9"], Y6)
    assert not is_complete([*base, "B9", "B9", "F"], Y6)


def _is_seven_pairs_by_hand(tiles: list[str], indicator: str) -> bool:
    """Seven pairs checked directly: pair off identical tiles, wilds take one single each."""
    okey = okey_of(indicator)
    plain = Counter(t for t in tiles if t != okey)
    wilds = len(tiles) - sum(plain.values())
    singles = sum(c % 2 for c in plain.values())
    return len(tiles) == 14 and singles <= wilds and (wilds - singles) % 2 == 0


@cache
def _melds_by_hand(rest: tuple[str, ...], indicator: str) -> bool:
    """Can every tile be laid in melds of 3-5 tiles (a longer run is two shorter ones)?"""
    if not rest:
        return True
    first, others = rest[0], rest[1:]
    for size in (3, 4, 5):
        for picked in combinations(range(len(others)), size - 1):
            if meld_kind([first, *(others[j] for j in picked)], indicator) in ("set", "run"):
                left = tuple(t for j, t in enumerate(others) if j not in picked)
                if _melds_by_hand(left, indicator):
                    return True
    return False


# five pairs; each case adds four tiles
FIVE_PAIRS = ["R1", "R1", "Y2", "Y2", "B3", "B3", "K5", "K5", "R7", "R7"]


@pytest.mark.parametrize(
    ("tiles", "expected"),
    [
        ([*FIVE_PAIRS, "Y9", "Y9", "B11", "B11"], True),
        # a wild pairs with any tile
        ([*FIVE_PAIRS, "Y9", "Y9", "B11", "Y7"], True),
        # two wilds pair with two singles
        ([*FIVE_PAIRS, "Y9", "Y7", "B11", "Y7"], True),
        # two wilds pair together
        ([*FIVE_PAIRS, "Y9", "Y9", "Y7", "Y7"], True),
        # two false jokers are a pair
        ([*FIVE_PAIRS, "Y9", "Y9", "F", "F"], True),
        # F pairs with a wild (the okey) but not with another tile
        ([*FIVE_PAIRS, "Y9", "Y9", "F", "Y7"], True),
        ([*FIVE_PAIRS, "Y9", "Y9", "F", "R13"], False),
        # same number, different colours is not a pair
        ([*FIVE_PAIRS, "Y9", "Y9", "B11", "K11"], False),
    ],
)
def test_seven_pairs(tiles: list[str], expected: bool) -> None:
    assert is_complete(tiles, Y6) is expected
    assert _is_seven_pairs_by_hand(tiles, Y6) is expected


@st.composite
def _near_hands(draw: st.DrawFn) -> tuple[list[str], str]:
    """14 tiles from a narrow window of numbers, with the okey and F now and then."""
    indicator = draw(indicators)
    okey = okey_of(indicator)
    tiles = draw(dense_racks(min_size=12, max_size=14))
    tiles = [t for t in tiles if t != okey][:14]
    extra = draw(st.lists(st.sampled_from([okey, "F"]), max_size=2))
    tiles = (tiles + extra)[:14]
    while len(tiles) < 14:
        tiles.append(next(t for t in NAMES if t != okey and tiles.count(t) < 2))
    return tiles, indicator


@settings(max_examples=60)
@given(_near_hands())
def test_is_complete_agrees_with_a_hand_check(case: tuple[list[str], str]) -> None:
    tiles, indicator = case
    if any(tiles.count(t) > 2 for t in tiles):
        return
    expected = _is_seven_pairs_by_hand(tiles, indicator) or _melds_by_hand(
        tuple(sorted(tiles)), indicator
    )
    assert is_complete(tiles, indicator) is expected


def test_winning_discards_on_a_15_tile_rack() -> None:
    hand = [*MELDS_WITH_F[:13], "Y7"]
    assert winning_discards([*hand, "K9"], Y6) == ["K9"]
    # with a wild in a finished rack any tile may go: the wild takes its place
    rest = ["R1", "R2", "R3", "B11", "B12", "B13", "K4", "K5", "K6", "K7", "K8", "R9", "B9", "K9"]
    assert winning_discards([*rest, "Y7"], Y6) == [*rest, "Y7"]
    assert winning_discards(["Y7", *rest[::-1]], Y6) == ["Y7", *rest[::-1]]
    # K4..K8 gives two ways: drop K4 or K8 from the run (each name once, in rack order)
    rack = ["K4", "K5", "K6", "K7", "K8", "R1", "R2", "R3", "B11", "B12", "B13", "R9", "B9", "K9"]
    assert winning_discards([*rack, "K4"], Y6) == ["K4"]
    assert winning_discards([*rack[:4], *rack[5:], "Y9", "Y10"], Y6) == ["Y10"]  # Y9 joins the 9s
    assert winning_discards([*rack[:4], *rack[5:], "Y1", "Y12"], Y6) == []
    with pytest.raises(ValueError, match="15"):
        winning_discards(rack, Y6)


# --- the round: starter, turns, take sources ----------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_starter_gets_15_and_discards_without_drawing(players: int) -> None:
    game = new(PLAYERS[:players], _seed(players))
    starter = game.starter
    assert len(game.racks[starter]) == 15
    assert all(len(r) == 14 for s, r in enumerate(game.racks) if s != starter)
    _refused(game, starter, Action("take", source="stock"), "must_discard")
    tile = game.racks[starter][0]
    game.apply(starter, Action("discard", cards=(tile,)))
    nxt = (starter + 1) % players
    assert game.to_act() == nxt
    _refused(game, nxt, Action("discard", cards=(game.racks[nxt][0],)), "must_take")
    # the next player may take the starter's discard
    assert game.view(nxt)["sources"] == ["stock", "discard"]
    events = game.apply(nxt, Action("take", source="discard"))
    assert events[0].data == {"seat": nxt, "source": "discard", "tile": tile, "from_seat": starter}


def test_three_players_take_only_from_the_previous_player() -> None:
    piles = {0: ["R2"], 1: ["B9"], 2: ["K11"]}
    game = _position({}, players=3, turn=0, phase="take", piles=piles)
    events = game.apply(0, Action("take", source="discard"))
    assert events[0].data["tile"] == "K11" and events[0].data["from_seat"] == 2
    game = _position({}, players=3, turn=1, phase="take", piles=piles)
    assert game.apply(1, Action("take", source="discard"))[0].data["tile"] == "R2"
    # the seat before has an empty pile: only the stock
    game = _position({}, players=3, turn=1, phase="take", piles={1: ["B9"], 2: ["K11"]})
    assert game.view(1)["sources"] == ["stock"]
    _refused(game, 1, Action("take", source="discard"), "discard_pile_empty")


def test_two_players_take_from_the_opponent() -> None:
    game = _position({}, players=2, turn=0, phase="take", piles={0: ["R2"], 1: ["B9"]})
    assert game.apply(0, Action("take", source="discard"))[0].data["tile"] == "B9"


def test_a_finish_needs_the_other_14_complete() -> None:
    rack = [*MELDS_WITH_F[:13], "Y7", "K9"]
    game = _position({0: rack}, indicator=Y6)
    error = _refused(game, 0, Action("finish", cards=("R1",)), "not_complete")
    assert not TILE_TOKEN.search(str(error))
    events = game.apply(0, Action("finish", cards=("K9",)))
    assert events[0].kind == "finished"
    assert sorted(t for m in events[0].data["melds"] for t in m) == sorted(rack[:14])
    assert game.penalties == [0, 20, 20, 20]


def test_a_finish_before_any_draw_by_the_starter_counts() -> None:
    rack = [*MELDS_WITH_F[:13], "Y7", "K9"]
    game = _position({0: rack}, indicator=Y6, started=[False] * 4)
    game.apply(0, Action("finish", cards=("K9",)))
    assert game.result is not None and game.result["winner"] == 0


# --- the indicator ------------------------------------------------------------------------------


def test_showing_the_indicator_twin_before_the_first_draw_charges_10_each_once() -> None:
    # seat 1 holds K3 (the indicator's twin); the starter (seat 0) has discarded
    twin = ["K3", "R1", "R2", "R4", "B5", "B7", "Y9", "Y11", "K13", "R13", "B13", "Y1", "Y2", "B1"]
    game = _position({1: twin}, turn=1, phase="take", started=[True, False, False, False])
    assert game.view(1)["can_show_indicator"] is True
    assert game.view(None)["indicator_shown_by"] is None
    events = game.apply(1, Action("show_indicator"))
    assert events[0].public and events[0].data["tile"] == "K3"
    assert game.penalties == [10, 0, 10, 10]
    _refused(game, 1, Action("show_indicator"), "cannot_show_indicator")
    game.apply(1, Action("take", source="stock"))
    game.apply(1, Action("discard", cards=(game.racks[1][-1],)))
    assert game.penalties == [10, 0, 10, 10]


def test_the_indicator_twin_is_shown_only_before_the_first_draw() -> None:
    twin = ["K3", "R1", "R2", "R4", "B5", "B7", "Y9", "Y11", "K13", "R13", "B13", "Y1", "Y2", "B1"]
    game = _position({1: twin}, turn=1, phase="take", started=[True, False, False, False])
    game.apply(1, Action("take", source="stock"))
    assert game.view(1)["can_show_indicator"] is False
    _refused(game, 1, Action("show_indicator"), "cannot_show_indicator")


def test_the_starter_shows_before_the_first_discard_but_not_after() -> None:
    twin = ["K3", "R1", "R2", "R4", "B5", "B7", "Y9", "Y11", "K13", "R13", "B13", "Y1", "Y2", "B1"]
    game = _position({0: [*twin, "K12"]}, turn=0, phase="discard", started=[False] * 4)
    assert "show_indicator" in [s.kind for s in game.legal_actions(0)]
    late = OkeyRound.from_dict(game.to_dict())
    game.apply(0, Action("show_indicator"))
    assert game.penalties == [0, 10, 10, 10]
    late.apply(0, Action("discard", cards=("K12",)))
    assert late.view(0)["can_show_indicator"] is False


def test_classic_showing_takes_one_point() -> None:
    twin = ["K3", "R1", "R2", "R4", "B5", "B7", "Y9", "Y11", "K13", "R13", "B13", "Y1", "Y2", "B1"]
    game = _position(
        {1: twin}, turn=1, phase="take", started=[True, False, False, False], preset="classic"
    )
    game.apply(1, Action("show_indicator"))
    assert game.penalties == [1, 0, 1, 1]


# --- the stock running out ----------------------------------------------------------------------


def test_stock_exhausted_ends_without_score_but_a_shown_indicator_stands() -> None:
    twin = ["K3", "R1", "R2", "R4", "B5", "B7", "Y9", "Y11", "K13", "R13", "B13", "Y1", "Y2", "B1"]
    game = _position({1: twin}, turn=1, phase="take", started=[True, False, True, True], stock=0)
    game.apply(1, Action("show_indicator"))
    events = game.apply(1, Action("take", source="stock"))
    assert [e.kind for e in events] == ["stock_exhausted", "round_over"]
    assert game.finished and game.penalties == [10, 0, 10, 10]
    assert game.legal_actions(1) == [] and game.to_act() is None
    _refused(game, 1, Action("take", source="discard"), "round_over")


def test_the_last_stock_tile_is_drawn_and_the_round_goes_on() -> None:
    game = _position({}, players=2, turn=1, phase="take", stock=1)
    game.apply(1, Action("take", source="stock"))
    assert game.view(None)["stock"] == 0 and not game.finished
    game.apply(1, Action("discard", cards=(game.racks[1][0],)))
    assert game.view(0)["sources"] == ["stock", "discard"]
    game.apply(0, Action("take", source="stock"))
    assert game.finished and game.result == {"reason": "stock_exhausted", "winner": None}


# --- finish scoring -----------------------------------------------------------------------------

FINISHED = ["R1", "R2", "R3", "B11", "B12", "B13", "K4", "K5", "K6", "K7", "K8", "R9", "B9", "K9"]
PAIRS = [*FIVE_PAIRS, "Y9", "Y9", "B11", "B11"]


@pytest.mark.parametrize(
    ("hand", "discard", "preset", "charge"),
    [
        (FINISHED, "Y13", "penalty", 20),
        (FINISHED, "Y7", "penalty", 60),  # 20 + 40 for the okey discard
        (FINISHED, "F", "penalty", 20),  # F is not wild: a plain finish
        (PAIRS, "Y13", "penalty", 20),
        (PAIRS, "Y7", "penalty", 60),
        (FINISHED, "Y13", "classic", 2),
        (FINISHED, "Y7", "classic", 4),
        (PAIRS, "Y13", "classic", 4),
        (PAIRS, "Y7", "classic", 4),
    ],
)
def test_finish_charges(hand: list[str], discard: str, preset: str, charge: int) -> None:
    game = _position({2: [*hand, discard]}, indicator=Y6, turn=2, preset=preset)
    events = game.apply(2, Action("finish", cards=(discard,)))
    assert events[-1].data["charge"] == charge
    assert game.penalties == [charge, charge, 0, charge]
    assert game.piles[2][-1] == discard
    assert events[0].data["okey_discard"] is (discard == "Y7")


def test_a_wild_discarded_without_finishing_scores_nothing() -> None:
    game = _position({0: [*FINISHED[:13], "Y7", "Y13"]}, indicator=Y6)
    game.apply(0, Action("discard", cards=("Y7",)))
    assert game.penalties == [0, 0, 0, 0] and not game.finished


# --- the match and its payout -------------------------------------------------------------------


def _play_out(match: OkeyMatch) -> None:
    while match.to_act() is not None:
        seat = match.to_act()
        assert seat is not None and match.round is not None
        match.apply(seat, auto_action(match.round, seat))


@pytest.mark.parametrize("rounds", [1, 3])
def test_a_penalty_match_is_1_or_3_rounds(rounds: int) -> None:
    match = OkeyMatch.new(PLAYERS[:3], {"rounds": rounds})
    played = 0
    while match.needs_round:
        played += 1
        match.start_round(_seed(500 + played))
        _play_out(match)
    assert played == rounds and match.finished
    with pytest.raises(ValueError):
        match.start_round(_seed(999))
    with pytest.raises(IllegalAction):
        match.apply(0, Action("take", source="stock"))


@pytest.mark.parametrize("rounds", [2, 0, 5, "3", True])
def test_other_round_counts_are_refused(rounds: object) -> None:
    with pytest.raises(ValueError, match="rounds"):
        OkeyMatch.new(PLAYERS[:2], {"rounds": rounds})


@pytest.mark.parametrize(
    ("charged", "pool", "threshold", "expected"),
    [
        # 1 round (under 40): 75% to the lowest, 25% among the others under 40
        ([0, 20, 20, 20], 400, 40, [301, 33, 33, 33]),
        ([0, 39, 40, 60], 400, 40, [300, 100, 0, 0]),
        ([20, 60, 60, 60], 400, 40, [400, 0, 0, 0]),  # nobody qualifies: all to the winner
        # 3 rounds (under 80)
        ([40, 79, 80, 120], 400, 80, [300, 100, 0, 0]),
        ([0, 60, 60], 300, 80, [226, 37, 37]),
        # ties for lowest share the 75%; odd chips go to the winners in seat order
        ([20, 0, 0, 30], 403, 40, [50, 152, 151, 50]),
        ([20, 0, 0, 40], 403, 40, [100, 152, 151, 0]),
        ([10, 10, 10, 10], 7, 40, [2, 2, 2, 1]),
        ([0, 0, 60], 5, 40, [3, 2, 0]),
    ],
)
def test_payout(charged: list[int], pool: int, threshold: int, expected: list[int]) -> None:
    assert payout(charged, pool, threshold) == expected


@settings(max_examples=200)
@given(
    st.lists(st.integers(0, 300), min_size=2, max_size=4),
    st.integers(0, 10**7),
    st.sampled_from([40, 80]),
)
def test_payout_never_creates_or_loses_a_chip(charged: list[int], pool: int, limit: int) -> None:
    paid = payout(charged, pool, limit)
    assert sum(paid) == pool and all(p >= 0 for p in paid)
    best = min(charged)
    winners = [s for s, c in enumerate(charged) if c == best]
    others = [s for s, c in enumerate(charged) if c != best and c < limit]
    quarter = pool * 25 // 100
    if others:
        assert {paid[s] for s in others} == {quarter // len(others)}
    # the winners split the rest evenly, the odd chips to the earliest seats
    shares = [paid[s] for s in winners]
    assert shares == sorted(shares, reverse=True) and shares[0] - shares[-1] <= 1
    assert sum(shares) >= pool - quarter
    assert all(paid[s] == 0 for s in range(len(charged)) if s not in winners and s not in others)


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 4), st.sampled_from([1, 3]), st.integers(0, 10**6), st.integers(1, 5000))
def test_matches_never_create_or_lose_chips(
    players: int, rounds: int, salt: int, buy_in: int
) -> None:
    match = OkeyMatch.new(PLAYERS[:players], {"rounds": rounds})
    k = 0
    while match.needs_round:
        k += 1
        match.start_round(_seed(salt * 10 + k))
        _play_out(match)
    paid = match.payout(buy_in * players)
    assert sum(paid) == buy_in * players and all(p >= 0 for p in paid)
    winners = match.winners()
    shares = [paid[s] for s in winners]
    assert max(shares) - min(shares) <= 1
    assert all(paid[s] <= min(shares) for s in range(players) if s not in winners)


def test_classic_match_plays_until_someone_reaches_zero() -> None:
    match = OkeyMatch.new(PLAYERS[:2], {"preset": "classic"})
    assert match.totals == [20, 20]
    k = 0
    while match.needs_round:
        k += 1
        assert k < 60, "a classic match did not end"
        match.start_round(_seed(700 + k))
        _play_out(match)
    assert min(match.totals) == 0 and all(t >= 0 for t in match.totals)
    assert match.totals[match.winners()[0]] == max(match.totals)
    assert sum(match.payout(200)) == 200


# --- the engine's promises ----------------------------------------------------------------------


def _bad_moves(game: OkeyRound, seat: int) -> list[Action]:
    """Moves a careless or curious player tries: each must be refused."""
    others = [t for s, r in enumerate(game.racks) if s != seat for t in r]
    hidden = [t for t in [*others, *game.stock] if t not in game.racks[seat]]
    moves = [
        Action("bet", amount=5),
        Action("take", source="table"),
        Action("take", source=None),
        Action("discard", cards=()),
        Action("discard", cards=("Z9",)),
        Action("finish", cards=("X",)),
    ]
    if hidden:
        moves += [Action("discard", cards=(hidden[0],)), Action("finish", cards=(hidden[-1],))]
    if game.phase == "take":
        moves.append(Action("discard", cards=(game.racks[seat][0],)))
    else:
        moves += [
            Action("take", source="stock"),
            Action("discard", cards=tuple(game.racks[seat][:2])),
        ]
    if not game.view(seat)["can_show_indicator"]:
        moves.append(Action("show_indicator"))
    return moves


def _hidden_from(game: OkeyRound, seat: int) -> set[str]:
    seen = set(game.racks[seat]) | {game.indicator} | {t for p in game.piles for t in p}
    unseen = {t for s, r in enumerate(game.racks) if s != seat for t in r} | set(game.stock)
    return unseen - seen


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10**6), st.integers(0, 40))
def test_refused_moves_change_nothing_and_name_no_hidden_tile(
    players: int, salt: int, moves: int
) -> None:
    game = new(PLAYERS[:players], _seed(salt))
    for _ in range(moves):
        seat = game.to_act()
        if seat is None:
            break
        game.apply(seat, auto_action(game, seat))
    seat = game.to_act()
    if seat is None:
        return
    wrong = (seat + 1) % players
    tries = [(seat, a) for a in _bad_moves(game, seat)]
    tries.append((wrong, Action("take", source="stock")))
    for who, action in tries:
        before = json.dumps(game.to_dict(), sort_keys=True)
        with pytest.raises(IllegalAction) as info:
            game.apply(who, action)
        assert json.dumps(game.to_dict(), sort_keys=True) == before, (action, info.value.code)
        said = str(info.value) + json.dumps(info.value.params, default=str)
        typed = set(action.cards)
        named = set(TILE_TOKEN.findall(said)) - typed
        assert not named & _hidden_from(game, who), (action, said)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10**6))
def test_the_public_view_never_shows_a_rack_or_the_stock(players: int, salt: int) -> None:
    game = new(PLAYERS[:players], _seed(salt))
    while True:
        view = game.view(None)
        assert not {"hand", "sources", "can_show_indicator", "racks"} & set(view)
        assert isinstance(view["stock"], int)
        assert ("seed" in view) is game.finished
        text = json.dumps(view)
        assert text == json.dumps(json.loads(text))
        # every tile listed in public is a discard or the indicator, never a rack or the stock
        listed = Counter(t for pile in view["discard_piles"] for t in pile)
        assert listed == Counter(t for pile in game.piles for t in pile)
        assert sum(view["rack_sizes"]) + view["stock"] + sum(listed.values()) + 1 == 106
        seat = game.to_act()
        if seat is None:
            break
        game.apply(seat, auto_action(game, seat))


def _random_move(game: OkeyRound, seat: int, draw: st.DrawFn) -> Action:
    kinds = [spec.kind for spec in game.legal_actions(seat)]
    kind = draw(st.sampled_from(kinds))
    if kind == "take":
        return Action("take", source=draw(st.sampled_from(game.view(seat)["sources"])))
    if kind in ("discard", "finish"):
        return Action(kind, cards=(draw(st.sampled_from(game.racks[seat])),))
    return Action(kind)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10**6), st.integers(0, 30), st.data())
def test_a_snapshot_plays_on_identically(
    players: int, salt: int, before: int, data: st.DataObject
) -> None:
    game = new(PLAYERS[:players], _seed(salt))
    for _ in range(before):
        seat = game.to_act()
        if seat is None:
            return
        game.apply(seat, auto_action(game, seat))
    copy = OkeyRound.from_dict(json.loads(json.dumps(game.to_dict())))
    for _ in range(40):
        seat = game.to_act()
        assert copy.to_act() == seat
        if seat is None:
            break
        action = _random_move(game, seat, data.draw)
        try:
            mine = [e.to_dict() for e in game.apply(seat, action)]
        except IllegalAction as error:
            with pytest.raises(IllegalAction) as again:
                copy.apply(seat, action)
            assert again.value.code == error.code
            continue
        assert [e.to_dict() for e in copy.apply(seat, action)] == mine
        assert copy.to_dict() == game.to_dict()
        assert copy.view(None) == game.view(None)


def test_a_snapshot_shares_nothing_with_the_round() -> None:
    game = _position({0: [*FINISHED, "Y13"]}, indicator=Y6)
    game.apply(0, Action("finish", cards=("Y13",)))
    frozen = json.dumps(game.to_dict())
    snapshot = game.to_dict()
    snapshot["result"]["melds"][0].append("R13")
    snapshot["racks"][1].append("R13")
    assert json.dumps(game.to_dict()) == frozen
    copy = OkeyRound.from_dict(game.to_dict())
    data = game.to_dict()
    copy.result["melds"][0].append("R13")  # type: ignore[index]
    assert game.to_dict() == data


def test_a_match_snapshot_shares_nothing_with_the_match() -> None:
    match = OkeyMatch.new(PLAYERS[:2])
    match.start_round(_seed(41))
    _play_out(match)
    frozen = json.dumps(match.to_dict())
    snapshot = match.to_dict()
    snapshot["history"][0]["penalties"].append(99)
    match.view(None)["history"][0]["penalties"].append(99)
    assert json.dumps(match.to_dict()) == frozen


@pytest.mark.parametrize("cards", [None, "R5", [], ("R5", "R6"), 7])
def test_malformed_tiles_in_a_move_are_refused_cleanly(cards: object) -> None:
    game = _position({0: [*FINISHED, "Y13"]}, indicator=Y6)
    for kind in ("discard", "finish"):
        _refused(game, 0, Action(kind, cards=cards), "one_tile")  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", ["0", 1.0, True, -1, 4, None])
def test_view_of_a_seat_that_is_not_at_the_table(seat: object) -> None:
    game = _position({}, players=4, turn=1, phase="take")
    if seat is None:
        assert "hand" not in game.view(None)
        return
    with pytest.raises(ValueError, match="seat"):
        game.view(seat)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "options", [{"rounds": 1.0}, {"rounds": 3.0}, {"preset": ["penalty"]}, {"preset": "PENALTY"}]
)
def test_options_of_the_wrong_type_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=r"rounds|preset"):
        OkeyMatch.new(PLAYERS[:2], options)
    with pytest.raises(ValueError, match=r"rounds|preset"):
        new(PLAYERS[:2], _seed(1), options)


def _match_after(charged: list[int], rounds: int, preset: str = "penalty") -> OkeyMatch:
    """A finished match with the given charged totals (rounds already played)."""
    played = rounds if preset == "penalty" else 1
    history = [
        {"reason": "stock_exhausted", "winner": None, "penalties": [0] * len(charged), "seed": ""}
    ] * played
    return OkeyMatch.from_dict(
        {
            "players": PLAYERS[: len(charged)],
            "options": {"rounds": rounds, "preset": preset},
            "charged": charged,
            "history": history,
            "round": None,
        }
    )


@pytest.mark.parametrize(
    ("charged", "rounds", "preset", "expected"),
    [
        ([0, 39, 40, 60], 1, "penalty", [300, 100, 0, 0]),
        ([40, 79, 80, 120], 3, "penalty", [300, 100, 0, 0]),
        ([40, 79, 80, 120], 1, "penalty", [400, 0, 0, 0]),
        ([60, 20, 20], 3, "penalty", [100, 150, 150]),
        ([80, 20, 20], 3, "penalty", [0, 200, 200]),
        # classic: most points left wins; the 25% to the others still above 0
        ([20, 14, 18, 24], 1, "classic", [0, 300, 100, 0]),
    ],
)
def test_match_payout_uses_the_threshold_of_its_length(
    charged: list[int], rounds: int, preset: str, expected: list[int]
) -> None:
    match = _match_after(charged, rounds, preset)
    assert match.finished and not match.needs_round
    assert match.payout(400) == expected
    if preset == "classic":
        assert match.totals == [max(0, 20 - c) for c in charged]
        assert match.winners() == [1]


def test_a_taken_discard_may_be_thrown_straight_back() -> None:
    game = _position({}, players=2, turn=0, phase="take", piles={1: ["B9"]})
    game.apply(0, Action("take", source="discard"))
    events = game.apply(0, Action("discard", cards=("B9",)))
    assert events[0].data == {"seat": 0, "tile": "B9"}
    assert game.piles == [["B9"], []]


def test_finish_is_offered_only_with_a_winning_discard() -> None:
    ready = _position({0: [*FINISHED, "Y13"]}, indicator=Y6)
    assert "finish" in [s.kind for s in ready.legal_actions(0)]
    stuck = _position({0: [*FINISHED[:13], "Y12", "Y13"]}, indicator=Y6)
    assert [s.kind for s in stuck.legal_actions(0)] == ["discard"]
    _refused(stuck, 0, Action("finish", cards=("Y13",)), "not_complete")


def test_refused_match_moves_change_nothing() -> None:
    match = OkeyMatch.new(PLAYERS[:3])
    before = match.to_dict()
    with pytest.raises(IllegalAction) as info:
        match.apply(0, Action("take", source="stock"))
    assert info.value.code == "no_round" and match.to_dict() == before
    match.start_round(_seed(77))
    seat = match.to_act()
    assert seat is not None and match.round is not None
    for who, action in [
        ((seat + 1) % 3, Action("discard", cards=("R1",))),
        (seat, Action("take", source="stock")),
        (seat, Action("show_indicator")),
        (seat, Action("finish", cards=(match.round.racks[seat][0],))),
    ]:
        if (
            who == seat
            and action.kind == "show_indicator"
            and match.view(seat)["can_show_indicator"]
        ):
            continue
        before = match.to_dict()
        with pytest.raises(IllegalAction):
            match.apply(who, action)
        assert match.to_dict() == before


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10**6), st.integers(0, 60))
def test_a_match_snapshot_plays_on_identically(players: int, salt: int, cut: int) -> None:
    match = OkeyMatch.new(PLAYERS[:players], {"rounds": 3})
    copy: OkeyMatch | None = None
    step = 0
    k = 0
    while match.needs_round or match.to_act() is not None:
        if match.needs_round:
            k += 1
            events = match.start_round(_seed(salt * 7 + k))
            if copy is not None:
                assert [e.to_dict() for e in copy.start_round(_seed(salt * 7 + k))] == [
                    e.to_dict() for e in events
                ]
            continue
        if step == cut:
            copy = OkeyMatch.from_dict(json.loads(json.dumps(match.to_dict())))
        step += 1
        seat = match.to_act()
        assert seat is not None and match.round is not None
        action = auto_action(match.round, seat)
        events = match.apply(seat, action)
        if copy is not None:
            assert [e.to_dict() for e in copy.apply(seat, action)] == [e.to_dict() for e in events]
            assert copy.to_dict() == match.to_dict()
    assert match.finished
    if copy is not None:
        assert copy.finished and copy.payout(300) == match.payout(300)
