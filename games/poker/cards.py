"""Playing cards for the poker games: the `Card` value, notation parsing and decks.

Notation (rules/DECISIONS.md): rank `2-9 T J Q K A` (`10` accepted on input), suit `h s d c`
(hearts, spades, diamonds, clubs). The suit symbols ♥♡ ♠♤ ♦♢ ♣♧ are accepted on input too.
There are exactly 52 `Card` objects: `Card(14, "h")`, `Card.parse("Ah")` and unpickling all
return the same interned instance, so cards compare and hash by identity.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

RANK_CHARS = "23456789TJQKA"
# Default suit order, high to low (DECISIONS.md): hearts > spades > diamonds > clubs.
DEFAULT_SUIT_ORDER = "hsdc"
SUIT_CHARS = DEFAULT_SUIT_ORDER

_RANK_BY_TEXT = {ch: i + 2 for i, ch in enumerate(RANK_CHARS)}
_RANK_BY_TEXT.update({ch.lower(): r for ch, r in _RANK_BY_TEXT.items() if ch.isalpha()})
_RANK_BY_TEXT["10"] = 10
_SUIT_BY_TEXT = {s: s for s in SUIT_CHARS}
_SUIT_BY_TEXT.update({s.upper(): s for s in SUIT_CHARS})
_SUIT_BY_TEXT.update(
    {"♥": "h", "♡": "h", "♠": "s", "♤": "s", "♦": "d", "♢": "d", "♣": "c", "♧": "c"}
)
# Default suit strength: clubs 0 .. hearts 3.
_DEFAULT_STRENGTH = {s: 3 - i for i, s in enumerate(DEFAULT_SUIT_ORDER)}
# All bits of one suit strength in the rank-major 52-bit card mask (bit 4*(rank-2) + strength).
LANES = tuple(sum(1 << (4 * r + s) for r in range(13)) for s in range(4))

# Layout of a Card's int value, low bits to high (the 5-card fast path in ranking.py sums five):
#   suit weight (8 bits) | card mask (52 bits) | 3 zero guard bits | rank weight
# Five suit weights sum to at most 180 and five masks to less than 2**55, so no field carries
# into the next. The rank weights are the greedy sequence whose sums over five ranks (at most
# four of one rank) are all distinct, so the top field names the rank multiset of any 5 cards.
# Five suit weights sum to 5 * weight only for five cards of that one suit (a flush).
RANK_WEIGHTS = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
SUIT_WEIGHTS = (0, 1, 6, 36)  # by default suit strength: clubs, diamonds, spades, hearts
MASK_SHIFT = 8
WEIGHT_SHIFT = 63


class Card(int):
    """One playing card: `rank` 2..14 (ace high), `suit` one of `h s d c`.

    Immutable, hashable and ordered by rank, then by the default suit order (hearts high).
    `str(card)` is its notation ("Ah", "Td"). A Card is an int subclass whose value packs what
    the evaluator sums (see `bits`), so five cards add up without attribute lookups; never
    serialise a Card as a number, write `str(card)` (json.dumps would emit the int).
    Precomputed attributes: `index` (0..51, rank-major, default suit strength), `mask`
    (1 << index), `lane` (all mask bits of its suit) and `bits` == int(card) ==
    RANK_WEIGHTS[rank-2] << 63 | mask << 8 | SUIT_WEIGHTS[strength] (see the layout above).
    """

    rank: int
    suit: str
    index: int
    mask: int
    lane: int
    bits: int

    _interned: dict[tuple[int, str], Card] = {}  # noqa: RUF012 - class-level cache, never replaced

    def __new__(cls, rank: int, suit: str) -> Card:
        """Return the interned card of that rank (2..14) and suit (`h s d c`)."""
        try:
            return cls._interned[rank, suit]
        except (KeyError, TypeError):
            raise ValueError(f"no such card: rank {rank!r}, suit {suit!r}") from None

    @classmethod
    def _make(cls, rank: int, suit: str) -> Card:
        strength = _DEFAULT_STRENGTH[suit]
        index = 4 * (rank - 2) + strength
        bits = (
            (RANK_WEIGHTS[rank - 2] << WEIGHT_SHIFT)
            | (1 << (index + MASK_SHIFT))
            | SUIT_WEIGHTS[strength]
        )
        card = int.__new__(cls, bits)
        set_ = object.__setattr__
        set_(card, "rank", rank)
        set_(card, "suit", suit)
        set_(card, "index", index)
        set_(card, "mask", 1 << index)
        set_(card, "lane", LANES[strength])
        set_(card, "bits", bits)
        cls._interned[rank, suit] = card
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card in notation ("Ah", "10h", "td", "A♥"); ValueError names a bad card."""
        if not isinstance(text, str):
            raise ValueError(f"not a card: {text!r}")
        token = text.strip()
        if len(token) < 2:
            raise ValueError(f"not a card: {text!r}")
        rank = _RANK_BY_TEXT.get(token[:-1])
        if rank is None:
            raise ValueError(f"unknown rank {token[:-1]!r} in card {text!r}")
        suit = _SUIT_BY_TEXT.get(token[-1])
        if suit is None:
            raise ValueError(f"unknown suit {token[-1]!r} in card {text!r}")
        return cls._interned[rank, suit]

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Card is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card, (self.rank, self.suit))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.rank, self.suit)

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self

    def __str__(self) -> str:
        return RANK_CHARS[self.rank - 2] + self.suit

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    __hash__ = int.__hash__


for _rank in range(2, 15):
    for _suit in SUIT_CHARS:
        Card._make(_rank, _suit)

#: All 52 cards, lowest first (2c, 2d, 2s, 2h, 3c, ... Ah).
FULL_DECK: tuple[Card, ...] = tuple(sorted(Card._interned.values()))


def make_deck(lowest_rank: int) -> tuple[Card, ...]:
    """Return the cards from `lowest_rank` up to the ace, lowest first."""
    if not 2 <= lowest_rank <= 10:
        raise ValueError(f"lowest rank must be 2..10, got {lowest_rank!r}")
    return tuple(c for c in FULL_DECK if c.rank >= lowest_rank)


def parse_cards(cards: str | Iterable[Card | str]) -> list[Card]:
    """Parse cards given as text ("Ah Kh 10h", commas allowed) or a sequence of Cards/strings.

    Raises ValueError naming the card for an unknown rank or suit or a duplicate card.
    """
    if isinstance(cards, str):
        items: Sequence[Card | str] = cards.replace(",", " ").split()
    else:
        try:
            items = list(cards)
        except TypeError:
            raise ValueError(f"not a card list: {cards!r}") from None
    result: list[Card] = []
    seen = 0
    for item in items:
        card = item if isinstance(item, Card) else Card.parse(item)
        if seen & card.mask:
            raise ValueError(f"duplicate card {card}")
        seen |= card.mask
        result.append(card)
    return result


def cards_text(cards: Iterable[Card]) -> str:
    """Return cards in notation separated by spaces ("Ah Kh Qh")."""
    return " ".join(str(c) for c in cards)
