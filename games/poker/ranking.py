"""Hand ranking for Türk pokeri and Açık poker (rules/DECISIONS.md), as comparable integer keys.

Every hand maps to one int key; a better hand has a greater key, and the key is injective (two
different sets of cards never share a key), so the rule texts' "two hands are never equal" holds.
Layout of a key, high bits to low:

    variant(4) | category(4) | r1(4) | r2(4) | N1(4) | r3(4) | r4(4) | r5(4) | N2(4) | cards(52)

- variant: 0 Türk pokeri, 1 Açık (flush beats four), 2 Açık (four beats flush); it only tells
  `HandRank` which categories apply, in which order. Keys of different rulesets are not comparable.
- category: position in the game's order, high card = 0.
- r1..r5: ranks of the rank groups, by (group size, rank) descending; a straight stores only
  its top card (5 or T for an ace-low straight). Missing ranks are 0.
- N1, N2: the suit tie-break: a 4-bit mask of the suits (one bit per suit, the stronger suit the
  higher bit) of the card(s) the rules compare — the flush, the straight's top card, the pair
  holding the higher suit, or the highest unpaired card. N1 is used only when the option
  `two_pair_heart_beats_kicker` puts the higher pair's suit before the kicker.
- cards: bit 4*(rank-2) + suit strength for each card; this breaks any remaining tie so keys are
  unique (it only ever decides between hands that share a card, which never meet at a table).

The fast path adds five Cards as ints (see the layout in cards.py): the sum holds a suit-weight
sum (flush test), the card bits and a rank-weight sum that names the rank multiset. Two list
lookups give the entry of that multiset (flush or not): the hand's key minus its card bits for
each possible suit nibble of the tie-break rank, that rank's bit position, and the bit count a
valid hand has (fewer means a duplicate card). One evaluation is a few integer operations and
four list/tuple subscripts; anything else (text, 1-4 cards, a non-default suit order, bad input)
misses a lookup or the bit count and takes `_slow_key`, which validates everything.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any

from games.poker.cards import (
    DEFAULT_SUIT_ORDER,
    FULL_DECK,
    MASK_SHIFT,
    RANK_WEIGHTS,
    SUIT_CHARS,
    SUIT_WEIGHTS,
    WEIGHT_SHIFT,
    Card,
    make_deck,
    parse_cards,
)

ROYAL_FLUSH = "royal_flush"
STRAIGHT_FLUSH = "straight_flush"
MINOR_STRAIGHT_FLUSH = "minor_straight_flush"
FOUR_OF_A_KIND = "four_of_a_kind"
FLUSH = "flush"
FULL_HOUSE = "full_house"
THREE_OF_A_KIND = "three_of_a_kind"
STRAIGHT = "straight"
MINOR_STRAIGHT = "minor_straight"
TWO_PAIR = "two_pair"
PAIR = "pair"
HIGH_CARD = "high_card"

TURKISH_CATEGORIES = (
    ROYAL_FLUSH,
    STRAIGHT_FLUSH,
    MINOR_STRAIGHT_FLUSH,
    FOUR_OF_A_KIND,
    FLUSH,
    FULL_HOUSE,
    THREE_OF_A_KIND,
    STRAIGHT,
    MINOR_STRAIGHT,
    TWO_PAIR,
    PAIR,
    HIGH_CARD,
)
ACIK_CATEGORIES = (
    STRAIGHT_FLUSH,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    STRAIGHT,
    THREE_OF_A_KIND,
    TWO_PAIR,
    PAIR,
    HIGH_CARD,
)
ACIK_CATEGORIES_FOUR_FIRST = (
    STRAIGHT_FLUSH,
    FOUR_OF_A_KIND,
    FLUSH,
    FULL_HOUSE,
    STRAIGHT,
    THREE_OF_A_KIND,
    TWO_PAIR,
    PAIR,
    HIGH_CARD,
)
_CATEGORIES_BY_VARIANT = (TURKISH_CATEGORIES, ACIK_CATEGORIES, ACIK_CATEGORIES_FOUR_FIRST)
# Lowest first: the category field of a key indexes these.
_CATEGORY_BY_VALUE = tuple(tuple(reversed(order)) for order in _CATEGORIES_BY_VARIANT)

_MASK = (1 << 52) - 1  # the card bits of a key, or of a sum of Cards shifted by MASK_SHIFT
# The fast path's rows (see `_fast_rows`): per suit-weight sum a sequence, by multiset id, of
# entries that are tuple[int | None, ...] or None. The entries are typed Any because the fast
# paths index them unchecked: a None raises TypeError and they fall back to the slow path.
FastRows = tuple[Sequence[Any], ...]
# Bit positions of the key layout (see the module docstring).
CARDS_BITS = 52
_N2 = 52
_R5, _R4, _R3 = 56, 60, 64
_N1 = 68
_R2, _R1 = 72, 76
CATEGORY_SHIFT = 80
VARIANT_SHIFT = 84

TURKISH_LOWEST_RANK = {2: 9, 3: 8, 4: 7, 5: 6}
ACIK_LOWEST_RANK = {52: 2, 32: 7}
_RULES_OPTIONS = {"suit_order", "two_pair_heart_beats_kicker"}


class HandRank(int):
    """The rank of a hand: an int key (a better hand is greater, distinct hands never equal).

    Compare, sort and hash it like an int; `.category` is the category code and `.game` the
    game it ranks. The names players read are not here: the core words the code in Turkish or
    English (`bot/core/locales`, keys `hand.<game>.<category>`).
    """

    __slots__ = ()

    @property
    def category(self) -> str:
        """The category code, e.g. "full_house"."""
        return _CATEGORY_BY_VALUE[self >> VARIANT_SHIFT][(self >> CATEGORY_SHIFT) & 15]

    @property
    def game(self) -> str:
        """The game this rank belongs to: "turkish" or "acik"."""
        return "turkish" if self >> VARIANT_SHIFT == 0 else "acik"

    def __repr__(self) -> str:
        return f"HandRank({self.category}, {int(self):#x})"


class PokerRules:
    """An immutable, hashable ruleset for ranking hands: the game, its deck and its options.

    Build one with `turkish_rules(players)` or `acik_rules(deck)`; store it with `to_dict()` and
    rebuild it with `PokerRules.from_dict(data)`.
    """

    __slots__ = (
        "_fast_rows",
        "_flush_table",
        "_index_masks",
        "_outside",
        "_pattern_table",
        "_variant",
        "categories",
        "deck",
        "deck_size",
        "flush_beats_four",
        "game",
        "lowest_rank",
        "players",
        "suit_order",
        "two_pair_heart_beats_kicker",
    )
    game: str
    players: int | None
    deck_size: int
    lowest_rank: int
    suit_order: str
    flush_beats_four: bool
    two_pair_heart_beats_kicker: bool
    deck: tuple[Card, ...]
    categories: tuple[str, ...]
    _variant: int
    _pattern_table: dict[int, tuple[int, int, int]]
    _flush_table: dict[int, tuple[int, int, int]]
    _outside: int
    _fast_rows: FastRows
    _index_masks: tuple[int, ...] | None

    def __init__(
        self,
        game: str,
        *,
        players: int | None = None,
        deck_size: int,
        suit_order: str = DEFAULT_SUIT_ORDER,
        flush_beats_four: bool = True,
        two_pair_heart_beats_kicker: bool = False,
    ) -> None:
        """Validate and build a ruleset; prefer `turkish_rules` / `acik_rules`."""
        if game == "turkish":
            if players not in TURKISH_LOWEST_RANK:
                raise ValueError(f"Türk pokeri is for 2-5 players, got {players!r}")
            lowest = TURKISH_LOWEST_RANK[players]
            if deck_size != 4 * (15 - lowest):
                raise ValueError(
                    f"a {players}-player Türk pokeri deck has {4 * (15 - lowest)} cards"
                )
            flush_beats_four = True
            variant = 0
        elif game == "acik":
            if deck_size not in ACIK_LOWEST_RANK:
                raise ValueError(f"Açık poker uses a 52 or 32 card deck, got {deck_size!r}")
            if two_pair_heart_beats_kicker:
                raise ValueError("two_pair_heart_beats_kicker is a Türk pokeri option")
            if not isinstance(flush_beats_four, bool):
                raise ValueError(
                    f"flush_beats_four must be true or false, got {flush_beats_four!r}"
                )
            lowest = ACIK_LOWEST_RANK[deck_size]
            players = None
            variant = 1 if flush_beats_four else 2
        else:
            raise ValueError(f"unknown poker game {game!r} (expected 'turkish' or 'acik')")
        if not isinstance(suit_order, str) or sorted(suit_order) != sorted(SUIT_CHARS):
            raise ValueError(
                f"suit_order must list the suits h s d c once each, high to low; got {suit_order!r}"
            )
        if not isinstance(two_pair_heart_beats_kicker, bool):
            raise ValueError(
                "two_pair_heart_beats_kicker must be true or false, "
                f"got {two_pair_heart_beats_kicker!r}"
            )
        set_ = object.__setattr__
        set_(self, "game", game)
        set_(self, "players", players)
        set_(self, "deck_size", deck_size)
        set_(self, "lowest_rank", lowest)
        set_(self, "suit_order", suit_order)
        set_(self, "flush_beats_four", flush_beats_four)
        set_(self, "two_pair_heart_beats_kicker", two_pair_heart_beats_kicker)
        set_(self, "deck", make_deck(lowest))
        set_(self, "categories", _CATEGORIES_BY_VARIANT[variant])
        set_(self, "_variant", variant)
        pattern_table, flush_table = _tables(game, lowest, variant, two_pair_heart_beats_kicker)
        set_(self, "_pattern_table", pattern_table)
        set_(self, "_flush_table", flush_table)
        set_(self, "_outside", ((1 << CARDS_BITS) - 1) ^ sum(c.mask for c in self.deck))
        set_(self, "_index_masks", _index_masks(suit_order))
        # A non-default suit order needs remapped masks: empty fast rows send every hand to
        # the slow path.
        if self._index_masks is None:
            set_(self, "_fast_rows", _fast_rows(game, lowest, variant, two_pair_heart_beats_kicker))
        else:
            set_(self, "_fast_rows", _NO_FAST_ROWS)

    def _params(self) -> tuple[Any, ...]:
        return (
            self.game,
            self.players,
            self.deck_size,
            self.suit_order,
            self.flush_beats_four,
            self.two_pair_heart_beats_kicker,
        )

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-safe description of this ruleset (for engine snapshots)."""
        data: dict[str, Any] = {"game": self.game}
        if self.game == "turkish":
            data["players"] = self.players
            data["two_pair_heart_beats_kicker"] = self.two_pair_heart_beats_kicker
        else:
            data["deck"] = self.deck_size
            data["flush_beats_four"] = self.flush_beats_four
        data["suit_order"] = self.suit_order
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PokerRules:
        """Rebuild a ruleset from `to_dict()` output; ValueError on a bad description."""
        if not isinstance(data, dict):
            raise ValueError(f"rules must be a dict, got {type(data).__name__}")
        options = dict(data)
        game = options.pop("game", None)
        if game == "turkish":
            players = options.pop("players", None)
            return turkish_rules(players, **options)
        if game == "acik":
            return acik_rules(**options)
        raise ValueError(f"unknown poker game {game!r} (expected 'turkish' or 'acik')")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PokerRules):
            return NotImplemented
        return self._params() == other._params()

    def __hash__(self) -> int:
        return hash(self._params())

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("PokerRules is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("PokerRules is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (PokerRules.from_dict, (self.to_dict(),))

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.to_dict().items() if k != "game")
        return f"{self.game}_rules({opts})"


def _check_options(options: dict[str, Any], allowed: set[str]) -> None:
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise ValueError(
            f"unknown ranking option(s) {', '.join(unknown)}; accepted: {', '.join(sorted(allowed))}"
        )


@lru_cache(maxsize=64)
def _cached_rules(*params: Any) -> PokerRules:
    game, players, deck_size, suit_order, flush_beats_four, heart_first = params
    return PokerRules(
        game,
        players=players,
        deck_size=deck_size,
        suit_order=suit_order,
        flush_beats_four=flush_beats_four,
        two_pair_heart_beats_kicker=heart_first,
    )


def turkish_rules(players: int, **options: Any) -> PokerRules:
    """Türk pokeri ranking for 2-5 players (24/28/32/36 cards).

    Options: `suit_order` (default "hsdc", high to low) and `two_pair_heart_beats_kicker`
    (default False). ValueError on a bad player count or option.
    """
    _check_options(options, _RULES_OPTIONS)
    if isinstance(players, bool) or players not in TURKISH_LOWEST_RANK:
        raise ValueError(f"Türk pokeri is for 2-5 players, got {players!r}")
    suit_order = options.get("suit_order", DEFAULT_SUIT_ORDER)
    heart_first = options.get("two_pair_heart_beats_kicker", False)
    deck_size = 4 * (15 - TURKISH_LOWEST_RANK[players])
    try:
        return _cached_rules("turkish", players, deck_size, suit_order, True, heart_first)
    except TypeError:  # unhashable option value
        raise ValueError(f"bad option value in {options!r}") from None


def acik_rules(deck: int = 52, flush_beats_four: bool = True, **options: Any) -> PokerRules:
    """Açık poker ranking with a 52-card (2..A) or 32-card (7..A) deck.

    `flush_beats_four` (default True) orders flush above four of a kind; option `suit_order`
    (default "hsdc", high to low). ValueError on a bad deck size or option.
    """
    _check_options(options, {"suit_order"})
    if isinstance(deck, bool) or deck not in ACIK_LOWEST_RANK:
        raise ValueError(f"Açık poker uses a 52 or 32 card deck, got {deck!r}")
    suit_order = options.get("suit_order", DEFAULT_SUIT_ORDER)
    try:
        return _cached_rules("acik", None, deck, suit_order, flush_beats_four, False)
    except TypeError:
        raise ValueError(f"bad option value in {options!r}") from None


def _index_masks(suit_order: str) -> tuple[int, ...] | None:
    """Card mask by `Card.index` under a non-default suit order (None for the default)."""
    if suit_order == DEFAULT_SUIT_ORDER:
        return None
    strength = {s: 3 - i for i, s in enumerate(suit_order)}
    masks = [0] * 52
    for rank in range(2, 15):
        for suit in SUIT_CHARS:
            card = Card(rank, suit)
            masks[card.index] = 1 << (4 * (rank - 2) + strength[suit])
    return tuple(masks)


def _classify(
    counts: Counter[int], game: str, lowest: int, flush: bool, heart_first: bool
) -> tuple[str, list[int], int, bool]:
    """Return (category, rank fields, rank whose suits break the tie, tie before kicker)."""
    groups = sorted(counts.items(), key=lambda rc: (-rc[1], -rc[0]))
    shape = tuple(c for _, c in groups)
    ranks = [r for r, _ in groups]
    n = sum(shape)
    singles = [r for r, c in groups if c == 1]
    turkish = game == "turkish"
    if shape == (1, 1, 1, 1, 1):
        low_run = {14, lowest, lowest + 1, lowest + 2, lowest + 3}
        if set(ranks) == low_run:
            top, ace_low = lowest + 3, True
        elif ranks[0] - ranks[4] == 4:
            top, ace_low = ranks[0], False
        else:
            top = 0
        if top:
            if flush:
                if not turkish:
                    category = STRAIGHT_FLUSH
                elif ace_low:
                    category = MINOR_STRAIGHT_FLUSH
                else:
                    category = ROYAL_FLUSH if top == 14 else STRAIGHT_FLUSH
            else:
                category = MINOR_STRAIGHT if turkish and ace_low else STRAIGHT
            return category, [top], top, False
        return (FLUSH if flush else HIGH_CARD), ranks, ranks[0], False
    if shape[0] == 4:
        return FOUR_OF_A_KIND, ranks, ranks[-1], False
    if shape == (3, 2):
        return FULL_HOUSE, ranks, ranks[1], False
    if shape[0] == 3:
        return THREE_OF_A_KIND, ranks, (singles[0] if singles else ranks[0]), False
    if shape[:2] == (2, 2):
        if turkish:
            return TWO_PAIR, ranks, ranks[0], heart_first
        return TWO_PAIR, ranks, (singles[0] if singles else ranks[0]), False
    if shape[0] == 2:
        if turkish:
            return PAIR, ranks, ranks[0], False
        return PAIR, ranks, (singles[0] if singles else ranks[0]), False
    assert n < 5
    return HIGH_CARD, ranks, ranks[0], False


def _rank_code(ranks: Iterable[int]) -> int:
    """Name a multiset of 1-5 ranks (at most four of one): its rank-weight sum << 3 | its size.

    A Card sum's top field is the weight sum. Sums of the same number of ranks never collide:
    pad two colliding sets with twos (weight 0) and two five-rank sets would collide.
    """
    weight = count = 0
    for rank in ranks:
        weight += RANK_WEIGHTS[rank - 2]
        count += 1
    return weight << 3 | count


@lru_cache(maxsize=16)
def _tables(
    game: str, lowest: int, variant: int, heart_first: bool
) -> tuple[dict[int, tuple[int, int, int]], dict[int, tuple[int, int, int]]]:
    """Build (pattern table, flush table): `_rank_code` -> (base, tie mask, tie move)."""
    order = _CATEGORIES_BY_VARIANT[variant]
    value = {name: len(order) - 1 - i for i, name in enumerate(order)}
    ranks = range(lowest, 15)
    pattern_table: dict[int, tuple[int, int, int]] = {}
    flush_table: dict[int, tuple[int, int, int]] = {}
    for n in range(1, 6):
        for combo in combinations_with_replacement(ranks, n):
            counts = Counter(combo)
            if max(counts.values()) > 4:
                continue
            code = _rank_code(combo)
            for flush in (False, True) if len(counts) == 5 else (False,):
                category, fields, tie_rank, tie_first = _classify(
                    counts, game, lowest, flush, heart_first
                )
                fields = [*fields, 0, 0, 0, 0][:5]
                base = (variant << VARIANT_SHIFT) | (value[category] << CATEGORY_SHIFT)
                base |= fields[0] << _R1 | fields[1] << _R2 | fields[2] << _R3
                base |= fields[3] << _R4 | fields[4] << _R5
                # (base, mask of the tie-break card(s), shift moving them to N1 or N2)
                shift = 4 * (tie_rank - 2)
                entry = (base, 15 << shift, (_N1 if tie_first else _N2) - shift)
                (flush_table if flush else pattern_table)[code] = entry
    return pattern_table, flush_table


# The fast path's lookups. `_MULTISET_ID[sum of five rank weights]` is the id (1..6175) of the
# rank multiset (at most four of a rank), 0 for any other sum; `_MULTISETS[id]` its ranks.
def _multiset_index() -> tuple[list[int], tuple[tuple[int, ...], ...]]:
    by_weight: dict[int, tuple[int, ...]] = {}
    for ranks in combinations_with_replacement(range(2, 15), 5):
        if ranks.count(ranks[2]) == 5:
            continue  # five of a rank: only duplicates make it, the bit count rejects them
        weight = sum(RANK_WEIGHTS[r - 2] for r in ranks)
        if weight in by_weight:  # pragma: no cover - guards RANK_WEIGHTS
            raise ImportError("RANK_WEIGHTS sums collide")
        by_weight[weight] = ranks
    ids = [0] * (max(by_weight) + 1)
    multisets: list[tuple[int, ...]] = [()]
    for weight in sorted(by_weight):
        ids[weight] = len(multisets)
        multisets.append(by_weight[weight])
    return ids, tuple(multisets)


_MULTISET_ID, _MULTISETS = _multiset_index()
_FLUSH_SUIT_SUMS = frozenset(5 * weight for weight in SUIT_WEIGHTS)
_X_WEIGHT = WEIGHT_SHIFT - MASK_SHIFT  # where the rank-weight sum sits in x = total >> 8
if (MASK_SHIFT, WEIGHT_SHIFT, 5 * max(SUIT_WEIGHTS)) != (8, 63, 180):  # pragma: no cover
    raise ImportError("key() and evaluate() spell the Card layout as literals 8, 63 and 255")
# Non-default suit orders: every row is empty, so every fast lookup misses.
_NO_FAST_ROWS: FastRows = ((),) * 256


@lru_cache(maxsize=16)
def _fast_rows(game: str, lowest: int, variant: int, heart_first: bool) -> FastRows:
    """Build the fast path's rows: by suit-weight sum (0..255), a list by multiset id.

    Both flush and plain rows hold, per multiset of the deck (None otherwise), an 18-tuple:
    for each suit nibble n of the tie-break rank, key - x (x = the hand's Card sum >> 8: its
    card bits plus the rank-weight sum above them), None where that rank's card count cannot
    make n; then the nibble's bit position; then the bit count of x for five distinct cards.
    """
    pattern_table, flush_table = _tables(game, lowest, variant, heart_first)
    plain: list[tuple[int | None, ...] | None] = [None] * len(_MULTISETS)
    flush: list[tuple[int | None, ...] | None] = [None] * len(_MULTISETS)
    for mid in range(1, len(_MULTISETS)):
        ranks = _MULTISETS[mid]
        code = _rank_code(ranks)
        weight = code >> 3
        for row, table in ((plain, pattern_table), (flush, flush_table)):
            if code not in table:
                continue
            base, tie, move = table[code]
            shift = tie.bit_length() - 4
            target = shift + move  # _N1 or _N2
            count = ranks.count(shift // 4 + 2)
            offset = base - (weight << _X_WEIGHT)
            keys = (offset + (n << target) if n.bit_count() == count else None for n in range(16))
            row[mid] = (*keys, shift, 5 + weight.bit_count())
    return tuple(flush if s in _FLUSH_SUIT_SUMS else plain for s in range(256))


def _slow_key(cards: Any, rules: PokerRules) -> int:
    """Validate any input fully and return its key; ValueError names the bad card.

    Serves text, 1-4 cards, non-default suit orders and every error case of `key()`.
    """
    if not isinstance(rules, PokerRules):
        raise TypeError(f"rules must be a PokerRules, got {type(rules).__name__}")
    hand: Sequence[Card]
    if type(cards) in (tuple, list) and cards and set(map(type, cards)) == {Card}:
        hand = cards
        total = sum(hand)
        mask = total >> MASK_SHIFT & _MASK
        if mask.bit_count() != len(hand):
            parse_cards(hand)  # raises, naming the duplicate
    else:
        hand = parse_cards(cards)
        total = sum(hand)
        mask = total >> MASK_SHIFT & _MASK
    count = len(hand)
    if not count:
        raise ValueError("no cards to evaluate")
    if count > 5:
        raise ValueError(f"more than 5 cards: {' '.join(map(str, hand))}")
    if mask & rules._outside:
        card = next(c for c in hand if c.mask & rules._outside)
        raise ValueError(
            f"card {card} is not in this deck ({rules.deck_size} cards, "
            f"{card_rank_text(rules.lowest_rank)} to A)"
        )
    remap = rules._index_masks
    if remap is not None:
        mask = sum(remap[c.index] for c in hand)
    code = total >> WEIGHT_SHIFT << 3 | count
    if count == 5 and total & 255 in _FLUSH_SUIT_SUMS:
        base, tie, move = rules._flush_table[code]
    else:
        base, tie, move = rules._pattern_table[code]
    return base + ((mask & tie) << move) + mask


@lru_cache(maxsize=32)
def _card_by_bit(suit_order: str) -> dict[int, Card]:
    remap = _index_masks(suit_order)
    return {(c.mask if remap is None else remap[c.index]): c for c in FULL_DECK}


def cards_of(rank_key: int, rules: PokerRules) -> list[Card]:
    """Return the cards a key of `rules` was made from, lowest first."""
    by_bit = _card_by_bit(rules.suit_order)
    mask = rank_key & _MASK
    return sorted(card for bit, card in by_bit.items() if mask & bit)


def card_rank_text(rank: int) -> str:
    """Return the notation of a rank (10 -> "T")."""
    return "23456789TJQKA"[rank - 2]


def key(cards: Sequence[Card] | str, rules: PokerRules) -> int:
    """Return the int key of 1-5 cards (see the module docstring); fastest for 5 Cards.

    Keys of one ruleset compare like the hands; a 5-card key can be compared with a partial
    (1-4 card) key: category first, then ranks with missing cards counting lowest.
    """
    # Fast path for five Cards (ints equal to Cards work alike); see `_fast_rows`. A card
    # outside the deck (or any card under a non-default suit order, whose rows are empty)
    # meets a None entry or an empty row; a duplicate carries into the next card bit, so x
    # has fewer bits than the entry expects. Either way the slow path gives the error (so does
    # a string, hence the ignores: its characters fail the sum).
    total: int
    entry: tuple[int, ...]
    try:
        c0, c1, c2, c3, c4 = cards  # type: ignore[str-unpack]
        total = c0 + c1 + c2 + c3 + c4  # type: ignore[operator, assignment]
        entry = rules._fast_rows[total & 255][_MULTISET_ID[total >> 63]]
        x = total >> 8
        if x.bit_count() == entry[17]:
            return x + entry[x >> entry[16] & 15]
    except (ValueError, TypeError, AttributeError, IndexError):
        pass
    return _slow_key(cards, rules)


def evaluate(cards: Sequence[Card] | str, rules: PokerRules) -> HandRank:
    """Rank 1-5 cards under `rules`: "Ah Kh Qh Jh Th" (also "10h") or a sequence of Cards.

    Fewer than 5 cards rank by pairs, two pair, trips and four, then high cards (Açık visible
    hands). ValueError names the card for an unknown rank or suit, a duplicate, a card not in
    the ruleset's deck, or more than 5 cards.
    """
    # Same as key(); inlined because this is the hot path of every showdown and enumeration.
    total: int
    entry: tuple[int, ...]
    try:
        c0, c1, c2, c3, c4 = cards  # type: ignore[str-unpack]
        total = c0 + c1 + c2 + c3 + c4  # type: ignore[operator, assignment]
        entry = rules._fast_rows[total & 255][_MULTISET_ID[total >> 63]]
        x = total >> 8
        if x.bit_count() == entry[17]:
            return HandRank(x + entry[x >> entry[16] & 15])
    except (ValueError, TypeError, AttributeError, IndexError):
        pass
    return HandRank(_slow_key(cards, rules))


def partial_key(cards: Sequence[Card] | str, rules: PokerRules) -> int:
    """Return `key(cards, rules)` for 1-4 cards (visible hands) without trying the 5-card path."""
    return _slow_key(cards, rules)


def category_of(rank_key: int) -> str:
    """Return the category code of a key from `key()` or the batch functions."""
    return HandRank(rank_key).category


def best(hands: Iterable[Sequence[Card] | str], rules: PokerRules) -> list[int]:
    """Return the positions of the best hand(s) among `hands` (one unless keys tie)."""
    ranks = [key(h, rules) for h in hands]
    if not ranks:
        return []
    top = max(ranks)
    return [i for i, r in enumerate(ranks) if r == top]
