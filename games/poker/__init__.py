"""Poker: cards, hand ranking, betting and side pots, and the Türk pokeri and Açık poker engines.

Ranking API (see docs/rules/ranking.md): `Card`, `parse_cards`, `turkish_rules`, `acik_rules`,
`evaluate` -> `HandRank` and the int-key primitive `key`.
"""

from games.poker.cards import Card, parse_cards
from games.poker.ranking import (
    HandRank,
    PokerRules,
    acik_rules,
    category_of,
    evaluate,
    key,
    turkish_rules,
)

__all__ = [
    "Card",
    "HandRank",
    "PokerRules",
    "acik_rules",
    "category_of",
    "evaluate",
    "key",
    "parse_cards",
    "turkish_rules",
]
