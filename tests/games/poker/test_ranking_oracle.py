"""Hand ranking against an independent oracle: a plain reference classifier written from the rule
texts (docs/rules/ranking.md), the published category orders and the published category counts.
Nothing here reads the ranking module's own tables, so a wrong order or category there shows."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.poker import PokerRules, acik_rules, evaluate, turkish_rules
from tests.games.poker.oracle import (
    ACIK_FOUR_FIRST,
    ACIK_ORDER,
    TURKISH_ORDER,
    deck,
    expected_order,
    reference,
)

# (game, lowest rank, order best first) of each ruleset under test.
CASES = [
    (turkish_rules(2), "turkish", 9, TURKISH_ORDER),
    (turkish_rules(3), "turkish", 8, TURKISH_ORDER),
    (turkish_rules(4), "turkish", 7, TURKISH_ORDER),
    (turkish_rules(5), "turkish", 6, TURKISH_ORDER),
    (turkish_rules(4, two_pair_heart_beats_kicker=True), "turkish", 7, TURKISH_ORDER),
    (turkish_rules(5, suit_order="hdcs"), "turkish", 6, TURKISH_ORDER),
    (acik_rules(52), "acik", 2, ACIK_ORDER),
    (acik_rules(32), "acik", 7, ACIK_ORDER),
    (acik_rules(52, flush_beats_four=False), "acik", 2, ACIK_FOUR_FIRST),
    (acik_rules(52, suit_order="shdc"), "acik", 2, ACIK_ORDER),
]
cases = st.sampled_from(CASES)


@settings(max_examples=1000, deadline=None)
@given(cases, st.data())
def test_five_card_hands_order_like_the_reference(case, data) -> None:
    rules, game, lowest, order = case
    cards = st.lists(st.sampled_from(deck(lowest)), min_size=5, max_size=5, unique=True)
    a, b = data.draw(cards), data.draw(cards)
    ref_a, ref_b = reference(a, game, lowest), reference(b, game, lowest)
    ka, kb = evaluate(a, rules), evaluate(b, rules)
    assert (ka.category, kb.category) == (ref_a[0], ref_b[0])
    want = expected_order(ref_a, ref_b, order, rules.two_pair_heart_beats_kicker)
    if want is not None:
        assert (ka > kb) == (want > 0), (a, b)


@settings(max_examples=600, deadline=None)
@given(cases, st.data())
def test_partial_hands_order_like_the_reference(case, data) -> None:
    rules, game, lowest, order = case
    size = data.draw(st.integers(1, 4))
    cards = st.lists(st.sampled_from(deck(lowest)), min_size=size, max_size=size, unique=True)
    a, b = data.draw(cards), data.draw(cards)
    ref_a, ref_b = reference(a, game, lowest), reference(b, game, lowest)
    ka, kb = evaluate(a, rules), evaluate(b, rules)
    assert (ka.category, kb.category) == (ref_a[0], ref_b[0])
    want = expected_order(ref_a, ref_b, order, rules.two_pair_heart_beats_kicker)
    if want is not None:
        assert (ka > kb) == (want > 0), (a, b)


# Published counts (docs/rules/ranking.md, and the table at the end of the Açık rule text).
TURKISH_24 = {
    "royal_flush": 4,
    "straight_flush": 4,
    "minor_straight_flush": 4,
    "four_of_a_kind": 120,
    "flush": 12,
    "full_house": 720,
    "three_of_a_kind": 3840,
    "straight": 2040,
    "minor_straight": 1020,
    "two_pair": 8640,
    "pair": 23040,
    "high_card": 3060,
}
ACIK_32 = {
    "straight_flush": 20,
    "flush": 204,
    "four_of_a_kind": 224,
    "full_house": 1344,
    "straight": 5100,
    "three_of_a_kind": 10752,
    "two_pair": 24192,
    "pair": 107520,
    "high_card": 52020,
}


@pytest.mark.parametrize(
    ("rules", "game", "lowest", "published"),
    [(turkish_rules(2), "turkish", 9, TURKISH_24), (acik_rules(32), "acik", 7, ACIK_32)],
    ids=["turkish-24", "acik-32"],
)
def test_every_hand_of_a_short_deck_matches_the_reference_and_the_published_counts(
    rules: PokerRules, game: str, lowest: int, published: dict[str, int]
) -> None:
    ours: Counter[str] = Counter()
    ref: Counter[str] = Counter()
    for hand in combinations(deck(lowest), 5):
        cards = list(hand)
        ours[evaluate(cards, rules).category] += 1
        ref[reference(cards, game, lowest)[0]] += 1
    assert dict(ref) == published  # the oracle itself agrees with the published table
    assert dict(ours) == published


@pytest.mark.parametrize(("rules", "game", "lowest", "order"), CASES[:2])
def test_the_best_hand_of_each_category_beats_the_worst_of_the_next(rules, game, lowest, order):
    """Walk the published order: every category's best hand beats the next one's best and loses
    to the previous one's worst, over every hand of the deck (the small decks, to stay quick)."""
    best: dict[str, object] = {}
    worst: dict[str, object] = {}
    for hand in combinations(deck(lowest), 5):
        k = evaluate(list(hand), rules)
        name = reference(list(hand), game, lowest)[0]
        best[name] = max(best.get(name, k), k)
        worst[name] = min(worst.get(name, k), k)
    present = [name for name in order if name in best]
    assert present == order
    for higher, lower in pairwise(present):
        assert worst[higher] > best[lower], (higher, lower)
