"""Text of cards, tiles and chip amounts as players read them in chat (the same in TR and EN).

Cards in notation (`Ah`, `Td`) become `A♥`, `10♦`; Okey tiles keep their notation (`R5`, `K13`,
`F`) because that is what players type back, grouped in brackets when shown as melds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

SUITS = {"h": "♥", "s": "♠", "d": "♦", "c": "♣"}
HIDDEN = "🂠"


def card(text: str) -> str:
    """One card for chat: `Ah` -> `A♥`, `Td` -> `10♦`."""
    if len(text) != 2 or text[1].lower() not in SUITS:
        return text
    rank = "10" if text[0].upper() == "T" else text[0].upper()
    return rank + SUITS[text[1].lower()]


def cards(items: Iterable[str]) -> str:
    """Several cards separated by spaces."""
    return " ".join(card(c) for c in items)


def hidden(count: int) -> str:
    """`count` face-down cards."""
    return " ".join([HIDDEN] * count)


def tiles(items: Iterable[str]) -> str:
    """Okey tiles in notation, separated by spaces."""
    return " ".join(items)


def melds(groups: Sequence[Sequence[str]]) -> str:
    """Okey melds as bracketed groups: `[R1 R2 R3] [K5 Y5 B5]`."""
    return " ".join("[" + " ".join(group) + "]" for group in groups)


def chips(amount: int) -> str:
    """A chip amount with thousands separated by a thin space (`12 500`)."""
    return f"{amount:,}".replace(",", " ")
