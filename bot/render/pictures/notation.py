"""Parsing of card and tile notation (rules/DECISIONS.md) into what a picture needs to draw.

Cards: rank `2-9 T J Q K A` (`10` accepted) + suit `h s d c`, e.g. `Ah`, `Td`, `10c`.
Tiles: colour `R Y B K` + number `1-13`, e.g. `R5`, `K13`; `F` is a false joker.
"""

from __future__ import annotations

from dataclasses import dataclass

RANKS = "23456789TJQKA"
SUITS = "hsdc"
TILE_COLOURS = "RYBK"
FALSE_JOKER = "F"


class NotationError(ValueError):
    """A card or tile name that is not in the notation; the message names it."""


@dataclass(frozen=True)
class Card:
    """A playing card: `rank` one of RANKS, `suit` one of SUITS."""

    rank: str
    suit: str


@dataclass(frozen=True)
class Tile:
    """An Okey tile: `colour` one of TILE_COLOURS and `number` 1-13, or a false joker."""

    colour: str | None
    number: int | None

    @property
    def false_joker(self) -> bool:
        """True for the false joker (sahte okey)."""
        return self.colour is None


def parse_card(text: str) -> Card:
    """Parse `Ah`, `Td` or `10d` into a Card; raise NotationError for anything else."""
    if not isinstance(text, str) or len(text) not in (2, 3):
        raise NotationError(f"not a card: {text!r} (expected e.g. 'Ah', 'Td', '10c')")
    rank, suit = text[:-1].upper(), text[-1].lower()
    if rank == "10":
        rank = "T"
    if rank not in RANKS or len(rank) != 1 or suit not in SUITS:
        raise NotationError(f"not a card: {text!r} (expected e.g. 'Ah', 'Td', '10c')")
    return Card(rank, suit)


def parse_tile(text: str) -> Tile:
    """Parse `R5`, `K13` or `F` into a Tile; raise NotationError for anything else."""
    if not isinstance(text, str):
        raise NotationError(f"not a tile: {text!r} (expected e.g. 'R5', 'K13', 'F')")
    name = text.upper()
    if name == FALSE_JOKER:
        return Tile(None, None)
    colour, number = name[:1], name[1:]
    if colour not in TILE_COLOURS or not colour or not number.isdigit() or number[0] == "0":
        raise NotationError(f"not a tile: {text!r} (expected e.g. 'R5', 'K13', 'F')")
    value = int(number)
    if not 1 <= value <= 13:
        raise NotationError(f"not a tile: {text!r} (numbers run 1-13)")
    return Tile(colour, value)


def tile_name(tile: Tile) -> str:
    """The notation of a tile (`R5`, `F`)."""
    return FALSE_JOKER if tile.colour is None else f"{tile.colour}{tile.number}"
