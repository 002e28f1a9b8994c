"""The rulings docs/rules/okey101.md records where the rules file leaves a choice."""

from __future__ import annotations

from games.base import ACTION_KINDS
from games.okey101 import best_opening, new, read_meld

from .helpers import PLAYERS, act, fill, refused, rigged, run, seed, set_of

OKEY = "K4"
OPEN_109 = "R10 R11 R12 R13 / B9 Y9 K9 / Y11 Y12 Y13"
PAIRS = "R1 R1 / Y2 Y2 / B3 B3 / R13 R13 / Y13 Y13"


def tiles_of(text: str) -> list[str]:
    return text.replace("/", "").split()


def test_the_starter_may_open_on_the_first_turn_with_the_22_dealt_tiles() -> None:
    game = rigged({0: fill(tiles_of(OPEN_109), 22)}, phase="play")
    game.turn_no = 0
    game.apply(0, act("open", OPEN_109))
    assert game.opened[0] == "series"


def test_only_the_melds_of_the_open_move_count_toward_the_threshold() -> None:
    game = rigged({0: fill([*tiles_of(OPEN_109), "R1", "Y1", "B1"], 22)})
    refused(game, 0, act("open", "R10 R11 R12 R13 / B9 Y9 K9"), "below_threshold")
    game.apply(0, act("open", OPEN_109))
    game.apply(0, act("lay", "R1 Y1 B1"))
    assert game.opening_values[0] == 109


def test_an_opening_that_would_lay_the_whole_rack_is_refused() -> None:
    game = rigged({0: tiles_of(OPEN_109)})
    refused(game, 0, act("open", OPEN_109), "keep_one")


def test_a_pairs_opener_may_add_to_melds_on_the_table() -> None:
    table = [run(5, ["R5", "R6", "R7"], owner=2)]
    rack = fill([*tiles_of(PAIRS), "R8"], 22, avoid=("R5", "R7"))
    game = rigged({0: rack}, table=table)
    game.apply(0, act("open", PAIRS))
    game.apply(0, act("add", "R8", amount=0))
    assert game.table[0]["tiles"][-1] == "R8"


def test_nothing_is_added_to_a_pair_and_a_bad_meld_index_is_refused() -> None:
    table = [{"kind": "pair", "tiles": ["B8", "B8"], "owner": 2}]
    game = rigged({0: fill(["R8"], 22, avoid=("B8",))}, table=table, opened={0: "series"})
    refused(game, 0, act("add", "R8", amount=0), "does_not_fit")
    refused(game, 0, act("add", "R8", amount=3), "bad_meld_index")
    refused(game, 0, act("add", "R8", amount=True), "bad_meld_index")


def test_a_wild_added_to_a_run_goes_high_unless_the_run_ends_at_13() -> None:
    table = [run(5, ["R5", "R6", "R7"]), run(11, ["B11", "B12", "B13"])]
    rack = fill([OKEY, OKEY], 22, avoid=("R5", "R7", "B11", "B13"))
    game = rigged({0: rack}, table=table, opened={0: "series"})
    game.apply(0, act("add", OKEY, amount=0))
    game.apply(0, act("add", OKEY, amount=1))
    assert game.table[0]["tiles"][-1] == OKEY and game.table[0]["lo"] == 5
    assert game.table[1]["tiles"][0] == OKEY and game.table[1]["lo"] == 10


def test_a_wild_in_a_set_stands_for_any_colour_the_set_lacks() -> None:
    table = [set_of(7, ["R7", "B7", OKEY])]
    game = rigged({0: fill(["Y7"], 22, avoid=("R7", "B7"))}, table=table, opened={0: "series"})
    game.apply(0, act("swap", "Y7", amount=0))
    assert sorted(game.table[0]["tiles"]) == ["B7", "R7", "Y7"] and OKEY in game.racks[0]


def test_putting_the_taken_discard_in_a_wilds_place_uses_it() -> None:
    table = [run(5, ["R5", OKEY, "R7"], owner=2)]
    game = rigged(
        {0: fill([], 21, avoid=("R5", "R6", "R7"))},
        phase="take",
        table=table,
        opened={0: "series"},
        discard="R6",
    )
    assert game.can_use_discard(0) and game.view(0)["can_take_discard"]
    game.apply(0, act("swap", "R6", amount=0, source="discard"))
    assert game.table[0]["tiles"] == ["R5", "R6", "R7"] and OKEY in game.racks[0]


def test_a_pairs_opener_takes_the_discard_to_lay_a_pair_with_it() -> None:
    game = rigged({0: fill(["B8"], 21)}, phase="take", opened={0: "pairs"}, discard="B8")
    game.apply(0, act("lay", "B8 B8", source="discard"))
    assert game.table[-1]["tiles"] == ["B8", "B8"]


def test_one_discard_is_charged_once_and_a_swap_only_tile_is_not_playable() -> None:
    table = [run(5, ["R5", OKEY, "R7"], owner=2), run(1, ["K1", "K2", "K3"], owner=2)]
    rack = fill(["R6", OKEY], 22, avoid=("R5", "R7", "K1", "K2", "K3"))
    game = rigged({0: rack}, table=table)
    game.apply(0, act("discard", OKEY))  # a wild that also fits the runs: +101 once
    assert game.penalties[0] == 101
    game2 = rigged({0: rack}, table=table)
    game2.apply(0, act("discard", "R6"))  # fits only the wild's place
    assert game2.penalties[0] == 0


def test_finishing_with_a_wild_in_the_turn_one_opens_quadruples() -> None:
    game = rigged({0: [*tiles_of(OPEN_109), OKEY], 1: ["R2", "Y3"]}, opened={1: "series"})
    game.apply(0, act("open", OPEN_109))
    game.apply(0, act("finish", OKEY))
    assert game.result["factor"] == 4 and game.result["round_scores"][:2] == [-404, 20]


def test_a_finisher_who_opened_by_pairs_scores_minus_101() -> None:
    game = rigged({0: ["R1"]}, opened={0: "pairs"})
    game.apply(0, act("finish", "R1"))
    assert game.result["round_scores"][0] == -101


def test_declining_the_usable_discard_on_an_empty_stock_ends_the_round() -> None:
    table = [run(5, ["R5", "R6", "R7"], owner=2)]
    game = rigged(
        {0: fill([], 21, avoid=("R5", "R7"))},
        phase="take",
        stock=0,
        table=table,
        opened={0: "series"},
        discard="R8",
    )
    assert game.can_use_discard(0)
    game.apply(0, act("take", source="stock"))
    assert game.result["reason"] == "stock_exhausted"


def test_the_solvers_opening_is_accepted_as_it_is() -> None:
    for k in range(30):
        game = new(PLAYERS, seed(k))
        rack = game.racks[game.starter]
        best = best_opening(rack, game.okey)
        total = sum(read_meld(m, game.okey) is not None for m in best.melds)
        assert total == len(best.melds)
        if best.value >= 101 and sum(map(len, best.melds)) < len(rack):
            cards: list[str] = []
            for meld in best.melds:
                cards += [*(["/"] if cards else []), *meld]
            game.apply(game.starter, act("open", " ".join(cards)))
            assert game.opening_values[game.starter] == best.value


def test_every_101_move_kind_is_a_protocol_action_kind() -> None:
    assert {"take", "open", "lay", "add", "swap", "discard", "finish"} <= ACTION_KINDS


def test_the_okey_named_as_its_own_number_takes_that_place() -> None:
    """Okey B9 (indicator B8): the wild may stand for B9 itself, named `B9` or `F`."""
    table = [run(10, ["B10", "B11", "B12"])]
    for place in ("B9", "F"):
        rack = fill(["B9"], 22, avoid=("B10", "B11", "B12"))
        game = rigged({0: rack}, indicator="B8", table=table, opened={0: "series"})
        game.apply(0, act("add", f"B9 {place}", amount=0))
        assert game.table[0]["lo"] == 9 and game.table[0]["tiles"] == ["B9", "B10", "B11", "B12"]
    game = rigged(
        {0: fill(["B9"], 22, avoid=("B10", "B11", "B12"))},
        indicator="B8",
        table=[run(11, ["B11", "B12", "B13"])],
        opened={0: "series"},
    )
    refused(game, 0, act("add", "B9 B9", amount=0), "does_not_fit")  # 9 is not next to 11-13


def test_the_okey_laid_in_its_own_place_stands_for_itself() -> None:
    """Okey B9: in `open` and `lay` a wild's place is its position, its own face included."""
    opening = "B9 B10 B11 B12 B13 / R9 Y9 B9"  # 55 + 27, two wilds in their own places
    rack = fill([*tiles_of(opening), "K11", "K12", "K13"], 22, avoid=("B8",))
    game = rigged({0: rack}, indicator="B8")
    refused(game, 0, act("open", opening), "below_threshold")  # read as 82: the okeys as 9s
    game.apply(0, act("open", opening + " / K11 K12 K13"))
    assert game.opening_values[0] == 82 + 36
    assert [m["tiles"] for m in game.table] == [
        ["B9", "B10", "B11", "B12", "B13"],
        ["R9", "Y9", "B9"],
        ["K11", "K12", "K13"],
    ]
    assert game.table[0]["lo"] == 9 and game.table[1]["number"] == 9
    game = rigged({0: fill(["B7", "B8", "B9"], 22)}, indicator="B8", opened={0: "series"})
    game.apply(0, act("lay", "B7 B8 B9"))
    assert game.table[-1]["lo"] == 7 and game.table[-1]["tiles"] == ["B7", "B8", "B9"]
