"""The batch path yields exactly the keys of `key()` for every hand, and completions work."""

from __future__ import annotations

from itertools import combinations

import pytest

from games.poker import (
    PokerRules,
    acik_rules,
    batch_keys,
    best_completion,
    evaluate_all,
    key,
    parse_cards,
    turkish_rules,
)


@pytest.mark.parametrize(
    "rules",
    [
        turkish_rules(2),
        turkish_rules(3, two_pair_heart_beats_kicker=True),
        turkish_rules(4, suit_order="dchs"),
        acik_rules(32),
        acik_rules(32, flush_beats_four=False, suit_order="cdsh"),
    ],
)
def test_evaluate_all_equals_key_over_every_hand(rules: PokerRules) -> None:
    hands = list(combinations(rules.deck, 5))
    assert sorted(evaluate_all(None, rules)) == sorted(batch_keys(hands, rules))


@pytest.mark.parametrize("fixed", ["Ah", "Ah 7c", "Ah Kh Qh", "7s 7h 7d 7c", "Ah Kh Qh Jh Th"])
def test_completions_of_fixed_cards(fixed: str) -> None:
    rules = acik_rules(32)
    known = parse_cards(fixed)
    pool = [c for c in rules.deck if c not in known][:18]
    expected = sorted(
        key(tuple(known) + extra, rules) for extra in combinations(pool, 5 - len(known))
    )
    assert sorted(evaluate_all(pool, rules, known)) == expected
    assert best_completion(known, pool, rules) == expected[-1]


def test_best_completion_for_a_void_bet_check() -> None:
    rules = acik_rules(52)
    unseen = [c for c in rules.deck if str(c) not in {"2c", "7d", "Ah", "Ad", "As"}]
    mine = best_completion("2c 7d", unseen, rules)
    # Opponent shows three aces; the best I can reach is a straight flush, which beats them.
    assert mine > key("Ah Ad As", rules)
    # One card to come: 2-7-9-4 plus a 3, 5, 6 or 8 stays 9-high, below a visible A-K;
    # a 9 left in the pool would make a pair and beat it.
    pool = [c for c in rules.deck if c.rank in (3, 5, 6, 8)]
    assert best_completion("2c 7d 9h 4s", pool, rules) < key("Ah Kd", rules)
    assert best_completion("2c 7d 9h 4s", [*pool, *parse_cards("9c")], rules) > key("Ah Kd", rules)


def test_best_completion_with_no_pool_raises() -> None:
    with pytest.raises(ValueError, match="too few cards"):
        best_completion("2c 7d", "3h", acik_rules(52))


@pytest.mark.parametrize(
    ("cards", "fixed", "fragment"),
    [
        ("2h 3h", "", "card 2h is not in this deck"),
        ("Ah Kh", "Ah", "both fixed and in the pool"),
        ("Ah Ah", "", "duplicate card Ah"),
        ("Ah Kh", "Qh Jh Th 9h 8h 7h", "more than 5 fixed cards"),
    ],
)
def test_batch_rejects_bad_input(cards: str, fixed: str, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        evaluate_all(cards, turkish_rules(5), fixed)
