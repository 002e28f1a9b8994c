"""The 101 computer players (games/okey101/ai.py): every choice is legal and rounds end, they read
only their own view, easy opens as soon as it can, normal and hard never pay +101 for a discard
when a safe one exists, hard takes the discard to open, keeps back from an opened next player the
tiles it can surely use (a wild's place on the table, a pairs opener's twin), opens whenever it
can, looks ahead before opening (it keeps the pair its opening may need where its order alone
would throw it away), and hard scores better than easy. With partners hard plays for the side:
it breaks a meld rather than hand the next opponent a wild, finishes without the doubling that
would double its unopened partner's 202, and sheds its highest tile when its partner is about to
finish."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import Action
from games.okey101 import Round101, best_opening, discard_penalty, new
from games.okey101.ai import LEVELS, NO_LOOKAHEAD, choose_action
from games.okey101.melds import swap_wild
from games.okey101.solver import pair_count

from .helpers import PLAYERS, play_out, rigged, run, seed

STEP_LIMIT = 3000


def _can_open(game: Round101, seat: int) -> bool:
    rack = game.racks[seat]
    if best_opening(rack, game.okey).value >= game.threshold:
        return True
    return game.pairs_openers() < game.options["pairs_max"] and pair_count(rack, game.okey) >= 5


Check = Callable[[Round101, int, Action], None]


def play(game: Round101, levels: list[str], rng: random.Random, check: Check | None = None) -> None:
    """Play the round out with the levels given per seat (an illegal choice fails the test);
    `check(game, seat, action)` before each move is applied."""

    def move(game: Round101, seat: int, rng: random.Random) -> Action:
        action = choose_action(game, seat, levels[seat], rng)
        assert action.kind in {s.kind for s in game.legal_actions(seat)}, action
        if check is not None:
            check(game, seat, action)
        return action

    play_out(game, rng, STEP_LIMIT, move)


@settings(max_examples=30, deadline=None)
@given(
    st.integers(2, 4),
    st.binary(min_size=32, max_size=32),
    st.integers(0, 10**9),
    st.lists(st.sampled_from([*LEVELS, "medium"]), min_size=4, max_size=4),
    st.fixed_dictionaries(
        {
            "doubling": st.booleans(),
            "swap_okey": st.booleans(),
            "pairs_max": st.integers(0, 4),
            "open": st.sampled_from([101, 101, 130]),
        }
    ),
)
def test_every_choice_is_legal_and_rounds_end(
    players: int, deal: bytes, salt: int, levels: list[str], options: dict[str, Any]
) -> None:
    game = new(PLAYERS[:players], deal, options)
    play(game, levels, random.Random(salt))
    assert game.result is not None


def test_decisions_read_only_the_seat_view() -> None:
    """Shuffling the other racks and the stock changes no decision."""
    for k in range(6):
        game = new(PLAYERS, seed(100 + k))
        rng = random.Random(k)
        while not game.finished:
            seat = game.to_act()
            assert seat is not None
            data = game.to_dict()
            hidden = [t for s, r in enumerate(data["racks"]) if s != seat for t in r]
            hidden += data["stock"]
            random.Random(k).shuffle(hidden)
            for s, rack in enumerate(data["racks"]):
                if s != seat:
                    data["racks"][s], hidden = hidden[: len(rack)], hidden[len(rack) :]
            data["stock"] = hidden
            other = Round101.from_dict(data)
            state = rng.getstate()
            action = choose_action(game, seat, "hard", rng)
            rng.setstate(state)
            assert choose_action(other, seat, "hard", rng) == action
            game.apply(seat, action)


def test_easy_opens_as_soon_as_it_can() -> None:
    opened_when_able = 0

    def check(game: Round101, seat: int, action: Action) -> None:
        nonlocal opened_when_able
        if game.phase == "play" and game.opened[seat] is None and _can_open(game, seat):
            assert action.kind == "open", (game.racks[seat], action)
            opened_when_able += 1

    for k in range(20):
        play(new(PLAYERS, seed(200 + k)), ["easy"] * 4, random.Random(k), check)
    assert opened_when_able > 0


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_no_penalty_discard_when_a_safe_one_exists(level: str) -> None:
    checked = 0

    def check(game: Round101, seat: int, action: Action) -> None:
        nonlocal checked
        if seat != 0 or action.kind != "discard":
            return
        rack, table, okey = game.racks[seat], game.table, game.okey
        if discard_penalty(action.cards[0], table, okey) is not None:
            assert all(discard_penalty(t, table, okey) is not None for t in rack), rack
        checked += 1

    for k in range(20):
        play(new(PLAYERS, seed(300 + k)), [level, "easy", "easy", "easy"], random.Random(k), check)
    assert checked > 50


def test_hard_avoids_the_playable_tile() -> None:
    table = [run(10, ["R10", "R11", "R12"])]
    rack = ["R13", "B1", "Y4", "K9", "B11", "Y7"]  # R13 fits the run: +101 if discarded
    game = rigged({0: rack}, table=table)
    action = choose_action(game, 0, "hard", random.Random(0))
    assert action.kind == "discard" and action.cards[0] != "R13"
    # easy throws its highest loose tile, with no eye on the table
    assert choose_action(game, 0, "easy", random.Random(0)) == Action("discard", cards=("R13",))


def test_hard_takes_the_discard_to_open_and_easy_does_not() -> None:
    # 11+12+13 three times (108) only with the discard Y13
    rack = ["R11", "R12", "R13", "B11", "B12", "B13", "Y11", "Y12", "K1", "K3", "K5", "K7"]
    rack += ["B1", "B3", "B5", "B7", "Y1", "Y3", "Y5", "R2", "R4"]
    game = rigged({1: rack}, turn=1, phase="take", discard="Y13")
    move = choose_action(game, 1, "hard", random.Random(0))
    assert move.kind == "open" and move.source == "discard" and "Y13" in move.cards
    game.apply(1, move)
    assert game.opened[1] == "series"
    game = rigged({1: rack}, turn=1, phase="take", discard="Y13")
    assert choose_action(game, 1, "easy", random.Random(0)) == Action("take", source="stock")


def test_hard_looks_ahead_and_keeps_the_pair_its_opening_may_need() -> None:
    """93 in series, four pairs with the wild (okey K2) and ten tiles left in the stock: its order
    alone throws a Y1 of the pair away; the sampled futures open more often without the B3."""
    rack = ["B3", "B7", "K11", "K13", "K2", "K5", "K5", "K8", "R13", "R2", "R3"]
    rack += ["R4", "R6", "R6", "R7", "R8", "Y1", "Y1", "Y5", "Y7", "Y8", "Y9"]
    game = rigged({0: rack}, indicator="K1", stock=10)
    for k in range(3):
        assert choose_action(game, 0, "hard", random.Random(k)) == Action("discard", cards=("B3",))
        plain = choose_action(game, 0, "hard", random.Random(k), NO_LOOKAHEAD)
        assert plain == Action("discard", cards=("Y1",))


def test_hard_scores_better_than_easy() -> None:
    """One hard seat against three easy ones, the hard seat rotating: lower totals are better."""
    hard = easy = 0.0
    for k in range(24):
        game = new(PLAYERS, seed(400 + k))
        tested = k % 4
        levels = ["easy"] * 4
        levels[tested] = "hard"
        play(game, levels, random.Random(k))
        scores = game.penalties
        hard += scores[tested]
        easy += (sum(scores) - scores[tested]) / 3
    assert hard < easy


def test_refuses_an_unknown_level_or_a_seat_not_to_act() -> None:
    game = new(PLAYERS, seed(1))
    seat = game.to_act()
    assert seat is not None
    with pytest.raises(ValueError, match="level"):
        choose_action(game, seat, "grandmaster", random.Random(0))
    with pytest.raises(ValueError, match="not to act"):
        choose_action(game, (seat + 1) % 4, "easy", random.Random(0))


def test_hard_does_not_hand_an_opened_next_player_a_wild_off_the_table() -> None:
    # seat 1 (next to act, opened) laid R5 okey R7: with R6 they take the discard and swap the okey
    table = [run(5, ["R5", "K4", "R7"])]
    rack = ["R6", "B12", "Y13", "K9", "K10", "K11"]  # R6 is the loose tile least worth keeping
    game = rigged({0: rack}, table=table, opened={1: "series"})
    action = choose_action(game, 0, "hard", random.Random(0))
    assert action.kind == "discard" and action.cards[0] != "R6", action
    # the next player has not opened (they cannot swap): R6 goes
    game = rigged({0: rack}, table=table, opened={3: "series"})
    assert choose_action(game, 0, "hard", random.Random(0)) == Action("discard", cards=("R6",))


def test_hard_keeps_from_a_pairs_opener_the_tile_whose_twin_they_may_hold() -> None:
    # the other B12 lies in a discard pile: the next player (opened by pairs) cannot pair it;
    # the other Y2 may be in their rack
    rack = ["Y2", "B12", "K9", "K10", "K11", "R1", "R2", "R3"]
    game = rigged({0: rack}, opened={1: "pairs"}, discard="B12")
    assert choose_action(game, 0, "hard", random.Random(0)) == Action("discard", cards=("B12",))
    game = rigged({0: rack}, opened={1: "series"}, discard="B12")
    assert choose_action(game, 0, "hard", random.Random(0)) == Action("discard", cards=("Y2",))


PARTNERS = {"partners": True}


def test_a_hard_partner_breaks_a_meld_rather_than_hand_the_next_opponent_a_wild() -> None:
    # seat 1 (an opponent: the partner sits opposite) opened and laid R5 okey R7; R6 is seat 0's
    # only tile outside its melds, and with it seat 1 takes the discard and swaps the okey off
    rack = ["R6", "K9", "K10", "K11", "B1", "B2", "B3"]
    table = [run(5, ["R5", "K4", "R7"])]
    game = rigged({0: rack}, table=table, opened={1: "series"}, options=PARTNERS)
    action = choose_action(game, 0, "hard", random.Random(0))
    assert action.kind == "discard" and action.cards[0] != "R6", action
    game.apply(0, action)
    assert game.to_act() == 1 and game.options["partners"]  # the next player is the opponent
    # with nothing but such tiles it has no choice: the discard goes
    game = rigged({0: ["R6", "R6"]}, table=table, opened={1: "series"}, options=PARTNERS)
    assert choose_action(game, 0, "hard", random.Random(0)) == Action("discard", cards=("R6",))


def test_a_hard_partner_never_hands_the_next_opponent_a_sure_swap_when_it_has_another() -> None:
    """Seeded partner rounds: every discard of hard that puts a wild of the table within reach of
    an opened next player (a swap) is made only when every other tile would too (or costs +101)."""
    checked = 0

    def check(game: Round101, seat: int, action: Action) -> None:
        nonlocal checked
        if seat % 2 or action.kind != "discard":
            return
        nxt = (seat + 1) % 4
        rack, table, okey = game.racks[seat], game.table, game.okey

        def feeds(tile: str) -> bool:
            return game.opened[nxt] is not None and any(
                swap_wild(m, tile, okey) is not None for m in table
            )

        if feeds(action.cards[0]):
            others = [t for t in rack if discard_penalty(t, table, okey) is None and t != okey]
            assert all(feeds(t) for t in others), (rack, action)
        checked += 1

    for k in range(16):
        game = new(PLAYERS, seed(600 + k), PARTNERS)
        play(game, ["hard", "easy", "hard", "easy"], random.Random(k), check)
    assert checked > 50


def test_hard_opens_whenever_its_rack_can() -> None:
    opened_when_able = 0

    def check(game: Round101, seat: int, action: Action) -> None:
        nonlocal opened_when_able
        if game.phase == "play" and game.opened[seat] is None and _can_open(game, seat):
            assert action.kind == "open", (game.racks[seat], action)
            opened_when_able += 1

    for k in range(16):
        play(new(PLAYERS, seed(700 + k), PARTNERS), ["hard"] * 4, random.Random(k), check)
    assert opened_when_able > 0
    # five pairs and no 101 in series: it opens by pairs
    rack = ["R1", "R1", "Y3", "Y3", "B6", "B6", "K8", "K8", "R12", "R12", "Y9", "B2"]
    move = choose_action(rigged({0: rack}), 0, "hard", random.Random(0))
    assert move.kind == "open" and move.cards.count("/") >= 4


def test_a_hard_partner_does_not_double_the_score_of_a_partner_who_never_opened() -> None:
    # seat 0 (opened) holds the okey K4 and R8, both fit R5 R6 R7: it can finish with either.
    # Finishing with the okey doubles every other score: the opponents' small racks, but also the
    # 202 of its partner (seat 2) who never opened. The side loses by the doubling: the okey goes
    # onto the table and R8 finishes.
    table = [run(5, ["R5", "R6", "R7"])]
    small = {1: ["B1", "B2", "Y5"], 3: ["Y1", "Y2", "B5"]}
    opened = {0: "series", 1: "series", 3: "series"}
    game = rigged({0: ["K4", "R8"], **small}, table=table, opened=opened, options=PARTNERS)
    move = choose_action(game, 0, "hard", random.Random(0))
    assert move == Action("add", cards=("K4",), amount=0), move
    game.apply(0, move)
    assert choose_action(game, 0, "hard", random.Random(0)) == Action("finish", cards=("R8",))
    # the partner has opened and holds few tiles: the doubling helps the side, R8 goes on the table
    game = rigged(
        {0: ["K4", "R8"], 2: ["K1", "K2"], **small},
        table=table,
        opened={**opened, 2: "series"},
        options=PARTNERS,
    )
    add_r8 = Action("add", cards=("R8",), amount=0)
    assert choose_action(game, 0, "hard", random.Random(0)) == add_r8
    # without partners every other score is an opponent's: the doubling always helps
    game = rigged({0: ["K4", "R8"], **small}, table=table, opened=opened)
    assert choose_action(game, 0, "hard", random.Random(0)) == add_r8


def test_a_hard_partner_sheds_its_highest_tile_when_its_partner_is_about_to_finish() -> None:
    # seat 0 has opened; B12 B13 wait for a live B11, Y6 is alone. With the round going on it
    # keeps the near meld and throws Y6; with its partner (seat 2, opened) down to one tile the
    # round is about to end, and B13 is the tile that would cost the side most on the rack
    rack = ["B12", "B13", "Y6", "R2"]
    game = rigged({0: rack}, opened={0: "series"}, options=PARTNERS)
    assert choose_action(game, 0, "hard", random.Random(0)) == Action("discard", cards=("Y6",))
    game = rigged({0: rack, 2: ["R1"]}, opened={0: "series", 2: "series"}, options=PARTNERS)
    assert choose_action(game, 0, "hard", random.Random(0)) == Action("discard", cards=("B13",))
