"""The batch path: keys of every 5-card hand (or every completion of some known cards) at once.

Instead of evaluating hands one by one, `evaluate_all` walks the rank multisets that the cards
can form. Within one multiset every hand shares the table entry (category, ranks and which
rank's suits break the tie), so each hand's key is a sum of one precomputed term per rank
group; a nested list comprehension adds them up. The few same-suit hands of a 5-distinct-rank
multiset are patched with their flush key. The keys are exactly those of `ranking.key()`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, combinations, combinations_with_replacement

from games.poker.cards import RANK_WEIGHTS, SUIT_CHARS, Card, parse_cards
from games.poker.ranking import PokerRules, key


def _masks(cards: Sequence[Card], rules: PokerRules) -> list[int]:
    remap = rules._index_masks
    return [c.mask for c in cards] if remap is None else [remap[c.index] for c in cards]


def _checked(cards: Iterable[Card | str] | str, rules: PokerRules, what: str) -> list[Card]:
    if not isinstance(rules, PokerRules):
        raise TypeError(f"rules must be a PokerRules, got {type(rules).__name__}")
    parsed = parse_cards(cards)
    deck = set(rules.deck)
    for card in parsed:
        if card not in deck:
            raise ValueError(f"{what}: card {card} is not in this deck ({rules.deck_size} cards)")
    return parsed


def _key_lists(pool: list[Card], fixed: list[Card], rules: PokerRules) -> Iterator[list[int]]:
    """Yield, per rank multiset, the keys of every hand `fixed` + cards of `pool` can make."""
    need = 5 - len(fixed)
    pool_masks = _masks(pool, rules)
    fixed_masks = _masks(fixed, rules)
    by_rank: dict[int, list[tuple[int, str]]] = {}
    for card, mask in zip(pool, pool_masks, strict=True):
        by_rank.setdefault(card.rank, []).append((mask, card.suit))
    fixed_mask_of: dict[int, int] = {}
    fixed_suits: dict[int, str] = {}
    for card, mask in zip(fixed, fixed_masks, strict=True):
        fixed_mask_of[card.rank] = fixed_mask_of.get(card.rank, 0) + mask
        fixed_suits[card.rank] = card.suit
    fixed_counts = Counter(c.rank for c in fixed)
    fixed_weight = sum(RANK_WEIGHTS[c.rank - 2] for c in fixed)
    pattern_table = rules._pattern_table
    flush_table = rules._flush_table
    # Per rank and count taken from the pool: the summed masks of each choice of cards.
    choices = {
        (rank, count): [sum(m for m, _ in combo) for combo in combinations(cards, count)]
        for rank, cards in by_rank.items()
        for count in range(1, min(4, len(cards)) + 1)
    }
    for combo in combinations_with_replacement(sorted(by_rank), need):
        counts = Counter(combo)
        if any(n > len(by_rank[r]) for r, n in counts.items()):
            continue
        code = (fixed_weight + sum(RANK_WEIGHTS[r - 2] for r in combo)) << 3 | 5
        base, tie, move = pattern_table[code]
        groups = sorted(set(counts) | set(fixed_counts))
        options: list[list[int]] = []
        for rank in groups:
            extra = fixed_mask_of.get(rank, 0)
            opts = [extra + m for m in choices[rank, counts[rank]]] if counts[rank] else [extra]
            if tie >> (4 * (rank - 2)) & 15:
                opts = [m + ((m & tie) << move) for m in opts]
            options.append(opts)
        # Largest option lists last: the final comprehension then does most of the work.
        order = sorted(range(len(groups)), key=lambda i: len(options[i]))
        keys = [base]
        for i in order:
            opts = options[i]
            keys = [k + o for k in keys for o in opts]
        if len(groups) == 5:
            # Five single cards: (mask, suit) of each option, in the order the keys were built.
            singles = [
                by_rank[rank] if counts[rank] else [(fixed_mask_of[rank], fixed_suits[rank])]
                for rank in (groups[i] for i in order)
            ]
            _patch_flushes(keys, singles, flush_table[code])
        yield keys


def _patch_flushes(
    keys: list[int], singles: list[list[tuple[int, str]]], entry: tuple[int, int, int]
) -> None:
    """Give each same-suit hand among `keys` (5 distinct ranks) its flush key `entry`."""
    base, tie, move = entry
    for suit in SUIT_CHARS:
        index = 0
        mask = 0
        for cards in singles:
            pos = next((i for i, (_, s) in enumerate(cards) if s == suit), None)
            if pos is None:
                break
            index = index * len(cards) + pos
            mask += cards[pos][0]
        else:
            keys[index] = base + ((mask & tie) << move) + mask


def evaluate_all(
    cards: Sequence[Card] | str | None, rules: PokerRules, fixed: Sequence[Card] | str = ()
) -> Iterator[int]:
    """Yield the key of every 5-card hand made of `fixed` plus cards from `cards`.

    `cards` defaults (None) to the ruleset's deck minus `fixed`. Each hand is produced once;
    the order is by rank multiset, not `itertools.combinations` order. The keys equal
    `key(hand, rules)`. ValueError for a card outside the deck, a duplicate, an overlap between
    `cards` and `fixed`, or more than 5 fixed cards.
    """
    fixed_cards = _checked(fixed, rules, "fixed cards")
    if len(fixed_cards) > 5:
        raise ValueError(f"more than 5 fixed cards: {' '.join(map(str, fixed_cards))}")
    if cards is None:
        pool = [c for c in rules.deck if c not in set(fixed_cards)]
    else:
        pool = _checked(cards, rules, "cards")
    overlap = set(pool) & set(fixed_cards)
    if overlap:
        raise ValueError(f"card {min(overlap)} is both fixed and in the pool")
    if len(fixed_cards) == 5:
        return iter([key(fixed_cards, rules)])
    return chain.from_iterable(_key_lists(pool, fixed_cards, rules))


def best_completion(
    fixed: Sequence[Card] | str, pool: Sequence[Card] | str, rules: PokerRules
) -> int:
    """Return the greatest key of `fixed` completed to 5 cards from `pool` (ValueError if none).

    For Açık's void-bet check: compare it with `key(opponent_up_cards, rules)`.
    """
    best = max(evaluate_all(pool, rules, fixed), default=None)
    if best is None:
        raise ValueError("the pool has too few cards to complete the hand")
    return best


def batch_keys(hands: Iterable[Sequence[Card]], rules: PokerRules) -> list[int]:
    """Return `key(hand, rules)` for each 5-card hand, in order."""
    return [key(hand, rules) for hand in hands]
