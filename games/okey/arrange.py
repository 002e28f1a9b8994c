"""Rack arranging: the players' "seri diz" (runs mode) and "çift diz" (pairs mode) buttons.

Runs mode is an exact search: it always lays the most tiles in sets and runs, and among those
layouts the one with the highest total face value (a wild counts as the number it plays as, a false
joker as the okey's number). The search takes the lowest tile left, tries every meld template that
starts with it (see templates.py) or leaves it loose, and memoizes on the tiles that remain
(see search.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from games.okey.search import best_layout
from games.okey.templates import WILD, Template
from games.okey.tiles import Rack, colour_of, number_of, read_rack

MODES = ("runs", "pairs")
MAX_RACK = 15


@dataclass(frozen=True)
class Arrangement:
    """A rack laid out: `melds` (lists of tiles, each a set, a run or a pair) and `loose` tiles."""

    melds: list[list[str]] = field(default_factory=list)
    loose: list[str] = field(default_factory=list)

    @property
    def placed(self) -> int:
        """How many tiles sit in melds."""
        return sum(len(m) for m in self.melds)

    def tiles(self) -> list[str]:
        """Every tile of the arrangement: the melds in order, then the loose tiles."""
        return [t for m in self.melds for t in m] + list(self.loose)


def arrange(tiles: Iterable[object], indicator: object, mode: str = "runs") -> Arrangement:
    """Lay out a rack of 1-15 tiles as melds and loose tiles.

    `mode="runs"` maximises the tiles placed in sets and runs (ties: the higher face value), using
    wilds where they help; `mode="pairs"` lays out as many pairs as possible. Raises ValueError for
    an unknown tile, a third copy, a rack of 0 or more than 15 tiles, or an unknown mode.
    """
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}: use 'runs' or 'pairs'")
    rack = read_rack(tiles, indicator)
    if not 1 <= rack.size <= MAX_RACK:
        raise ValueError(f"a rack holds 1-{MAX_RACK} tiles, got {rack.size}")
    if mode == "pairs":
        return _pairs(rack)
    return _runs(rack)


def _runs(rack: Rack) -> Arrangement:
    chosen, loose, wilds = best_layout(rack.counts, rack.wilds)
    melds = [
        [rack.okey if s == WILD else rack.name(s) for s in tpl.slots] for tpl in _merge(chosen)
    ]
    return Arrangement(melds, [rack.name(i) for i in sorted(loose)] + [rack.okey] * wilds)


def _merge(chosen: list[Template]) -> list[Template]:
    """Join runs of one colour that touch end to end, so a long run shows as one meld."""
    runs = sorted((t for t in chosen if t.kind == "run"), key=lambda t: (t.colour, t.lo))
    merged: list[Template] = []
    for tpl in runs:
        last = merged[-1] if merged else None
        if last is not None and last.colour == tpl.colour and last.hi + 1 == tpl.lo:
            merged[-1] = Template(
                "run",
                last.others + tpl.others,
                last.wilds + tpl.wilds,
                last.score + tpl.score,
                last.slots + tpl.slots,
                last.numbers + tpl.numbers,
                tpl.colour,
                last.lo,
                tpl.hi,
            )
        else:
            merged.append(tpl)
    sets = [t for t in chosen if t.kind == "set"]
    return merged + sets


def _pairs(rack: Rack) -> Arrangement:
    melds: list[list[str]] = []
    singles: list[int] = []
    for i, count in enumerate(rack.counts):
        melds.extend([rack.name(i), rack.name(i)] for _ in range(count // 2))
        if count % 2:
            singles.append(i)
    wilds = rack.wilds
    # A wild completes the highest single first (face value breaks ties between layouts).
    singles.sort(key=lambda i: (-number_of(i), colour_of(i)))
    while wilds and singles:
        melds.append([rack.name(singles.pop(0)), rack.okey])
        wilds -= 1
    if wilds == 2:
        melds.append([rack.okey, rack.okey])
        wilds = 0
    singles.sort()
    return Arrangement(melds, [rack.name(i) for i in singles] + [rack.okey] * wilds)
