"""The `normal` and `hard` Okey computer players (games/okey/strategy.py): legal moves in whole
rounds, decisions that depend on the seat's view only, and the hand-built positions the issue names
(take an improving discard, finish with the okey tile, keep seven pairs, keep back tiles the next
player is collecting)."""

from __future__ import annotations

import hashlib
import random

import pytest

from bot.core.table.ai import okey_move
from games.okey import strategy
from games.okey.round import OkeyRound

PLAYERS = ["a", "b", "c", "d"]


def _view(hand, *, phase="discard", piles=None, indicator="B12", top_from_prev=None, options=None):
    """A seat-0 view of a four-player round, built by hand (okey of B12 is B13)."""
    piles = piles or [[], [], [], []]
    if top_from_prev is not None:
        piles[3] = [*piles[3], top_from_prev]
    return {
        "players": PLAYERS,
        "options": options or {"takeback": True},
        "indicator": indicator,
        "okey": "B13",
        "discard_piles": piles,
        "hand": list(hand),
        "phase": phase,
        "to_act": 0,
        "sources": ["stock", "discard"] if piles[3] else ["stock"],
        "can_show_indicator": False,
        "forbidden_discard": None,
    }


@pytest.mark.parametrize("level", ["normal", "hard"])
@pytest.mark.parametrize("takeback", [True, False])
def test_whole_rounds_are_legal(level, takeback):
    """Every move is accepted by the engine (it raises on an illegal one) and rounds end."""
    for n in range(6):
        seed = hashlib.sha256(f"strategy:{level}:{takeback}:{n}".encode()).digest()
        game = OkeyRound.new(PLAYERS, seed, {"takeback": takeback})
        for _ in range(400):
            if game.finished:
                break
            seat = game.to_act()
            game.apply(seat, okey_move(game, seat, level if seat % 2 == 0 else "easy"))
        assert game.finished


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_decision_depends_on_the_view_only(level):
    """Shuffling the tiles it cannot see (other racks and the stock) never changes a decision."""
    rng = random.Random(5)
    checked = 0
    for n in range(4):
        seed = hashlib.sha256(f"view-only:{level}:{n}".encode()).digest()
        game = OkeyRound.new(PLAYERS, seed, {})
        while not game.finished:
            seat = game.to_act()
            action = okey_move(game, seat, level)
            for _ in range(3):
                other = OkeyRound.from_dict(game.to_dict())
                hidden = [t for s, r in enumerate(other.racks) if s != seat for t in r]
                hidden += other.stock
                rng.shuffle(hidden)
                for s, rack in enumerate(other.racks):
                    if s != seat:
                        rack[:] = [hidden.pop() for _ in rack]
                other.stock[:] = hidden
                assert okey_move(other, seat, level) == action
                checked += 1
            game.apply(seat, action)
    assert checked > 100


COMPLETE = ["R1", "R2", "R3", "Y4", "Y5", "Y6", "K7", "K8", "K9", "K10", "B1", "B2", "B3", "B4"]


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_finishes_with_the_okey_tile(level):
    """14 tiles in melds and the okey (B13) to spare: it finishes throwing the okey (60 points
    instead of 20), though K10 or B4 would finish too."""
    move = strategy.choose(_view([*COMPLETE, "B13"]), level)
    assert move.kind == "finish" and move.cards == ("B13",)
    plain = strategy.choose(_view([*COMPLETE, "Y12"]), level)
    assert plain.kind == "finish" and plain.cards == ("Y12",)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_takes_a_discard_that_finishes(level):
    hand = [*COMPLETE[:-1], "R12"]  # B4 would let it finish, throwing R12
    take = strategy.choose(_view(hand, phase="take", top_from_prev="B4"), level)
    assert take.kind == "take" and take.source == "discard"
    stock = strategy.choose(_view(hand, phase="take", top_from_prev="Y13"), level)
    assert stock.kind == "take" and stock.source == "stock"


def test_hard_keeps_seven_pairs():
    """Six pairs and three singles: hard throws a single; a pair would cost the pairs plan."""
    hand = ["R1", "R1", "Y3", "Y3", "B5", "B5", "K7", "K7", "R9", "R9", "Y11", "Y11"]
    hand += ["B2", "K4", "R13"]
    move = strategy.choose(_view(hand), "hard")
    assert move.kind == "discard" and move.cards[0] in ("B2", "K4", "R13")


def test_hard_keeps_back_what_the_next_player_collects():
    """Three loose tiles of equal worth: hard throws the one beside the next player's discards
    (they are not collecting there); the previous player's discards do not steer it."""
    hand = ["R1", "R2", "R3", "Y1", "Y2", "Y3", "B1", "B2", "B3", "K1", "K2", "K3"]
    hand += ["R7", "Y10", "K6"]
    piles_next = [[], ["Y9"], [], []]
    assert strategy.choose(_view(hand, piles=piles_next), "hard").cards == ("Y10",)
    piles_prev = [[], [], [], ["Y9"]]
    assert strategy.choose(_view(hand, piles=piles_prev), "hard").cards != ("Y10",)


def test_rack_value_weighs_runs_against_pairs():
    live = [2] * 52
    pairs = [0] * 52
    for i in (0, 15, 30, 45, 8, 21):  # six pairs of unrelated tiles
        pairs[i] = 2
    pairs[11] = pairs[38] = 1
    runs = [0] * 52
    for i in (0, 1, 2, 13, 14, 15, 26, 27, 28, 39, 40):
        runs[i] = 1
    runs[5] = runs[20] = runs[33] = 1
    assert strategy._pairs_value(pairs, 0) > strategy._runs_value(pairs, 0, live)
    assert strategy._runs_value(runs, 0, live) > strategy._pairs_value(runs, 0)
    assert strategy.rack_value(pairs, 0, live) == strategy._pairs_value(pairs, 0)


def test_unknown_level_is_refused():
    with pytest.raises(ValueError):
        strategy.choose(_view(["R1"] * 1), "genius")
