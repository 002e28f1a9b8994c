"""Okey tiles: notation, the 106-tile set, the indicator and its okey, and racks as counts.

Notation (DECISIONS.md): colour `R Y B K` (red, yellow, blue, black) + number `1-13`, e.g. `R5`,
`K13`; `F` is a false joker (sahte okey). The two physical copies of a tile share one name.

Inside the solver a rack is a list of 52 counts indexed `colour * 13 + number - 1` plus a number of
wilds. Both okey tiles are wild; a false joker is counted as a plain tile of the okey's own value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

COLOURS = ("R", "Y", "B", "K")
NUMBERS = tuple(range(1, 14))
FALSE_JOKER = "F"
COPIES = 2
TILE_COUNT = len(COLOURS) * len(NUMBERS) * COPIES + COPIES  # 106
NAMES: tuple[str, ...] = tuple(f"{c}{n}" for c in COLOURS for n in NUMBERS)
_INDEX = {name: i for i, name in enumerate(NAMES)}


def full_set() -> list[str]:
    """All 106 tiles in a fixed order: every numbered tile twice, then the two false jokers."""
    return [name for name in NAMES for _ in range(COPIES)] + [FALSE_JOKER] * COPIES


def normalize(tile: object) -> str:
    """Return the canonical name of `tile` (`r5` -> `R5`); ValueError naming it if unknown."""
    if isinstance(tile, str):
        name = tile.strip().upper()
        if name == FALSE_JOKER or name in _INDEX:
            return name
    raise ValueError(f"unknown tile {tile!r}: use R/Y/B/K with 1-13 (e.g. R5, K13) or F")


def index(tile: str) -> int:
    """The solver index `colour * 13 + number - 1` of a numbered tile; ValueError for `F`."""
    name = normalize(tile)
    if name == FALSE_JOKER:
        raise ValueError("the false joker F has no index of its own")
    return _INDEX[name]


def colour_of(i: int) -> int:
    """Colour position (0-3, in `COLOURS` order) of a tile index."""
    return i // 13


def number_of(i: int) -> int:
    """Number (1-13) of a tile index."""
    return i % 13 + 1


def okey_of(indicator: object) -> str:
    """The okey (wild) tile for an indicator: same colour, next number, 13 -> 1."""
    name = check_indicator(indicator)
    i = _INDEX[name]
    return NAMES[colour_of(i) * 13 + number_of(i) % 13]


def check_indicator(indicator: object) -> str:
    """Return the indicator's canonical name; ValueError for an unknown tile or a false joker."""
    name = normalize(indicator)
    if name == FALSE_JOKER:
        raise ValueError("the indicator is never a false joker (F)")
    return name


@dataclass(frozen=True)
class Rack:
    """A rack read for the solver: effective counts, wilds, and what to call each tile back.

    `counts[i]` is how many plain tiles of index i the rack holds (false jokers are counted at the
    okey's index); `wilds` is how many okey tiles it holds. `okey` names the wild tile.
    """

    counts: tuple[int, ...]
    wilds: int
    okey: str
    okey_index: int

    @property
    def size(self) -> int:
        """Number of tiles in the rack."""
        return sum(self.counts) + self.wilds

    def name(self, i: int) -> str:
        """The notation of a plain tile at index i (a false joker when i is the okey's index)."""
        return FALSE_JOKER if i == self.okey_index else NAMES[i]


def read_rack(tiles: Iterable[object], indicator: object) -> Rack:
    """Validate `tiles` and count them for the solver.

    Raises ValueError naming the tile for an unknown tile or a third copy of one (there are two
    of each tile, false jokers included). The indicator is not counted against the rack.
    """
    if isinstance(tiles, str):
        raise ValueError(f"tiles must be a list of tile names, not the string {tiles!r}")
    okey = okey_of(indicator)
    names = [normalize(t) for t in tiles]
    for name, count in Counter(names).items():
        if count > COPIES:
            raise ValueError(f"there are only {COPIES} copies of {name}, the rack holds {count}")
    okey_index = _INDEX[okey]
    counts = [0] * len(NAMES)
    wilds = 0
    for name in names:
        if name == okey:
            wilds += 1
        elif name == FALSE_JOKER:
            counts[okey_index] += 1
        else:
            counts[_INDEX[name]] += 1
    return Rack(tuple(counts), wilds, okey, okey_index)
