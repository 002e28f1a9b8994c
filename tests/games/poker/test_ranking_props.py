"""Property tests: the key order is a total order consistent with categories, suits alone never
change a category, keys are unique, the fast and slow paths agree, and ranks agree with treys."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from treys import Card as TreysCard
from treys import Evaluator

from games.poker import (
    Card,
    PokerRules,
    acik_rules,
    cards_of,
    category_of,
    evaluate,
    key,
    partial_key,
    turkish_rules,
)
from games.poker.cards import cards_text
from tests.games.poker.oracle import ACIK_FOUR_FIRST, ACIK_ORDER, TURKISH_ORDER

RULESETS = [
    turkish_rules(2),
    turkish_rules(3),
    turkish_rules(4),
    turkish_rules(5),
    turkish_rules(4, two_pair_heart_beats_kicker=True),
    turkish_rules(5, suit_order="hdcs"),
    acik_rules(52),
    acik_rules(32),
    acik_rules(52, flush_beats_four=False),
    acik_rules(52, suit_order="shdc"),
]
rulesets = st.sampled_from(RULESETS)


@st.composite
def two_hands(draw: st.DrawFn, size: int = 5) -> tuple[PokerRules, list[Card], list[Card]]:
    """A ruleset and two different hands of `size` cards from its deck (they may share cards)."""
    rules = draw(rulesets)
    a = draw(st.lists(st.sampled_from(rules.deck), min_size=size, max_size=size, unique=True))
    b = draw(st.lists(st.sampled_from(rules.deck), min_size=size, max_size=size, unique=True))
    return rules, a, b


def published_order(rules: PokerRules) -> list[str]:
    """The category order of the rule texts, best first, written in the test (not read from
    `rules.categories`, the table under test)."""
    if rules.game == "turkish":
        return TURKISH_ORDER
    return ACIK_ORDER if rules.flush_beats_four else ACIK_FOUR_FIRST


def category_value(rules: PokerRules, cards: list[Card]) -> int:
    order = published_order(rules)
    return len(order) - order.index(evaluate(cards, rules).category)


@settings(max_examples=400)
@given(two_hands())
def test_order_is_total_and_consistent_with_categories(
    case: tuple[PokerRules, list[Card], list[Card]],
) -> None:
    rules, a, b = case
    ka, kb = evaluate(a, rules), evaluate(b, rules)
    assert (ka < kb) + (ka == kb) + (ka > kb) == 1
    assert (ka == kb) == (set(a) == set(b))  # two different hands are never equal
    if category_value(rules, a) != category_value(rules, b):
        assert (ka > kb) == (category_value(rules, a) > category_value(rules, b))
    assert sorted([ka, kb]) == sorted([kb, ka])
    assert list(rules.categories) == published_order(rules)
    assert hash(ka) == hash(evaluate(list(reversed(a)), rules))


@settings(max_examples=300)
@given(rulesets, st.data())
def test_partial_hands_of_equal_size_are_totally_ordered(
    rules: PokerRules, data: st.DataObject
) -> None:
    size = data.draw(st.integers(1, 4))
    a = data.draw(st.lists(st.sampled_from(rules.deck), min_size=size, max_size=size, unique=True))
    b = data.draw(st.lists(st.sampled_from(rules.deck), min_size=size, max_size=size, unique=True))
    assert (key(a, rules) == key(b, rules)) == (set(a) == set(b))
    assert evaluate(a, rules).category in {
        "four_of_a_kind",
        "three_of_a_kind",
        "two_pair",
        "pair",
        "high_card",
    }


def _remap(cards: list[Card], mapping: dict[str, str]) -> list[Card]:
    return [Card(c.rank, mapping[c.suit]) for c in cards]


@settings(max_examples=300)
@given(rulesets, st.data())
def test_suit_changes_alone_never_change_the_category(
    rules: PokerRules, data: st.DataObject
) -> None:
    size = data.draw(st.integers(1, 5))
    cards = data.draw(
        st.lists(st.sampled_from(rules.deck), min_size=size, max_size=size, unique=True)
    )
    before = evaluate(cards, rules)
    # A relabelling of the suits keeps every category and every rank field.
    perm = data.draw(st.permutations("hsdc"))
    relabelled = evaluate(_remap(cards, dict(zip("hsdc", perm, strict=True))), rules)
    assert relabelled.category == before.category
    rank_fields = ~(0xF << 12)  # key bits 56+ without N1 (a suit field)
    assert (relabelled >> 56) & rank_fields == (before >> 56) & rank_fields
    # Any other suits (still distinct cards) keep the category unless a flush appears/vanishes.
    suits = data.draw(st.lists(st.sampled_from("hsdc"), min_size=size, max_size=size))
    changed = [Card(c.rank, s) for c, s in zip(cards, suits, strict=True)]
    if len(set(changed)) == size:
        flushy = size == 5 and (len({c.suit for c in cards}) == 1 or len(set(suits)) == 1)
        if not flushy:
            assert evaluate(changed, rules).category == before.category


@settings(max_examples=300)
@given(two_hands())
def test_fast_path_text_and_slow_path_agree(
    case: tuple[PokerRules, list[Card], list[Card]],
) -> None:
    rules, a, _ = case
    expected = evaluate(cards_text(a), rules)
    assert evaluate(tuple(a), rules) == expected == key(a, rules)
    assert evaluate([str(c) for c in a], rules) == expected
    assert evaluate(list(reversed(a)), rules) == expected


_TREYS = Evaluator()
_TREYS_CLASS = {
    "straight_flush": 1,
    "four_of_a_kind": 2,
    "full_house": 3,
    "flush": 4,
    "straight": 5,
    "three_of_a_kind": 6,
    "two_pair": 7,
    "pair": 8,
    "high_card": 9,
}


@settings(max_examples=400)
@given(st.data())
def test_categories_and_rank_order_agree_with_treys(data: st.DataObject) -> None:
    """Açık 52 uses standard categories and ranks: treys (which ignores suits) agrees."""
    rules = acik_rules(52)
    deck = st.sampled_from(rules.deck)
    a = data.draw(st.lists(deck, min_size=5, max_size=5, unique=True))
    b = data.draw(st.lists(deck, min_size=5, max_size=5, unique=True))
    ta, tb = (_TREYS.evaluate([TreysCard.new(str(c)) for c in h], []) for h in (a, b))
    ra, rb = evaluate(a, rules), evaluate(b, rules)
    assert _TREYS_CLASS[ra.category] == _TREYS.get_rank_class(ta)
    if ra.category == rb.category and ta != tb:
        assert (ra > rb) == (ta < tb)  # treys: lower is better


@settings(max_examples=200)
@given(rulesets, st.data())
def test_keys_decode_to_their_cards(rules: PokerRules, data: st.DataObject) -> None:
    size = data.draw(st.integers(1, 5))
    cards = data.draw(
        st.lists(st.sampled_from(rules.deck), min_size=size, max_size=size, unique=True)
    )
    k = key(cards, rules)
    assert cards_of(k, rules) == sorted(cards)
    assert category_of(k) == evaluate(cards, rules).category
    if size < 5:
        assert partial_key(cards, rules) == k
