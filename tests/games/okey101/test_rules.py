"""One scenario per line of shared/rules/okey101.md, named after the rule it checks.

Rigged rounds use indicator K3, so the okey (wild) is K4 and a false joker F plays as a plain K4.
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.base import Action
from games.okey.tiles import full_set, okey_of
from games.okey101 import Match101, new, read_meld
from games.okey101.melds import meld_value
from games.okey101.scoring import check_options

from .helpers import PLAYERS, act, fill, refused, rigged, run, seed, set_of

OKEY = "K4"
OPEN_109 = "R10 R11 R12 R13 / B9 Y9 K9 / Y11 Y12 Y13"  # 46 + 27 + 36
# 15 tiles that form no set, run nor more than four pairs, even with R13, Y6 or each other
SCATTER = [
    "R1",
    "R4",
    "R7",
    "Y2",
    "Y5",
    "Y8",
    "B3",
    "B6",
    "K1",
    "K5",
    "K13",
    "R1",
    "R4",
    "Y2",
    "B3",
]
NO_MELDS = [*SCATTER, "B12", "K10", "Y12", "R10", "B9", "K3"]  # 21 tiles


def opener_rack(extra: list[str] | None = None, size: int = 22) -> list[str]:
    return fill(OPEN_109.replace("/", "").split() + (extra or []), size)


# --- Tiles, wilds, seats ---------------------------------------------------------------------


@pytest.mark.parametrize("k", range(20))
def test_106_tiles_indicator_never_false_joker_okey_same_colour_next_number(k: int) -> None:
    game = new(PLAYERS, seed(k))
    assert game.tiles_accounted() == 106
    everything = Counter(game.stock) + Counter([game.indicator])
    for rack in game.racks:
        everything += Counter(rack)
    assert everything == Counter(full_set())
    assert game.indicator != "F"
    colour, number = game.indicator[0], int(game.indicator[1:])
    assert game.okey == f"{colour}{number % 13 + 1}" == okey_of(game.indicator)


def test_okey_after_13_is_1() -> None:
    assert okey_of("B13") == "B1"


def test_both_okeys_are_wild_and_a_false_joker_is_the_okey_tile_not_wild() -> None:
    assert read_meld(["R5", OKEY, "R7"], OKEY)["kind"] == "run"  # the okey stands for R6
    assert read_meld(["R5", "F", "R7"], OKEY) is None  # F is a black 4, not wild
    assert read_meld(["K3", "F", "K5"], OKEY)["kind"] == "run"  # F plays as K4
    assert read_meld(["R4", "B4", "F"], OKEY)["kind"] == "set"


def test_two_three_and_four_players_play_the_same_rules() -> None:
    for n in (2, 3, 4):
        game = new(PLAYERS[:n], seed(n))
        assert sorted(len(r) for r in game.racks) == [21] * (n - 1) + [22]
    with pytest.raises(ValueError):
        new(PLAYERS[:1], seed(1))


def test_partners_option_needs_four_players_seats_1_3_and_2_4_together() -> None:
    with pytest.raises(ValueError):
        new(PLAYERS[:3], seed(1), {"partners": True})
    match = Match101.new(PLAYERS, {"partners": True, "rounds": 1})
    match.totals = [10, 20, 30, 40]
    assert match.side_totals() == [40, 60]  # seats 1+3 (0, 2) and 2+4 (1, 3)


def test_partners_side_round_penalty_is_the_sum_of_its_two_players() -> None:
    match = Match101.new(PLAYERS, {"partners": True, "rounds": 1})
    match.start_round(seed(3))
    game = match.round
    assert game is not None
    game.stock = []
    game.phase, game.turn = "take", 1
    game.piles[0] = ["R1"]
    game.racks[1] = ["R2", "B9"]  # cannot use R1: taking from the empty stock ends the round
    match.apply(1, act("take", source="stock"))
    scores = game.result["round_scores"]
    assert match.side_totals() == [scores[0] + scores[2], scores[1] + scores[3]]


def test_no_indicator_show_bonus_in_101() -> None:
    game = new(PLAYERS, seed(1))
    refused(game, game.turn, Action("show_indicator"), "unknown_action")


# --- Deal and turns -------------------------------------------------------------------------


def test_21_tiles_each_the_starter_gets_22_and_begins_by_discarding_without_drawing() -> None:
    game = new(PLAYERS, seed(5))
    starter = game.starter
    assert len(game.racks[starter]) == 22 and game.to_act() == starter
    assert all(len(r) == 21 for s, r in enumerate(game.racks) if s != starter)
    assert len(game.stock) == 106 - 22 - 3 * 21 - 1
    refused(game, starter, act("take", source="stock"), "must_discard")
    game.apply(starter, act("discard", game.racks[starter][0]))
    assert len(game.racks[starter]) == 21 and game.to_act() == (starter + 1) % 4


def test_a_turn_is_draw_or_take_then_optional_laying_then_exactly_one_discard() -> None:
    game = rigged({1: fill([], 21)}, turn=1, phase="take", stock=10)
    refused(game, 1, act("discard", game.racks[1][0]), "must_take")
    game.apply(1, act("take", source="stock"))
    assert len(game.racks[1]) == 22 and game.to_act() == 1
    refused(game, 1, act("discard", "R1 Y3"), "one_tile")
    game.apply(1, act("discard", "R1"))
    assert game.to_act() == 2 and game.phase == "take"


def test_nobody_lays_down_their_last_tile_the_last_tile_is_discarded() -> None:
    table = [run(5, ["R5", "R6", "R7"])]
    game = rigged({0: ["R8", "B2"]}, table=table, opened={0: "series"})
    game.apply(0, act("add", "R8", amount=0))
    refused(game, 0, act("add", "B2", amount=0), "does_not_fit")
    game2 = rigged({0: ["R8"]}, table=table, opened={0: "series"})
    refused(game2, 0, act("add", "R8", amount=0), "keep_one")
    events = game2.apply(0, act("discard", "R8"))
    assert game2.finished and game2.result["winner"] == 0
    assert any(e.kind == "finished" for e in events)


# --- Melds and their value ------------------------------------------------------------------


def test_set_is_3_or_4_of_one_number_in_different_colours() -> None:
    assert read_meld(["R7", "Y7", "B7"], OKEY)["kind"] == "set"
    assert read_meld(["R7", "Y7", "B7", "K7"], OKEY)["kind"] == "set"
    assert read_meld(["R7", "R7", "B7"], OKEY) is None
    assert read_meld(["R7", "Y7"], OKEY) is None


def test_run_is_3_or_more_consecutive_of_one_colour_1_low_only_nothing_wraps() -> None:
    assert read_meld(["R1", "R2", "R3"], OKEY)["kind"] == "run"
    assert read_meld(["R12", "R13", "R1"], OKEY) is None
    assert read_meld(["R13", "R1", "R2"], OKEY) is None
    assert read_meld(["R12", "R13", OKEY], OKEY)["lo"] == 11  # the wild cannot be a 14
    assert read_meld(["R5", "R6", "Y7"], OKEY) is None
    assert len(read_meld([f"B{n}" for n in range(1, 14)], OKEY)["tiles"]) == 13


def test_a_wild_counts_as_the_tile_it_stands_for_a_false_joker_as_the_okey_tile() -> None:
    assert meld_value(read_meld(["R9", OKEY, "R11"], OKEY)) == 30
    assert meld_value(read_meld(["R13", "Y13", OKEY], OKEY)) == 39
    assert meld_value(read_meld(["K3", "F", "K5"], OKEY)) == 12


def test_a_melds_value_is_the_sum_of_its_numbers() -> None:
    assert meld_value(read_meld(["R7", "Y7", "B7"], OKEY)) == 21
    assert meld_value(read_meld(["R9", "R10", "R11"], OKEY)) == 30


# --- Opening ---------------------------------------------------------------------------------


def test_open_by_series_after_drawing_with_melds_worth_at_least_101() -> None:
    game = rigged({0: opener_rack(size=21)}, phase="take")
    refused(game, 0, act("open", OPEN_109), "must_take")
    game.apply(0, act("take", source="stock"))
    events = game.apply(0, act("open", OPEN_109))
    assert game.opened[0] == "series" and game.opening_values[0] == 109
    assert len(game.table) == 3 and len(game.racks[0]) == 12
    assert [e.kind for e in events if e.public] == ["opened"]


def test_open_option_sets_a_higher_threshold() -> None:
    with pytest.raises(ValueError):
        check_options({"open": 100})
    game = rigged({0: opener_rack()}, options={"open": 120})
    error = refused(game, 0, act("open", OPEN_109), "below_threshold")
    assert error.params == {"total": 109, "need": 120}


def test_open_by_five_pairs_an_okey_pairs_with_any_tile_a_false_joker_with_the_okey_tile() -> None:
    pairs = "R1 R1 / Y2 Y2 / B3 B3 / R13 K4 / F F"
    game = rigged({0: fill(pairs.replace("/", "").split(), 22)})
    game.apply(0, act("open", pairs))
    assert game.opened[0] == "pairs" and len(game.table) == 5
    game2 = rigged({0: fill(["R1", "R1", "Y2", "Y2", "B3", "B3", "R13", "R13", "F", "K4"], 22)})
    game2.apply(0, act("open", "R1 R1 / Y2 Y2 / B3 B3 / R13 R13 / F K4"))
    assert game2.opened[0] == "pairs"
    game3 = rigged({0: fill(["R1", "R1", "Y2", "Y2", "B3", "B3", "R5", "R6", "R13", "R13"], 22)})
    refused(game3, 0, act("open", "R1 R1 / Y2 Y2 / B3 B3 / R5 R6 / R13 R13"), "bad_meld")
    refused(game3, 0, act("open", "R1 R1 / Y2 Y2 / B3 B3 / R13 R13"), "too_few_pairs")


def test_a_player_opens_one_way_only() -> None:
    game = rigged({0: opener_rack(["R1", "R1", "Y2", "Y2", "B3", "B3"])})
    refused(game, 0, act("open", "R10 R11 R12 R13 / R1 R1"), "mixed_opening")
    game.apply(0, act("open", OPEN_109))
    refused(game, 0, act("open", "R1 R1 / Y2 Y2 / B3 B3"), "already_opened")


def test_a_series_opener_may_lay_further_melds_of_any_value_but_no_pairs() -> None:
    game = rigged({0: opener_rack(["R1", "Y1", "B1", "R1"])})
    game.apply(0, act("open", OPEN_109))
    refused(game, 0, act("lay", "R1 R1"), "series_only")
    game.apply(0, act("lay", "R1 Y1 B1"))
    assert game.table[-1]["kind"] == "set" and meld_value(game.table[-1]) == 3


def test_a_pairs_opener_may_lay_further_pairs_but_no_melds() -> None:
    pairs = "R1 R1 / Y2 Y2 / B3 B3 / R13 R13 / Y13 Y13"
    game = rigged({0: fill([*pairs.replace("/", "").split(), "B8", "B8", "K8", "R8", "Y8"], 22)})
    game.apply(0, act("open", pairs))
    refused(game, 0, act("lay", "K8 R8 Y8"), "pairs_only")
    game.apply(0, act("lay", "B8 B8"))
    assert game.table[-1]["kind"] == "pair"


def test_pairs_max_limits_how_many_players_may_open_by_pairs() -> None:
    pairs = "R1 R1 / Y2 Y2 / B3 B3 / R13 R13 / Y13 Y13"
    rack = fill(pairs.replace("/", "").split(), 22)
    for limit, code in ((0, "pairs_full"), (1, "pairs_full")):
        game = rigged({0: rack}, opened={2: "pairs"} if limit else {}, options={"pairs_max": limit})
        refused(game, 0, act("open", pairs), code)
    assert check_options({})["pairs_max"] == 3
    with pytest.raises(ValueError):
        check_options({"pairs_max": 5})


def test_an_opening_below_the_threshold_is_refused_with_the_total_and_no_penalty() -> None:
    game = rigged({0: opener_rack()})
    error = refused(game, 0, act("open", "R10 R11 R12 R13 / B9 Y9 K9"), "below_threshold")
    assert error.params["total"] == 73 and "73" in str(error)
    assert game.penalties == [0, 0, 0, 0]


# --- Adding to the table ----------------------------------------------------------------------


def test_only_an_opened_player_adds_on_their_turn_after_drawing() -> None:
    table = [run(5, ["R5", "R6", "R7"])]
    game = rigged({0: fill(["R8"], 21, avoid=("R5", "R7"))}, table=table, phase="take")
    refused(game, 0, act("add", "R8", amount=0), "must_take")
    game.apply(0, act("take", source="stock"))
    refused(game, 0, act("add", "R8", amount=0), "not_opened")
    refused(game, 1, act("add", "R8", amount=0), "not_your_turn")


def test_extend_any_run_at_either_end_or_complete_a_set_anyones_meld() -> None:
    table = [run(5, ["R5", "R6", "R7"], owner=2), set_of(9, ["R9", "Y9", "B9"], owner=3)]
    rack = fill(["R4", "R8", "K9", OKEY], 22, avoid=("R5", "R7", "R9", "Y9", "B9"))
    game = rigged({0: rack}, table=table, opened={0: "series"})
    game.apply(0, act("add", "R4", amount=0))
    game.apply(0, act("add", "R8", amount=0))
    assert game.table[0]["lo"] == 4 and len(game.table[0]["tiles"]) == 5
    refused(game, 0, act("add", "Y9", amount=0), "does_not_fit")
    game.apply(0, act("add", "K9", amount=1))
    refused(game, 0, act("add", OKEY, amount=1), "does_not_fit")  # a set holds four
    game.apply(0, act("add", f"{OKEY} R3", amount=0))  # the wild placed low, as R3
    assert game.table[0]["lo"] == 3 and game.table[0]["tiles"][0] == OKEY


def test_a_wild_okey_in_a_meld_is_taken_back_by_putting_its_tile_in_its_place() -> None:
    table = [run(5, ["R5", OKEY, "R7"], owner=2)]
    rack = fill(["R6"], 22, avoid=("R5", "R7"))
    game = rigged({0: rack}, table=table, opened={0: "series"})
    refused(game, 0, act("swap", "R7", amount=0), "no_okey_to_swap")
    game.apply(0, act("swap", "R6", amount=0))
    assert game.table[0]["tiles"] == ["R5", "R6", "R7"] and OKEY in game.racks[0]
    off = rigged({0: rack}, table=table, opened={0: "series"}, options={"swap_okey": False})
    refused(off, 0, act("swap", "R6", amount=0), "swap_off")


# --- Taking the previous player's discard ------------------------------------------------------


def test_a_non_opener_takes_the_discard_only_to_open_with_it_in_one_move() -> None:
    rack = fill(["R10", "R11", "R12", "B9", "Y9", "K9", "Y11", "Y12", "Y13"], 21, avoid=("R13",))
    game = rigged({0: rack}, phase="take", discard="R13")
    refused(game, 0, act("take", source="discard"), "take_to_use")
    refused(
        game,
        0,
        act("open", "Y11 Y12 Y13 / B9 Y9 K9 / R10 R11 R12", source="discard"),
        "discard_unused",
    )
    assert game.can_use_discard(0)
    game.apply(0, act("open", OPEN_109, source="discard"))
    assert game.opened[0] == "series" and game.piles[3] == [] and game.phase == "play"


def test_a_non_opener_who_cannot_open_with_the_discard_cannot_take_it() -> None:
    rack = ["R10", "R11", "R12", "B9", "Y9", "K9", *SCATTER]
    game = rigged({0: rack}, phase="take", discard="R13")
    assert not game.can_use_discard(0)
    assert [s.kind for s in game.legal_actions(0)] == ["take"]
    refused(game, 0, act("open", "R10 R11 R12 R13 / B9 Y9 K9", source="discard"), "below_threshold")


def test_an_opener_takes_the_discard_only_to_use_it_that_turn() -> None:
    table = [run(5, ["R5", "R6", "R7"], owner=2)]
    rack = fill(["B2", "B3", "B4"], 21, avoid=("R5", "R7"))
    game = rigged({0: rack}, phase="take", table=table, opened={0: "series"}, discard="R8")
    refused(game, 0, act("lay", "B2 B3 B4", source="discard"), "discard_unused")
    game.apply(0, act("add", "R8", amount=0, source="discard"))
    assert len(game.table[0]["tiles"]) == 4 and game.phase == "play"
    rack2 = fill(["B2", "B3"], 21, avoid=("R5", "R7"))
    game2 = rigged({0: rack2}, phase="take", table=table, opened={0: "series"}, discard="B4")
    game2.apply(0, act("lay", "B2 B3 B4", source="discard"))
    assert game2.table[-1]["tiles"] == ["B2", "B3", "B4"]


# --- Penalties during a round -------------------------------------------------------------------


def test_discarding_a_wild_okey_costs_101_even_before_anybody_opened() -> None:
    game = rigged({0: fill([OKEY], 22)})
    events = game.apply(0, act("discard", OKEY))
    assert game.penalties == [101, 0, 0, 0]
    assert [e.data["reason"] for e in events if e.kind == "penalty"] == ["okey"]


def test_discarding_a_tile_that_could_be_added_to_a_meld_costs_101_opened_or_not() -> None:
    table = [run(5, ["R5", "R6", "R7"], owner=2)]
    rack = fill(["R8"], 22, avoid=("R5", "R7"))
    game = rigged({0: rack}, table=table)
    game.apply(0, act("discard", "R8"))
    assert game.penalties[0] == 101 and game.penalty_log[0]["reason"] == "playable"
    game2 = rigged({0: rack}, table=table)
    game2.apply(0, act("discard", "R1"))
    assert game2.penalties[0] == 0


def test_the_last_tile_of_a_finisher_is_exempt() -> None:
    table = [run(5, ["R5", "R6", "R7"], owner=2)]
    game = rigged({0: ["R8"]}, table=table, opened={0: "series"})
    game.apply(0, act("discard", "R8"))
    assert game.result["round_scores"][0] == -101 and game.penalty_log == []


# --- End of a round and scoring ----------------------------------------------------------------


def finished_game(
    last: str, others: dict[int, str | None], doubling: bool = True, by_hand: bool = False
):
    racks = {0: [last], 1: ["R2", "Y3"], 2: ["B5", OKEY], 3: ["K1", "F"]}
    opened = {0: "series", **{s: how for s, how in others.items() if how}}
    game = rigged(racks, opened=opened, options={"doubling": doubling})
    if by_hand:
        game.opened_turn[0] = game.turn_no
    game.apply(0, act("finish", last))
    return game


def test_the_finisher_scores_minus_101_opened_players_their_rack_never_opened_202() -> None:
    game = finished_game("R1", {1: "series", 2: "series", 3: None})
    # B5 + the wild K4 counted as 4; K1 + F (a 4) would be 5 but seat 3 never opened
    assert game.result["round_scores"] == [-101, 5, 9, 202]
    assert game.penalties == [-101, 5, 9, 202]


def test_finishing_with_a_wild_okey_doubles_the_others_and_the_finisher_scores_minus_202() -> None:
    game = finished_game(OKEY, {1: "series", 2: "series", 3: None})
    assert game.result["round_scores"] == [-202, 10, 18, 404]
    assert game.penalty_log == []  # the finishing okey is not a penalty discard


def test_a_pairs_openers_rack_is_doubled_and_doubled_again_when_the_finish_doubles() -> None:
    assert finished_game("R1", {1: "pairs", 2: "series"}).result["round_scores"][1] == 10
    assert finished_game(OKEY, {1: "pairs", 2: "series"}).result["round_scores"][1] == 20


def test_finishing_in_the_turn_one_opens_doubles_the_others() -> None:
    game = finished_game("R1", {1: "series", 2: "series", 3: None}, by_hand=True)
    assert game.result["by_hand"] and game.result["round_scores"] == [-202, 10, 18, 404]
    live = rigged({0: [*OPEN_109.replace("/", "").split(), "R1"]})
    live.apply(0, act("open", OPEN_109))
    live.apply(0, act("discard", "R1"))
    assert live.result["by_hand"] and live.result["factor"] == 2


def test_doubling_off_drops_all_three_doublings() -> None:
    game = finished_game(OKEY, {1: "pairs", 2: "series", 3: None}, doubling=False, by_hand=True)
    assert game.result["round_scores"] == [-101, 5, 9, 202]


def test_discard_penalties_are_added_as_written_never_doubled() -> None:
    racks = {0: [OKEY], 1: ["R2", "Y3"], 2: ["B5", "B6"], 3: ["K1", "K2"]}
    game = rigged(racks, opened={0: "series", 1: "series"})
    game.penalties[1] = 101  # seat 1 discarded a playable tile earlier
    game.apply(0, act("finish", OKEY))
    assert game.penalties[1] == 101 + 10


def test_a_round_ends_when_the_stock_is_empty_and_the_player_to_act_cannot_take() -> None:
    game = rigged(
        {0: fill(["Y6"], 22, avoid=tuple(NO_MELDS)), 1: NO_MELDS}, stock=0, opened={0: "series"}
    )
    events = game.apply(0, act("discard", "Y6"))
    assert game.finished and game.result["reason"] == "stock_exhausted"
    assert any(e.kind == "stock_exhausted" for e in events)


def test_with_the_stock_empty_a_player_who_can_use_the_discard_plays_on() -> None:
    table = [run(10, ["B10", "B11", "B12"], owner=2)]
    game = rigged(
        {0: fill(["B9"], 22, avoid=("B11",)), 1: fill([], 21, avoid=("B9", "B11"))},
        stock=0,
        table=table,
        opened={1: "series"},
    )
    game.apply(0, act("discard", "B9"))  # playable: +101 to seat 0, and seat 1 can add it
    assert not game.finished and game.to_act() == 1
    game.apply(1, act("add", "B9", amount=0, source="discard"))
    assert game.table[0]["lo"] == 9


def test_when_the_stock_runs_out_everyone_scores_and_nobody_gets_minus_101() -> None:
    racks = {0: ["R2", "Y2", "B2"], 1: ["R5", "R6"], 2: ["B5", "B5"], 3: ["K1", "F"]}
    game = rigged(
        racks, stock=0, phase="take", turn=1, opened={0: "series", 2: "pairs"}, discard="K13"
    )
    game.apply(1, act("take", source="stock"))
    assert game.result["reason"] == "stock_exhausted"
    assert game.result["round_scores"] == [6, 202, 20, 202]


# --- Match ---------------------------------------------------------------------------------------


def test_a_match_is_a_fixed_number_of_rounds_lowest_total_wins_ties_share() -> None:
    assert check_options({})["rounds"] == 5
    for bad in (2, 4, 13, 0):
        with pytest.raises(ValueError):
            check_options({"rounds": bad})
    match = Match101.new(PLAYERS[:3], {"rounds": 1})
    match.start_round(seed(1))
    game = match.round
    game.stock = []
    game.racks[game.starter] = ["R2", "R3"]
    nxt = (game.starter + 1) % 3
    game.racks[nxt] = ["B1"]
    events = match.apply(game.starter, act("discard", "R2"))
    assert match.finished and match.totals == [202, 202, 202]
    assert match.winners() == [0, 1, 2]
    assert [e.kind for e in events][-1] == "match_over"


def test_payout_75_to_the_lowest_25_shared_under_101_times_rounds_remainder_to_winner() -> None:
    match = Match101.new(PLAYERS, {"rounds": 1})
    match.history = [{}]
    match.totals = [-101, 50, 100, 300]
    assert match.payout(400) == [300, 50, 50, 0]
    match.totals = [-101, 50, 120, 300]
    assert match.payout(401) == [301, 100, 0, 0]


def test_payout_winner_option_gives_everything_to_the_lowest_total() -> None:
    match = Match101.new(PLAYERS, {"rounds": 1, "payout": "winner"})
    match.history = [{}]
    match.totals = [-101, -101, 100, 300]
    assert match.payout(401) == [201, 200, 0, 0]


def test_partners_share_their_sides_payout_half_each_remainder_to_the_lower_seat() -> None:
    match = Match101.new(PLAYERS, {"rounds": 1, "partners": True})
    match.history = [{}]
    match.totals = [-101, 150, 20, 100]  # sides: 0+2 = -81, 1+3 = 250 (not under 101)
    assert match.payout(401) == [201, 0, 200, 0]
    match.totals = [-101, 40, 20, 50]  # side 1+3 = 90 < 101: it shares the 25%
    assert match.payout(400) == [150, 50, 150, 50]
    assert match.winners() == [0, 2]
