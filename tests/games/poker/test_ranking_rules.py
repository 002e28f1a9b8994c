"""Every example hand and tie rule of turkish-poker.txt, acik-poker.txt and DECISIONS.md."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from itertools import combinations, product

import pytest

from games.poker import (
    Card,
    PokerRules,
    acik_rules,
    cards_of,
    category_of,
    evaluate,
    evaluate_all,
    key,
    parse_cards,
    turkish_rules,
)
from games.poker.ranking import ACIK_CATEGORIES, ACIK_CATEGORIES_FOUR_FIRST, TURKISH_CATEGORIES

SUIT_SYMBOLS = str.maketrans({"♡": "h", "♥": "h", "♠": "s", "♢": "d", "♦": "d", "♣": "c"})


def hand(text: str) -> str:
    """Turn the rule texts' "♢A - ♢K" style into notation ("Ad Kd")."""
    pairs = re.findall(r"([♡♥♠♢♦♣])\s*(10|[2-9JQKA])", text)
    return " ".join(rank + suit.translate(SUIT_SYMBOLS) for suit, rank in pairs)


def suit_variants(ranks: list[int], rules: PokerRules) -> list[list[Card]]:
    """Every hand with exactly these ranks (each suit assignment without duplicate cards)."""
    hands = []
    for suits in product("hsdc", repeat=len(ranks)):
        cards = {Card(r, s) for r, s in zip(ranks, suits, strict=True)}
        if len(cards) == len(ranks):
            hands.append(sorted(cards))
    unique = {tuple(h) for h in hands}
    return [list(h) for h in unique if all(c in rules.deck for c in h)]


# --- Türk pokeri -------------------------------------------------------------------------------

TURKISH_EXAMPLES = [
    # (players, hand as printed in turkish-poker.txt, category)
    (2, "♢A - ♢K – ♢Q – ♢J – ♢10", "royal_flush"),
    (2, "♠K – ♠Q – ♠J – ♠10 –♠ 9", "straight_flush"),
    (3, "♡J - ♡10 - ♡9 - ♡8 - ♡A", "minor_straight_flush"),
    (2, "♡K - ♠K - ♢K - ♣K - ♠9", "four_of_a_kind"),
    (4, "♣A – ♣Q – ♣10 – ♣9 – ♣7", "flush"),
    (3, "♠8 – ♢8 – ♣8 – ♡J – ♣J", "full_house"),
    (2, "♡9 – ♢9 – ♣9 – ♠J – ♢Q", "three_of_a_kind"),
    (2, "♣A - ♢K - ♠Q - ♠J - ♡10", "straight"),
    (3, "♢Q – ♢J – ♠10 - ♣9 - ♡8", "straight"),
    (4, "♢10 - ♡9 - ♣8 - ♡7 - ♣A", "minor_straight"),
    (3, "♣A – ♠A – ♡J – ♢J - ♣8", "two_pair"),
    (4, "♡Q – ♢Q – ♣K – ♠7 - ♢8", "pair"),
    (4, "♠A – ♡J – ♣10 – ♠8 - ♡7", "high_card"),
]


@pytest.mark.parametrize(("players", "printed", "category"), TURKISH_EXAMPLES)
def test_turkish_examples_have_their_category(players: int, printed: str, category: str) -> None:
    # A hand legal in a smaller deck is legal in every bigger one, but a minor straight (flush)
    # is the ace with the four lowest ranks of the deck in use, so it only counts in that deck.
    for n in [players] if "minor" in category else range(players, 6):
        assert evaluate(hand(printed), turkish_rules(n)).category == category
    if "minor" in category and players < 5:
        bigger = evaluate(hand(printed), turkish_rules(players + 1)).category
        assert bigger == ("flush" if category == "minor_straight_flush" else "high_card")


def test_turkish_category_order_high_to_low() -> None:
    rules = turkish_rules(5)
    chain = [
        "Ah Kh Qh Jh Th",  # royal flush
        "Ks Qs Js Ts 9s",  # straight flush
        "9c 8c 7c 6c Ac",  # minor straight flush (A + 6 7 8 9 with five players)
        "Kh Ks Kd Kc 9s",  # four of a kind
        "Ac Qc Tc 9c 7c",  # flush
        "Ah Ad Ac Kh Kd",  # full house
        "9h 9d 9c Js Qd",  # three of a kind
        "Ac Kd Qs Js Th",  # straight
        "9h 8s 7d 6c Ah",  # minor straight
        "Ac As Jh Jd 8c",  # two pair
        "Qh Qd Kc 7s 8d",  # pair
        "As Jh Tc 8s 7h",  # high card
    ]
    ranks = [evaluate(h, rules) for h in chain]
    assert [r.category for r in ranks] == list(TURKISH_CATEGORIES)
    assert ranks == sorted(ranks, reverse=True)
    assert rules.categories == TURKISH_CATEGORIES


def test_turkish_flush_example_rank_before_suit() -> None:
    rules = turkish_rules(3)
    assert evaluate("Ac Qc Jc 8c 7c", turkish_rules(4)) > evaluate(
        "Ah Qh Th 9h 8h", turkish_rules(4)
    )
    assert evaluate("Ah Qh Th 9h 8h", rules) > evaluate("As Qs Ts 9s 8s", rules)


def test_turkish_royal_and_straight_flush_ties_by_suit() -> None:
    rules = turkish_rules(4)
    royals = [evaluate(f"A{s} K{s} Q{s} J{s} T{s}", rules) for s in "hsdc"]
    assert royals == sorted(royals, reverse=True)
    minors = [evaluate(f"T{s} 9{s} 8{s} 7{s} A{s}", rules) for s in "hsdc"]
    assert minors == sorted(minors, reverse=True)
    assert all(m.category == "minor_straight_flush" for m in minors)


def test_turkish_straight_ties_by_top_card_suit() -> None:
    rules = turkish_rules(4)
    assert evaluate("Kh Qc Jc Tc 9c", rules) > evaluate("Ks Qh Jh Th 9d", rules)


def test_turkish_minor_straight_compares_the_tens() -> None:
    rules = turkish_rules(4)
    # The ace plays low: the ten is the highest card of 10-9-8-7-A.
    assert evaluate("Th 9c 8c 7c Ac", rules) > evaluate("Ts 9h 8h 7h Ah", rules)
    assert evaluate("Ts 9h 8h 7h Ah", rules) > evaluate("Td 9s 8s 7s As", rules)
    # Any straight beats any minor straight.
    assert evaluate("Jc Tc 9c 8c 7d", rules) > evaluate("Th 9h 8h 7h As", rules)


def test_turkish_two_pair_kicker_rank_before_heart_by_default() -> None:
    rules = turkish_rules(4)
    # Higher kicker wins although the other hand holds the heart ace.
    assert evaluate("Ac As Jh Jd 9c", rules) > evaluate("Ah Ad Js Jc 8h", rules)
    # Equal ranks: the higher pair holding the heart wins, not the lower pair's heart.
    assert evaluate("Ah Ac Js Jd 8c", rules) > evaluate("As Ad Jh Jc 8d", rules)
    # Pairs still come first.
    assert evaluate("Ac As Qc Qd 7c", rules) > evaluate("Ah Ad Jh Js Kh", rules)


def test_turkish_two_pair_heart_option_puts_suit_before_kicker() -> None:
    rules = turkish_rules(4, two_pair_heart_beats_kicker=True)
    assert rules.two_pair_heart_beats_kicker
    assert evaluate("Ah Ac Js Jd 8c", rules) > evaluate("As Ad Jh Jc 9d", rules)
    # ...but only after both pair ranks.
    assert evaluate("As Ad Qh Qc 8d", rules) > evaluate("Ah Ac Js Jd 9c", rules)
    assert evaluate("Ah Ac Js Jd 8c", rules) > evaluate("As Ad Jh Jc 8d", rules)


def test_turkish_pair_ties_by_the_pair_with_the_heart() -> None:
    rules = turkish_rules(4)
    assert evaluate("Qh Qc Ks 8c 7s", rules) > evaluate("Qs Qd Kh 8d 7h", rules)
    assert evaluate("Qc Qd Ks 9c 7s", rules) > evaluate("Qs Qh Kh 8d 7h", rules)  # kicker first


def test_turkish_high_card_ties_by_the_highest_card_suit() -> None:
    rules = turkish_rules(4)
    assert evaluate("Ah Jc Tc 8c 7c", rules) > evaluate("As Jh Th 8h 7h", rules)
    assert evaluate("As Jc Tc 8c 7c", rules) < evaluate("Ac Qh Th 8h 7h", rules)


def test_turkish_ace_low_only_in_minor_straights() -> None:
    rules = turkish_rules(2)
    # 24 cards (9..A): Q-J-T-9-A is the minor straight; A-K-Q-J-T is the top straight.
    assert evaluate("Qh Js Td 9c Ah", rules).category == "minor_straight"
    assert evaluate("Ah Ks Qd Jc Th", rules).category == "straight"
    assert evaluate("Kh Qs Jd Tc 9h", rules).category == "straight"


# --- Açık poker --------------------------------------------------------------------------------

SPADES_LOW = "hdcs"  # the açık text's examples treat spades as the lowest suit


@pytest.fixture(scope="module")
def acik_extremes() -> dict[str, tuple[int, int]]:
    """(lowest, best) key of each category over every 52-card hand, spades lowest."""
    rules = acik_rules(52, suit_order=SPADES_LOW)
    lows: dict[str, int] = {}
    highs: dict[str, int] = {}
    for k in evaluate_all(None, rules):
        top = k >> 80
        if top not in highs:
            lows[top] = highs[top] = k
        elif k > highs[top]:
            highs[top] = k
        elif k < lows[top]:
            lows[top] = k
    return {category_of(top << 80): (lows[top], highs[top]) for top in highs}


def best_and_lowest(hands: list[list[Card]], rules: PokerRules) -> tuple[list[Card], list[Card]]:
    ranked = sorted(hands, key=lambda h: key(h, rules))
    return ranked[-1], ranked[0]


def ranks_of(cards: list[Card]) -> list[int]:
    return sorted((c.rank for c in cards), reverse=True)


# The açık text's best and lowest hand of each category: (ranks, the card whose suit the text
# names). With the text's suits (spades lowest) the extreme hand holds that card; when the text
# names a single suit for all five cards, every card has it.
@pytest.mark.parametrize(
    ("category", "best", "best_card", "lowest", "lowest_card"),
    [
        ("straight_flush", "Ah Kh Qh Jh Th", None, "5s 4s 3s 2s As", None),
        ("flush", "Ah Kh Qh Jh 9h", None, "7s 5s 4s 3s 2s", None),
        ("straight", "A K Q J T", "Ah", "5 4 3 2 A", "5s"),
        ("high_card", "A K Q J 9", "Ah", "7 5 4 3 2", "7s"),
    ],
)
def test_acik_extremes_of_five_distinct_rank_categories(
    acik_extremes: dict[str, tuple[int, int]],
    category: str,
    best: str,
    best_card: str | None,
    lowest: str,
    lowest_card: str | None,
) -> None:
    rules = acik_rules(52, suit_order=SPADES_LOW)
    low_key, high_key = acik_extremes[category]
    for found, text, card in (
        (cards_of(high_key, rules), best, best_card),
        (cards_of(low_key, rules), lowest, lowest_card),
    ):
        assert evaluate(found, rules).category == category
        if card is None:
            assert set(found) == set(parse_cards(text))
        else:
            ranks = sorted((RANKS.index(r) + 2 for r in text.split()), reverse=True)
            assert ranks_of(found) == ranks
            assert Card.parse(card) in found


RANKS = "23456789TJQKA"


@pytest.mark.parametrize(
    ("best_ranks", "best_card", "low_ranks", "lowest_card", "category"),
    [
        ([14, 14, 13, 13, 12], "Qh", [3, 3, 2, 2, 4], "4s", "two_pair"),
        ([14, 14, 13, 12, 11], "Kh", [2, 2, 5, 4, 3], "5s", "pair"),
    ],
)
def test_acik_best_and_lowest_two_pair_and_pair(
    best_ranks: list[int], best_card: str, low_ranks: list[int], lowest_card: str, category: str
) -> None:
    rules = acik_rules(52, suit_order=SPADES_LOW)
    top, _ = best_and_lowest(suit_variants(best_ranks, rules), rules)
    _, bottom = best_and_lowest(suit_variants(low_ranks, rules), rules)
    assert Card.parse(best_card) in top
    assert Card.parse(lowest_card) in bottom
    assert evaluate(top, rules).category == evaluate(bottom, rules).category == category
    # Nothing of that category with other ranks is above the best or below the lowest.
    assert evaluate("Ah Ad Ks Kc Qh", rules) > evaluate("Ah Ad Ks Kc Jh", rules)
    assert evaluate("Ah Ad Kh Qs Js", rules) > evaluate("Ah Ad Kh Qs Ts", rules)
    # The suit of the highest unpaired card decides, whatever suits the pairs hold.
    if category == "pair":
        assert evaluate("As Ad Kh Qs Js", rules) > evaluate("Ah Ac Kd Qh Jh", rules)
    else:
        assert evaluate("As Ad Ks Kc Qh", rules) > evaluate("Ah Ac Kh Kd Qd", rules)


def test_acik_four_full_three_compare_by_the_set() -> None:
    rules = acik_rules(52)
    assert evaluate("Ah Ad As Ac 2c", rules) > evaluate("Kh Kd Ks Kc Ac", rules)
    assert evaluate("2h 2d 2s 2c 3c", rules).category == "four_of_a_kind"
    assert evaluate("Ah Ad As 2c 2d", rules) > evaluate("Kh Kd Ks Ac Ad", rules)
    assert evaluate("2h 2d 2s 3c 3d", rules).category == "full_house"
    assert evaluate("Ah Ad As 3c 2d", rules) > evaluate("Kh Kd Ks Ac Qd", rules)


def test_acik_category_order_and_flush_option() -> None:
    rules = acik_rules(52)
    chain = [
        "5s 4s 3s 2s As",
        "7s 5s 4s 3s 2s",
        "Ah Ad As Ac Kc",
        "Ah Ad As Kc Kd",
        "Ah Kd Qd Jd Td",
        "Ah Ad As Kc Qd",
        "Ah Ad Ks Kc Qh",
        "Ah Ad Kh Qs Js",
        "Ah Kd Qd Jd 9d",
    ]
    ranks = [evaluate(h, rules) for h in chain]
    assert [r.category for r in ranks] == list(ACIK_CATEGORIES)
    assert ranks == sorted(ranks, reverse=True)
    four_first = acik_rules(52, flush_beats_four=False)
    assert four_first.categories == ACIK_CATEGORIES_FOUR_FIRST
    assert evaluate("2h 2d 2s 2c 3c", four_first) > evaluate("Ah Kh Qh Jh 9h", four_first)
    assert evaluate("2h 2d 2s 2c 3c", rules) < evaluate("7s 5s 4s 3s 2s", rules)


def test_acik_ace_low_straight_is_lowest_and_tops_at_five_or_ten() -> None:
    rules = acik_rules(52)
    wheel = evaluate("5h 4s 3d 2c Ah", rules)
    assert wheel.category == "straight"
    assert wheel < evaluate("6c 5c 4c 3c 2d", rules)
    # Its top card is the five: the five's suit decides, not the ace's.
    assert evaluate("5h 4s 3d 2c Ac", rules) > evaluate("5s 4h 3h 2h Ah", rules)
    short = acik_rules(32)
    low = evaluate("Th 9s 8d 7c Ah", short)
    assert low.category == "straight"
    assert low < evaluate("Jc Td 9d 8d 7d", short)
    assert evaluate("Ts 9s 8s 7s As", short).category == "straight_flush"


def test_acik_straight_flush_ties_by_suit_and_rank() -> None:
    rules = acik_rules(52)
    assert evaluate("Ah Kh Qh Jh Th", rules) > evaluate("As Ks Qs Js Ts", rules)
    assert evaluate("6c 5c 4c 3c 2c", rules) > evaluate("5h 4h 3h 2h Ah", rules)


# --- Partial (visible) hands -------------------------------------------------------------------


def test_partial_hands_categories_and_order() -> None:
    rules = acik_rules(52)
    assert evaluate("Ah", rules) > evaluate("As", rules) > evaluate("Kh", rules)
    assert evaluate("2c 2d", rules).category == "pair"
    assert evaluate("2c 2d", rules) > evaluate("Ah Kh", rules)
    assert evaluate("Ah Kh Qh Jh", rules).category == "high_card"  # no flush or straight
    assert evaluate("9c 9d 9h", rules).category == "three_of_a_kind"
    assert evaluate("9c 9d 5h 5c", rules).category == "two_pair"
    assert evaluate("9c 9d 9h 9s", rules).category == "four_of_a_kind"
    order = ["9c 9d 9h 9s", "2c 2d 2h 3s", "Ac Ad Kc Kd", "Ac Ad Kc Qd", "Ac Kd Qc Jd"]
    ranks = [evaluate(h, rules) for h in order]
    assert ranks == sorted(ranks, reverse=True)


def test_partial_ties_go_to_highest_unpaired_card_then_pair_suit() -> None:
    rules = acik_rules(52)
    # Highest unpaired card decides even against the pair holding the heart.
    assert evaluate("9c 9d As", rules) > evaluate("9h 9s Ad", rules)
    assert evaluate("Ah 7c", rules) > evaluate("As 7h", rules)
    # No unpaired card: the pair holding the higher suit.
    assert evaluate("Kh Kc", rules) > evaluate("Ks Kd", rules)
    assert evaluate("Ks Kc Qs Qc", rules) < evaluate("Kh Kd Qh Qd", rules)


def test_partial_equal_size_disjoint_hands_never_tie() -> None:
    rules = acik_rules(32)
    for size in (1, 2):
        hands = list(combinations(rules.deck, size))
        keys = {key(h, rules) for h in hands}
        assert len(keys) == len(hands)


# --- Errors and the rules object ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "fragment"),
    [
        ("Ah Kh Qh Jh Xh", "unknown rank 'X'"),
        ("Ah Kh Qh Jh Tz", "unknown suit 'z'"),
        ("Ah Kh Qh Jh Ah", "duplicate card Ah"),
        ("Ah Kh Qh Jh 2h", "card 2h is not in this deck"),
        ("Ah Kh Qh Jh Th 9h", "more than 5 cards"),
        ("", "no cards"),
    ],
)
def test_bad_input_raises_value_error_naming_the_card(cards: str, fragment: str) -> None:
    rules = turkish_rules(4)
    with pytest.raises(ValueError, match=fragment):
        evaluate(cards, rules)
    with pytest.raises(ValueError, match=fragment):
        key(cards, rules)


def test_card_sequences_and_text_agree() -> None:
    rules = turkish_rules(5)
    text = "Ah Kh Qh Jh 10h"
    assert evaluate(text, rules) == evaluate(parse_cards(text), rules) == key(text, rules)
    assert evaluate(tuple(parse_cards(text)), rules) == evaluate(
        ["Ah", "Kh", "Qh", "Jh", "Th"], rules
    )


@pytest.mark.parametrize(
    "rules",
    [
        turkish_rules(2),
        turkish_rules(5, suit_order="hdcs", two_pair_heart_beats_kicker=True),
        acik_rules(),
        acik_rules(32, flush_beats_four=False, suit_order="sdch"),
    ],
)
def test_rules_round_trip_hashable_immutable(rules: PokerRules) -> None:
    again = PokerRules.from_dict(rules.to_dict())
    assert again == rules
    assert hash(again) == hash(rules)
    assert len(rules.deck) == rules.deck_size
    assert rules.deck == tuple(sorted(rules.deck))
    with pytest.raises(AttributeError):
        rules.game = "okey"  # type: ignore[misc]


@pytest.mark.parametrize(
    "make",
    [
        lambda: turkish_rules(6),
        lambda: turkish_rules(1),
        lambda: acik_rules(36),
        lambda: acik_rules(52, suit_order="hhdc"),
        lambda: turkish_rules(3, colour="red"),
        lambda: acik_rules(52, two_pair_heart_beats_kicker=True),
        lambda: PokerRules.from_dict({"game": "okey"}),
    ],
)
def test_bad_rules_raise_value_error(make: Callable[[], object]) -> None:
    with pytest.raises(ValueError):
        make()


def test_turkish_deck_sizes() -> None:
    assert [turkish_rules(n).deck_size for n in (2, 3, 4, 5)] == [24, 28, 32, 36]
    assert [len(turkish_rules(n).deck) for n in (2, 3, 4, 5)] == [24, 28, 32, 36]


def test_suit_order_option_changes_suit_ties_only() -> None:
    default = acik_rules(52)
    spades_low = acik_rules(52, suit_order=SPADES_LOW)
    a, b = "As Ks Qs Js 9s", "Ad Kd Qd Jd 9d"
    assert evaluate(a, default) > evaluate(b, default)
    assert evaluate(a, spades_low) < evaluate(b, spades_low)
    assert evaluate(a, spades_low).category == "flush"


def test_categories_are_codes() -> None:
    # the names players read come from the core's catalogue (tests/bot/test_core_catalogue.py)
    tr = turkish_rules(4)
    assert evaluate("Ah Kh Qh Jh Th", tr).category == "royal_flush"
    assert evaluate("Ah Ad As Kc Kd", tr).category == "full_house"
    assert evaluate("Ah Ad Ks Kc Qh", tr).category == "two_pair"
    ac = acik_rules()
    assert evaluate("5s 4s 3s 2s As", ac).category == "straight_flush"
    assert evaluate("Ah Kd Qd Jd 9d", ac).category == "high_card"


def test_hand_rank_repr_and_game() -> None:
    rank = evaluate("Ah Ad Kh Qs Js", acik_rules())
    assert repr(rank).startswith("HandRank(pair, 0x")
    assert rank.game == "acik"
    assert evaluate("Ah Ad Kh Qs Js", turkish_rules(4)).game == "turkish"


@pytest.mark.parametrize(
    ("category", "best", "best_card", "lowest", "lowest_card"),
    [
        # acik-poker.txt: "kare as" / "kare iki" with any fifth card; "ful as" / "ful iki" with
        # any pair; "üç as" / "üç iki"; "as döper" A A K K + kupa dam / "32 döper" + maça 4;
        # "per as" A A + kupa papaz Q J / "per iki" 2 2 + maça 5 4 3.
        ("four_of_a_kind", {14: 4}, None, {2: 4}, None),
        ("full_house", {14: 3}, None, {2: 3}, None),
        ("three_of_a_kind", {14: 3}, None, {2: 3}, None),
        ("two_pair", {14: 2, 13: 2, 12: 1}, "Qh", {3: 2, 2: 2, 4: 1}, "4s"),
        ("pair", {14: 2, 13: 1, 12: 1, 11: 1}, "Kh", {2: 2, 5: 1, 4: 1, 3: 1}, "5s"),
    ],
)
def test_acik_extremes_of_grouped_categories(
    acik_extremes: dict[str, tuple[int, int]],
    category: str,
    best: dict[int, int],
    best_card: str | None,
    lowest: dict[int, int],
    lowest_card: str | None,
) -> None:
    rules = acik_rules(52, suit_order=SPADES_LOW)
    low_key, high_key = acik_extremes[category]
    for found_key, groups, card in ((high_key, best, best_card), (low_key, lowest, lowest_card)):
        found = cards_of(found_key, rules)
        counts = Counter(c.rank for c in found)
        assert all(counts[rank] == n for rank, n in groups.items()), found
        if card is not None:
            assert Card.parse(card) in found


def test_fast_path_rejects_bad_card_tuples() -> None:
    rules = turkish_rules(4)
    ace, king = Card.parse("Ah"), Card.parse("Kd")
    with pytest.raises(ValueError, match="duplicate card Ah"):
        evaluate((ace, ace, king, Card.parse("Qc"), Card.parse("Js")), rules)
    with pytest.raises(ValueError, match="card 2h is not in this deck"):
        key(tuple(parse_cards("Ah Kh Qh Jh 2h")), rules)
    with pytest.raises(ValueError, match="card 6c is not in this deck"):
        key(tuple(parse_cards("Ah Ad As 7c 6c")), rules)
    with pytest.raises(TypeError, match="PokerRules"):
        evaluate("Ah Kh Qh Jh Th", {"game": "acik"})  # type: ignore[arg-type]
