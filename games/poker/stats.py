"""Hand-category counts by full enumeration of a deck, and the command line that prints them.

    python -m games.poker.stats --game acik --deck 52
    python -m games.poker.stats --game turkish --players 4 [--lang tr]

Every 5-card hand of the deck is ranked through the batch path and counted by category; the
table lists the categories in the game's order, high to low, with the total.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from itertools import repeat
from operator import rshift

from games.poker.batch import evaluate_all
from games.poker.ranking import CATEGORY_SHIFT, HandRank, PokerRules, acik_rules, turkish_rules


def category_counts(rules: PokerRules) -> dict[str, int]:
    """Return {category: number of 5-card hands} over the whole deck, in the game's order."""
    # Category and variant bits sit above CATEGORY_SHIFT; count those, then name them.
    tops = Counter(map(rshift, evaluate_all(None, rules), repeat(CATEGORY_SHIFT)))
    by_name = {HandRank(top << CATEGORY_SHIFT).category: n for top, n in tops.items()}
    return {category: by_name.get(category, 0) for category in rules.categories}


def format_table(rules: PokerRules, counts: dict[str, int], locale: str = "en") -> str:
    """Render the counts as an aligned text table with a total line."""
    names = {
        c: HandRank(_key_of_category(rules, c)).describe(locale) if counts[c] else c for c in counts
    }
    width = max(len(n) for n in names.values()) + 2
    total = sum(counts.values())
    digits = len(f"{total:,}")
    lines = [f"{names[c]:<{width}}{counts[c]:>{digits},}" for c in counts]
    lines.append(f"{'Toplam' if locale.startswith('tr') else 'Total':<{width}}{total:>{digits},}")
    return "\n".join(lines)


def _key_of_category(rules: PokerRules, category: str) -> int:
    value = len(rules.categories) - 1 - rules.categories.index(category)
    return (rules._variant << 4 | value) << CATEGORY_SHIFT


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, enumerate the deck and print the table."""
    parser = argparse.ArgumentParser(
        prog="python -m games.poker.stats",
        description="Count 5-card hands by category by enumerating the whole deck.",
    )
    parser.add_argument("--game", choices=("acik", "turkish"), required=True)
    parser.add_argument("--deck", type=int, default=52, help="Açık poker: 52 or 32 cards")
    parser.add_argument("--players", type=int, help="Türk pokeri: 2-5 players")
    parser.add_argument(
        "--four-beats-flush", action="store_true", help="Açık poker: flush_beats_four=False"
    )
    parser.add_argument("--lang", default="en", help="category names: en or tr")
    args = parser.parse_args(argv)
    try:
        if args.game == "turkish":
            if args.players is None:
                parser.error("--players is required with --game turkish")
            rules = turkish_rules(args.players)
        else:
            rules = acik_rules(args.deck, flush_beats_four=not args.four_beats_flush)
    except ValueError as exc:
        parser.error(str(exc))
    print(f"{rules!r}: {rules.deck_size} cards")
    print(format_table(rules, category_counts(rules), args.lang))
    return 0


if __name__ == "__main__":
    sys.exit(main())
