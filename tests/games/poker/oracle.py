"""An independent reference for hand ranking, written from the rule texts
(docs/rules/ranking.md): the published category orders and a plain classifier. It reads nothing
from games.poker.ranking, so the tests that use it catch a wrong table there."""

from __future__ import annotations

from collections import Counter

from games.poker import Card

# Best first, as the rule texts list them.
TURKISH_ORDER = [
    "royal_flush",
    "straight_flush",
    "minor_straight_flush",
    "four_of_a_kind",
    "flush",
    "full_house",
    "three_of_a_kind",
    "straight",
    "minor_straight",
    "two_pair",
    "pair",
    "high_card",
]
ACIK_ORDER = [
    "straight_flush",
    "flush",
    "four_of_a_kind",
    "full_house",
    "straight",
    "three_of_a_kind",
    "two_pair",
    "pair",
    "high_card",
]
ACIK_FOUR_FIRST = [
    "straight_flush",
    "four_of_a_kind",
    "flush",
    "full_house",
    "straight",
    "three_of_a_kind",
    "two_pair",
    "pair",
    "high_card",
]


def deck(lowest: int) -> list[Card]:
    """Every card from `lowest` to the ace, built here rather than taken from the rules."""
    return [Card(rank, suit) for rank in range(lowest, 15) for suit in "hsdc"]


def reference(cards: list[Card], game: str, lowest: int) -> tuple[str, tuple[int, ...]]:
    """The category and the rank signature (compared high to low) of a hand, by the rule text."""
    counts = Counter(c.rank for c in cards)
    by_group = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if len(cards) == 5 and len(counts) == 5:
        ranks = sorted(counts)
        flush = len({c.suit for c in cards}) == 1
        low_run = ranks == [lowest, lowest + 1, lowest + 2, lowest + 3, 14]
        if ranks[4] - ranks[0] == 4 or low_run:
            top = lowest + 3 if low_run else ranks[4]
            if game == "turkish":
                if low_run:
                    return ("minor_straight_flush" if flush else "minor_straight"), (top,)
                if flush:
                    return ("royal_flush" if top == 14 else "straight_flush"), (top,)
                return "straight", (top,)
            return ("straight_flush" if flush else "straight"), (top,)
        if flush:
            return "flush", tuple(sorted(ranks, reverse=True))
    if shape[0] == 4:
        name = "four_of_a_kind"
    elif shape[:2] == [3, 2]:
        name = "full_house"
    elif shape[0] == 3:
        name = "three_of_a_kind"
    elif shape[:2] == [2, 2]:
        name = "two_pair"
    elif shape[0] == 2:
        name = "pair"
    else:
        name = "high_card"
    return name, tuple(by_group)


def expected_order(a, b, order: list[str], suit_before_kicker: bool = False) -> int | None:
    """+1 when reference hand `a` beats `b`, -1 when it loses, None when suits decide.

    `suit_before_kicker` is the Türk option that compares two pair's higher-pair suit before the
    kicker: two pair of the same pair ranks is then decided by suits first."""
    (ca, ra), (cb, rb) = a, b
    if ca != cb:
        return 1 if order.index(ca) < order.index(cb) else -1
    if suit_before_kicker and ca == "two_pair" and ra[:2] == rb[:2]:
        return None
    if ra != rb:
        return 1 if ra > rb else -1
    return None
