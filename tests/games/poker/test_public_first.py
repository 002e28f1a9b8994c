"""Refusals on public grounds come before any check of a player's hidden cards.

For each engine, twin hands differ only in the cards of the player to act (openers or not; a
down card that makes the hand dead or not). A move that public information alone refuses (a bad
amount, a move the table does not allow now, a card named twice) gets the same refusal, with the
same parameters, in both twins: which refusal a word gets never tells the player's cards. Only a
move that public information allows may then be refused for the cards themselves.
"""

from __future__ import annotations

import json

import pytest

from games.base import Action, IllegalAction

from .test_acik_helpers import act as acik_act
from .test_acik_helpers import check_round, scripted
from .test_turkish import act, rigged


def refusal(game, seat: int, action: Action) -> tuple[str, dict]:
    """The refusal `action` gets (code and parameters); the hand is left as it was."""
    before = json.dumps(game.to_dict())
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, action)
    assert json.dumps(game.to_dict()) == before
    return info.value.code, info.value.params


# --- Türk pokeri ----------------------------------------------------------------------------------

OTHERS = ["Ts 9s 8h Qc Ac", "Ah Qd Js Th 9c"]
WITH_OPENERS = "Kh Ks 9d 8c Jd"
WITHOUT = "Kh Qs 9d 8c Jd"


def turkish_twins():
    """Seat 1 to act in the first betting round, with and without a pair of kings."""
    return [rigged([OTHERS[0], hand, OTHERS[1]], ante=1) for hand in (WITH_OPENERS, WITHOUT)]


@pytest.mark.parametrize(
    "action",
    [
        Action("open"),
        Action("open", 10**6),
        Action("open", 0),
        Action("open", -3),
        Action("open", 3, ("Kh",)),
    ],
    ids=["no amount", "too much", "zero", "negative", "with cards"],
)
def test_an_opening_refused_on_public_grounds_says_the_same_with_or_without_openers(action):
    opener, other = turkish_twins()
    assert opener.to_act() == other.to_act() == 1
    assert refusal(opener, 1, action) == refusal(other, 1, action)


def test_an_opening_the_table_allows_is_refused_only_for_missing_openers():
    opener, other = turkish_twins()
    assert refusal(other, 1, Action("open", 3))[0] == "no_openers"
    opener.apply(1, Action("open", 3))
    assert opener.view(None)["current_bet"] == 3


def draw_twins():
    """Seat 1 to draw, holding the 9d or not."""
    out = []
    for hand in (WITH_OPENERS, WITH_OPENERS.replace("9d", "7d")):
        game = rigged(["Ts 9s 8h Qc Ac", hand, "Ah Qd Js Th 9c"], ante=1)
        act(game, "open", 3)
        act(game, "call")
        act(game, "call")
        assert game.to_act() == 1
        out.append(game)
    return out


@pytest.mark.parametrize(
    "cards",
    [("9d", "9d"), ("9d", "Zz"), ("9d", "Ac", "Ac"), ("9d", "Kh", "8c", "Jd", "Qs")],
    ids=["named twice", "not a card", "a foreign card named twice", "too many"],
)
def test_a_draw_refused_for_its_words_says_the_same_whatever_is_held(cards):
    held, not_held = draw_twins()
    action = Action("draw", cards=cards)
    assert refusal(held, 1, action) == refusal(not_held, 1, action)


# --- Açık poker -----------------------------------------------------------------------------------

UPS = [["Ah", "As", "3d", "4c"], ["2c", "5d", "8s", "Jc"]]


def acik_twins(first: str = "check", amount: int | None = None):
    """Street 3, seat 0 made its move (`first`), seat 1 to act: dead by its down card (9h) or
    alive (2h pairs its 2)."""
    out = []
    for down in ("9h", "2h"):
        hand = scripted(["Kd", down], UPS, ante=5)
        while hand.street < 3:
            check_round(hand)
        acik_act(hand, 0, first, amount)
        out.append(hand)
    dead, alive = out
    assert dead.is_dead(1, 0) and not alive.is_dead(1, 0)
    assert not dead.is_dead(1, 0, public=True)
    return dead, alive


@pytest.mark.parametrize(
    "action",
    [Action("bet", 10**6), Action("bet"), Action("raise", 10), Action("call"), Action("check", 5)],
    ids=["too much", "no amount", "raise with no bet", "call with no bet", "check with amount"],
)
def test_a_move_refused_on_public_grounds_says_the_same_dead_or_alive(action):
    dead, alive = acik_twins()
    assert refusal(dead, 1, action) == refusal(alive, 1, action)


@pytest.mark.parametrize(
    "action",
    [Action("raise", 10**6), Action("call", 3), Action("check")],
    ids=["raise too much", "call a wrong amount", "check facing a bet"],
)
def test_facing_a_bet_public_refusals_say_the_same_dead_or_alive(action):
    dead, alive = acik_twins("bet", 5)
    assert refusal(dead, 1, action) == refusal(alive, 1, action)


def test_a_dead_hand_s_own_bet_is_refused_only_when_the_table_would_allow_it():
    dead, alive = acik_twins()
    assert refusal(dead, 1, Action("bet", 5))[0] == "void_bet_dead"
    alive.apply(1, Action("bet", 5))
    assert alive.view(None)["current_bet"] == 5
