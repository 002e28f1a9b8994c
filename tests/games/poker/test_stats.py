"""Category counts by full enumeration: the açık text's 52-card table and the Türk pokeri decks
(the worded table and its command line: tests/bot/test_core_hand_counts.py)."""

from __future__ import annotations

from math import comb

import pytest

from games.poker import acik_rules, turkish_rules
from games.poker.stats import category_counts

# The table at the end of acik-poker.txt ("52 KAĞITLIK DESTEDE ELLERİN TÜRLERİNE GÖRE
# OLASILIKLARI"); the text lists them in international order, the counts are the same.
ACIK_52_TABLE = {
    "straight_flush": 40,
    "four_of_a_kind": 624,
    "full_house": 3744,
    "flush": 5108,
    "straight": 10200,
    "three_of_a_kind": 54912,
    "two_pair": 123552,
    "pair": 1098240,
    "high_card": 1302540,
}


def test_acik_52_reproduces_the_rule_text_table() -> None:
    counts = category_counts(acik_rules(52))
    assert counts == ACIK_52_TABLE
    assert list(counts) == list(acik_rules(52).categories)
    assert sum(counts.values()) == 2598960


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_turkish_counts_cover_the_deck(players: int) -> None:
    rules = turkish_rules(players)
    counts = category_counts(rules)
    assert sum(counts.values()) == comb(rules.deck_size, 5)
    assert counts["royal_flush"] == counts["minor_straight_flush"] == 4
    assert counts["minor_straight"] == 4**5 - 4
    assert counts["four_of_a_kind"] == (rules.deck_size // 4) * (rules.deck_size - 4)
    assert all(n > 0 for n in counts.values())
