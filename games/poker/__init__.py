"""Poker: cards, hand ranking, betting and side pots, and the Türk pokeri and Açık poker engines.

Ranking API (see docs/rules/ranking.md): `Card`, `parse_cards`, `turkish_rules`, `acik_rules`,
`evaluate` -> `HandRank`, the int-key primitives `key`, `partial_key`, `cards_of`,
`category_of`, and the batch path `evaluate_all`,
`best_completion`, `batch_keys`.
"""

from games.poker.batch import batch_keys, best_completion, evaluate_all
from games.poker.cards import Card, parse_cards
from games.poker.ranking import (
    HandRank,
    PokerRules,
    acik_rules,
    cards_of,
    category_of,
    evaluate,
    key,
    partial_key,
    turkish_rules,
)

__all__ = [
    "Card",
    "HandRank",
    "PokerRules",
    "acik_rules",
    "batch_keys",
    "best_completion",
    "cards_of",
    "category_of",
    "evaluate",
    "evaluate_all",
    "key",
    "parse_cards",
    "partial_key",
    "turkish_rules",
]
