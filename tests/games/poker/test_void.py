"""The void-bet rule (rule 8): dead hands, refusals both ways, and that it leaks no down card."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import Action, IllegalAction
from games.poker import acik_rules, key, parse_cards
from games.poker.acik import deck_order
from games.poker.void import analyse, best_completion

from .test_acik_helpers import act, check_round, kinds, scripted

RULES = acik_rules()


def k(cards) -> int:
    return key(cards, RULES)


# Seat 0 shows a pair of aces from street 2. Seat 1 (down 9h) holds 2 5 8 9 J in the end: from
# street 3 nothing can beat the aces (really dead); from street 4 even the up cards alone prove it
# (publicly dead). On street 3 a down card pairing the 2, 5 or 8 and a matching fifth card would
# still make two pair, so nobody else can tell seat 1 is dead.
DOWNS = ["Kd", "9h"]
UPS = [["Ah", "As", "3d", "4c"], ["2c", "5d", "8s", "Jc"]]


def street(n: int, **options):
    hand = scripted(DOWNS, UPS, ante=5, **options)
    while hand.street < n:
        check_round(hand)
    return hand


def refused(hand, seat: int, action: Action) -> IllegalAction:
    before = hand.to_dict()
    with pytest.raises(IllegalAction) as info:
        hand.apply(seat, action)
    assert hand.to_dict() == before
    return info.value


def test_nobody_is_dead_while_a_completion_can_still_win() -> None:
    hand = street(2)
    assert not hand.is_dead(1, 0) and not hand.is_dead(0, 1)
    assert kinds(hand, hand.to_act()) == ["bet", "check"]


def test_is_dead_real_and_public() -> None:
    hand = street(3)
    assert hand.is_dead(1, 0) and not hand.is_dead(1, 0, public=True)
    assert not hand.is_dead(0, 1)
    check_round(hand)
    assert hand.is_dead(1, 0) and hand.is_dead(1, 0, public=True)
    assert not hand.is_dead(0, 0)


def test_dead_player_may_not_bet_but_may_check_or_fold() -> None:
    hand = street(3)
    act(hand, 0, "check")
    assert kinds(hand, 1) == ["check", "fold"]
    error = refused(hand, 1, Action("bet", 5))
    assert error.code == "void_bet_dead"
    assert error.params["against"] == 0 and error.params["cards"] == ["Ah", "As", "3d"]
    # Folding with no bet is allowed for a dead player.
    events = act(hand, 1, "fold")
    assert hand.finished and events[0].kind == "folded"


def test_dead_player_may_not_call_or_raise_a_bet() -> None:
    hand = street(3)
    # Seat 1 is dead only by its down card, so seat 0 may still bet into it.
    act(hand, 0, "bet", 5)
    assert kinds(hand, 1) == ["fold"]
    assert refused(hand, 1, Action("call")).code == "void_bet_dead"
    assert refused(hand, 1, Action("raise", 10)).code == "void_bet_dead"
    act(hand, 1, "fold")
    assert hand.view(None)["stacks"] == [105, 95]


def test_nobody_may_bet_into_a_publicly_dead_player() -> None:
    hand = street(4)
    assert kinds(hand, 0) == ["check"]
    error = refused(hand, 0, Action("bet", 5))
    assert error.code == "void_bet_into_dead"
    assert error.params["against"] == 1 and error.params["cards"] == ["2c", "5d", "8s", "Jc"]
    act(hand, 0, "check")
    assert refused(hand, 1, Action("bet", 5)).code == "void_bet_dead"
    events = act(hand, 1, "check")
    assert [e.kind for e in events][-3:] == ["showdown", "won", "hand_over"]


def test_void_bets_off_allows_every_bet() -> None:
    hand = street(4, void_bets=False)
    assert hand.is_dead(1, 0, public=True)  # still explained, just not enforced
    act(hand, 0, "bet", 5)
    act(hand, 1, "call")
    assert hand.finished


def test_refusal_reasons_name_no_down_card() -> None:
    hand = street(3)
    act(hand, 0, "bet", 5)
    error = refused(hand, 1, Action("call"))
    text = f"{error} {error.params}"
    for down in DOWNS:
        assert down not in text


def test_a_dead_player_may_bet_against_others_when_the_winner_is_all_in() -> None:
    # Seat 0 (the aces) is all-in after the ante, so new chips are contested only by seat 2.
    hand = scripted(
        ["Kd", "9h", "Qc"],
        [["Ah", "As", "3d", "4c"], ["2c", "5d", "8s", "Jc"], ["6h", "7c", "Tc", "3h"]],
        stacks=[5, 100, 100],
        ante=5,
    )
    while hand.street < 4:
        check_round(hand)
    assert hand.is_dead(1, 0)
    assert "bet" in kinds(hand, hand.to_act())


# --- the analysis itself ------------------------------------------------------------------------


def test_best_completion_is_the_exact_maximum() -> None:
    known = parse_cards("Ah Kh")
    pool = parse_cards("Qh Jh Th 2c 3d")
    best, exceeded = best_completion(known, pool, 3, k)
    assert not exceeded and best == k(parse_cards("Ah Kh Qh Jh Th"))
    assert best_completion(known, pool, 3, k, ceiling=k(parse_cards("As Ad")))[1]


def deal(seed: int, players: int, streets: int):
    deck = deck_order(RULES, seed.to_bytes(32, "big"))
    downs = dict(enumerate(deck[:players]))
    ups = {s: [deck[players * (1 + t) + s] for t in range(streets)] for s in range(players)}
    rest = deck[players * (1 + streets) :]
    return downs, ups, rest


@settings(max_examples=40)
@given(
    seed=st.integers(0, 2**64),
    players=st.integers(2, 10),
    streets=st.integers(2, 4),
    swap=st.randoms(use_true_random=False),
)
def test_hidden_cards_never_change_a_public_judgement(seed, players, streets, swap) -> None:
    """Public deadness depends on up cards only; a seat's real deadness on its own cards only."""
    downs, ups, rest = deal(seed, players, streets)
    seen = [c for cards in ups.values() for c in cards]
    result = analyse(RULES.deck, downs, ups, seen, 5, k)
    # Give every other seat a different hidden card: down cards and undealt cards are shuffled.
    hidden = list(downs.values()) + list(rest)
    swap.shuffle(hidden)
    others = dict(zip(downs, hidden, strict=False))
    again = analyse(RULES.deck, others, ups, seen, 5, k)
    assert again.public == result.public
    assert result.public <= result.dead
    for seat in downs:
        mixed = dict(others) | {seat: downs[seat]}
        if len(set(mixed.values())) < len(mixed):
            continue
        check = analyse(RULES.deck, mixed, ups, seen, 5, k)
        assert check.dead_against(seat) == result.dead_against(seat)


@settings(max_examples=30)
@given(seed=st.integers(0, 2**64), streets=st.integers(2, 4))
def test_dead_means_no_completion_beats_the_up_cards(seed, streets) -> None:
    """Brute force over every completion for two players agrees with the analysis."""
    downs, ups, _ = deal(seed, 2, streets)
    seen = [c for cards in ups.values() for c in cards]
    result = analyse(RULES.deck, downs, ups, seen, 5, k)
    for seat, other in ((0, 1), (1, 0)):
        known = [downs[seat], *ups[seat]]
        pool = [c for c in RULES.deck if c not in seen and c != downs[seat]]
        target = k(ups[other])
        can_win = any(k([*known, *extra]) > target for extra in combinations(pool, 5 - len(known)))
        assert result.is_dead(seat, other) == (not can_win)


def test_public_buttons_do_not_depend_on_the_down_card() -> None:
    dead = street(3)
    alive = scripted(["Kd", "2d"], UPS, ante=5)  # 2d: a 5 still makes two pair, beating AA
    while alive.street < 3:
        check_round(alive)
    for hand in (dead, alive):
        act(hand, 0, "check")
    assert dead.is_dead(1, 0) and not alive.is_dead(1, 0)
    assert kinds(dead, 1) == ["check", "fold"] and kinds(alive, 1) == ["bet", "check"]
    assert dead.public_legal_actions(1) == alive.public_legal_actions(1)
    assert sorted(s.kind for s in dead.public_legal_actions(1)) == ["bet", "check", "fold"]
    # The fold offered publicly is refused, privately, to a player who is not dead.
    assert refused(alive, 1, Action("fold")).code == "fold_without_bet"


def test_public_buttons_respect_public_deadness() -> None:
    hand = street(4)
    assert [s.kind for s in hand.public_legal_actions(0)] == ["fold", "check"]
    assert hand.public_legal_actions(1) == []
