"""The 5-card fast path of `key`/`evaluate` agrees with the validating slow path on every hand of
the short decks and a large sample of the 52-card deck, and hands bad input to the slow path."""

from __future__ import annotations

import random
from itertools import combinations, combinations_with_replacement

import pytest

from games.poker import (
    Card,
    HandRank,
    PokerRules,
    acik_rules,
    evaluate,
    key,
    ranking,
    turkish_rules,
)
from games.poker.cards import FULL_DECK, RANK_WEIGHTS, SUIT_WEIGHTS
from games.poker.ranking import _rank_code, _slow_key


@pytest.fixture
def fast_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any fallback to the slow path fail the test: valid hands must stay on the fast path."""

    def refuse(cards: object, rules: object) -> int:
        raise AssertionError(f"slow path taken for {cards!r}")

    monkeypatch.setattr(ranking, "_slow_key", refuse)


def _disagreements(hands: list[tuple[Card, ...]], rules: PokerRules) -> list[str]:
    """Hands (as text) whose fast key or HandRank differs from the slow path's key."""
    bad = []
    for hand in hands:
        expected = _slow_key(hand, rules)
        rank = evaluate(hand, rules)
        if key(hand, rules) != expected or rank != expected or type(rank) is not HandRank:
            bad.append(" ".join(map(str, hand)))
    return bad


@pytest.mark.parametrize(
    "rules",
    [
        turkish_rules(2),
        turkish_rules(3),
        turkish_rules(4),
        turkish_rules(5),
        turkish_rules(5, two_pair_heart_beats_kicker=True),
        acik_rules(32),
        acik_rules(32, flush_beats_four=False),
    ],
    ids=repr,
)
def test_fast_path_equals_slow_path_on_every_short_deck_hand(
    rules: PokerRules, fast_only: None
) -> None:
    assert _disagreements(list(combinations(rules.deck, 5)), rules) == []


@pytest.mark.parametrize("flush_beats_four", [True, False])
def test_fast_path_equals_slow_path_on_a_52_card_sample(
    flush_beats_four: bool, fast_only: None
) -> None:
    rules = acik_rules(52, flush_beats_four=flush_beats_four)
    rnd = random.Random(52)
    hands = [tuple(rnd.sample(FULL_DECK, 5)) for _ in range(150_000)]
    # Every straight flush and a flush of each suit, which a random sample rarely holds.
    hands += [
        tuple(c for c in FULL_DECK if c.suit == s)[i : i + 5] for s in "hsdc" for i in range(9)
    ]
    hands += [tuple(Card(r, s) for r in (14, 2, 3, 4, 5)) for s in "hsdc"]
    hands += [(*FULL_DECK[i : i + 16 : 4], FULL_DECK[i + 36]) for i in range(4)]
    assert _disagreements(hands, rules) == []


def test_fast_path_order_matches_sorted_slow_keys() -> None:
    rules = acik_rules(52)
    rnd = random.Random(7)
    hands = [tuple(rnd.sample(FULL_DECK, 5)) for _ in range(3000)]
    assert sorted(hands, key=lambda h: evaluate(h, rules)) == sorted(
        hands, key=lambda h: _slow_key(h, rules)
    )


def test_every_duplicate_in_a_five_tuple_is_refused() -> None:
    rules = acik_rules(52)
    rnd = random.Random(5)
    for _ in range(300):
        cards = rnd.sample(FULL_DECK, 4)
        for slot in range(5):
            hand = list(cards)
            hand.insert(slot, rnd.choice(cards))
            with pytest.raises(ValueError, match="duplicate card"):
                evaluate(tuple(hand), rules)
            with pytest.raises(ValueError, match="duplicate card"):
                key(hand, rules)
    for card in FULL_DECK:
        with pytest.raises(ValueError, match=f"duplicate card {card}"):
            key((card,) * 5, rules)


def test_cards_outside_the_deck_and_non_cards_are_refused_by_the_fast_path_shape() -> None:
    rules = turkish_rules(2)  # 9 to A
    low = [c for c in FULL_DECK if c.rank < 9]
    rnd = random.Random(3)
    for _ in range(300):
        hand = rnd.sample(rules.deck, 4)
        hand.insert(rnd.randrange(5), rnd.choice(low))
        with pytest.raises(ValueError, match="is not in this deck"):
            evaluate(tuple(hand), rules)
    for bad in [(1, 2, 3, 4, 5), (0, 0, 0, 0, 0), ("Ah", "Kh", "Qh", "Jh", 10)]:
        with pytest.raises(ValueError):
            key(bad, rules)  # type: ignore[arg-type]


def test_non_default_suit_order_takes_the_slow_path() -> None:
    rules = turkish_rules(2, suit_order="cdsh")
    for hand in combinations(rules.deck, 5):
        assert key(hand, rules) == _slow_key(hand, rules)


def test_card_value_layout_names_the_rank_multiset_and_flushes() -> None:
    # Any five ranks (at most four of one) have a distinct rank-weight sum, and five suit
    # weights sum to 5 * weight only for five cards of that suit.
    rank_sets = [
        ranks
        for ranks in combinations_with_replacement(range(2, 15), 5)
        if max(map(ranks.count, ranks)) <= 4
    ]
    assert len({sum(RANK_WEIGHTS[r - 2] for r in ranks) for ranks in rank_sets}) == 6175
    # The slow path and the batch path name 1-5 ranks by (weight sum, count): never shared.
    for size in range(1, 6):
        sets = [r for r in combinations_with_replacement(range(2, 15), size) if r.count(r[0]) < 5]
        assert len({_rank_code(ranks) for ranks in sets}) == len(sets)
    for suits in combinations_with_replacement(range(4), 5):
        total = sum(SUIT_WEIGHTS[s] for s in suits)
        assert (total in {5 * w for w in SUIT_WEIGHTS}) == (len(set(suits)) == 1)
    assert sorted(FULL_DECK, key=int) == list(FULL_DECK)
    assert all(int(c) == c.bits for c in FULL_DECK)
