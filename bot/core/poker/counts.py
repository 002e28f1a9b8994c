"""The hand-category count table, worded: every 5-card hand of a deck counted by category
(`games.poker.stats`) and printed with the names players use, in Turkish or English.

    python -m bot.core.poker.counts --game acik --deck 52 [--lang tr]
    python -m bot.core.poker.counts --game turkish --players 4

The table lists the categories in the game's order, high to low, with the total.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bot.core.i18n import FALLBACK, hand_name, normalize_locale, t
from games.poker.ranking import PokerRules, acik_rules, turkish_rules
from games.poker.stats import category_counts


def format_table(rules: PokerRules, counts: dict[str, int], locale: str = "en") -> str:
    """Render the counts (`category_counts`) as an aligned text table with a total line, the
    categories named in `locale` ("tr" or "en"; a platform locale such as `tr_TR` works too)."""
    names = {c: hand_name(locale, rules.game, c) for c in counts}
    total_name = t(normalize_locale(locale) or FALLBACK, "hand.counts_total")
    width = max(len(n) for n in names.values()) + 2
    total = sum(counts.values())
    digits = len(f"{total:,}")
    lines = [f"{names[c]:<{width}}{counts[c]:>{digits},}" for c in counts]
    lines.append(f"{total_name:<{width}}{total:>{digits},}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, enumerate the deck and print the table."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.core.poker.counts",
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
