"""The numpy Monte Carlo of Açık live odds (games/poker/odds_vector.py): its hand strengths order
hands like `ranking.key`, its estimates lie within their stated error of a full enumeration, and
they depend only on the position and the seed."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from games.poker import acik_rules, parse_cards
from games.poker.odds import MAX_DEALS, TARGET_ERROR, Z95, estimate
from games.poker.odds_vector import CARD_BITS, evaluator, fields, monte_carlo
from games.poker.ranking import key
from tests.games.poker.test_odds import _coverage, brute_force, position

RULESETS = [acik_rules(52), acik_rules(32), acik_rules(52, flush_beats_four=False)]


def strengths(hands: list[list], rules) -> list[int]:
    """Each hand's strength through the evaluator, from its cards' summed fields."""
    summed = np.stack([fields(h).sum(axis=1) for h in hands], axis=1)
    return evaluator(rules).strengths(summed[0], summed[1], summed[2]).tolist()


@settings(max_examples=60, deadline=None)
@given(rules_at=st.integers(0, len(RULESETS) - 1), shuffle=st.randoms(use_true_random=False))
def test_strength_is_the_key_without_its_card_bits(rules_at, shuffle) -> None:
    rules = RULESETS[rules_at]
    deck = list(rules.deck)
    hands = [shuffle.sample(deck, 5) for _ in range(200)]
    assert strengths(hands, rules) == [key(h, rules) >> CARD_BITS for h in hands]


def test_strengths_of_disjoint_hands_order_like_their_keys() -> None:
    """Dropping the card bits never ties or reorders two hands that can meet in one deal."""
    rng = random.Random(7)
    for rules in RULESETS:
        deck = list(rules.deck)
        for _ in range(2_000):
            cards = rng.sample(deck, 10)
            a, b = cards[:5], cards[5:]
            sa, sb = strengths([a, b], rules)
            assert sa != sb
            assert (sa > sb) == (key(a, rules) > key(b, rules))


def test_every_hand_of_a_small_deck_matches() -> None:
    """Every five-card hand of one suit-rich slice of the 32-card deck (all ranks, two suits)."""
    rules = acik_rules(32)
    cards = [c for c in rules.deck if str(c)[1] in "hs"]
    hands = [list(h) for h in combinations(cards, 5)]
    assert strengths(hands, rules) == [key(h, rules) >> CARD_BITS for h in hands]


def test_within_its_stated_error_of_the_enumeration_over_several_seeds() -> None:
    """About 95% of the seats' estimates lie within the stated 95% half-width, all within twice
    it, on small positions enumerated in full."""
    cases = [
        position(["Ah Kd 9c", "Qh Qd 7c"]),
        position(["Ah Kd 9c 8s", "Qh Qd 7c Ts", "Jh Jc 8d 7h"]),
        position(["Th 9h 8c 7s", "Ks Kd Qc Js", "Ac Qh 8d 7h"]),
        {**position(["Ah Kd 9c 8s", "Qh Qd 7c Ts", "Th 8h 8c Jd"]), "seat": 2, "down": "8d"},
    ]
    inside = total = 0
    for view in cases:
        mine = {2: "8d"} if "down" in view else None
        got_inside, got_total = _coverage(view, brute_force(view, mine=mine), seeds=25)
        inside, total = inside + got_inside, total + got_total
    assert inside / total >= 0.9


def test_the_numpy_path_serves_the_default_suit_order_only() -> None:
    """Under another suit order the fast path does not hold, so the pure-Python Monte Carlo
    answers (the same figures as asking for it); under the default one the numpy one does."""
    ups = ["Ah Kd 9c 8s", "Qh Qd 7c Ts", "Jh Jc 8d 7h"]
    other = {**position(ups), "rules": acik_rules(32, suit_order="hdsc").to_dict()}
    assert estimate(other, exact_limit=0) == estimate(other, exact_limit=0, vector=False)
    view = position(ups)
    assert estimate(view, exact_limit=0) != estimate(view, exact_limit=0, vector=False)


def test_the_stated_error_is_the_binomial_half_width() -> None:
    rules = acik_rules(52)
    ups = ["Ah", "Kd", "Qc", "Js", "Th", "9d", "8c", "7s", "6h", "5d"]
    known = {s: [c] for s, c in enumerate(parse_cards(" ".join(ups)))}
    seen = {c for cards in known.values() for c in cards}
    pool = [c for c in rules.deck if c not in seen]
    need = {s: 4 for s in known}
    chances, error, deals = monte_carlo(
        list(known), known, need, pool, rules, b"seed", TARGET_ERROR, MAX_DEALS, Z95
    )
    p = max(chances.values(), key=lambda c: c * (1 - c))
    assert abs(error - Z95 * (p * (1 - p) / deals) ** 0.5) < 1e-12
    assert error < TARGET_ERROR
    assert abs(sum(chances.values()) - 1) < 1e-9


def test_same_position_same_figures_and_another_seed_other_figures() -> None:
    view = position(["Ah", "Qh", "Jh", "Th", "9h", "8h", "2c", "3d", "4s", "5c"], deck=52)
    first = estimate(view)
    assert first == estimate(view)
    assert not first.exact
    assert estimate({**view, "seed_hash": "another"}).chances != first.chances


def test_ten_players_street_two_reaches_the_target_with_the_plain_sample_size() -> None:
    view = position(
        ["Ah Kd", "Qh Qd", "Jh Tc", "9h 9d", "8h 7c", "6h 6d", "5h 4c", "3h 3d", "2h As", "Ks Kc"],
        deck=52,
    )
    odds = estimate(view)
    assert not odds.exact and odds.error < TARGET_ERROR
    assert odds.deals < MAX_DEALS
