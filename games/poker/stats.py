"""Hand-category counts by full enumeration of a deck.

Every 5-card hand of the deck is ranked through the batch path and counted by category code, in
the game's order, high to low. The core prints them as a table with the names players use
(`python -m bot.core.poker.counts`).
"""

from __future__ import annotations

from collections import Counter
from itertools import repeat
from operator import rshift

from games.poker.batch import evaluate_all
from games.poker.ranking import CATEGORY_SHIFT, HandRank, PokerRules


def category_counts(rules: PokerRules) -> dict[str, int]:
    """Return {category: number of 5-card hands} over the whole deck, in the game's order."""
    # Category and variant bits sit above CATEGORY_SHIFT; count those, then name them.
    tops = Counter(map(rshift, evaluate_all(None, rules), repeat(CATEGORY_SHIFT)))
    by_name = {HandRank(top << CATEGORY_SHIFT).category: n for top, n in tops.items()}
    return {category: by_name.get(category, 0) for category in rules.categories}
