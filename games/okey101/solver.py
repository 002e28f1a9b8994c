"""The 101 solver: the best opening by series, pairs, and which tiles fit the melds on the table.

`best_opening(tiles, okey)` finds the disjoint sets and runs of the highest total value (the sum of
the numbers the tiles stand for, a wild counting as the tile it replaces) and counts the pairs.

The search is exact. A rack is two bitmasks over the 52 plain tiles (`one`: at least one copy,
`two`: both) and a number of wilds (false jokers count as the okey's own plain tile). It takes the
lowest plain tile left and either leaves it loose or lays it in one of the small melds that start
with it (runs of 3-5 tiles and sets, lower places filled by wilds: a longer run is two shorter runs
of the same value); it memoizes on the tiles left and skips a meld whose upper bound (every tile
left laid, every wild as a 13) cannot beat the best found at that node, which keeps the memo exact.
An optional forced tile must end up in a meld (taking the previous discard to open with it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.okey.search import masks as _masks
from games.okey.search import pop_lowest
from games.okey.templates import WILD, Template, meld_templates
from games.okey.tiles import FALSE_JOKER, NAMES, colour_of, index, normalize, number_of
from games.okey101.melds import effective, placements

TOP = 13
_TILES = len(NAMES)
_NEG = -(10**9)


def _face(length: int, face: int) -> int:
    """101 melds score their face value: the sum of the numbers (1 plays low, nothing wraps)."""
    return face


# the melds each tile starts (classic Okey's templates, without 12-13-1), best value first
TEMPLATES: tuple[tuple[Template, ...], ...] = tuple(
    tuple(meld_templates(i, False, _face)) for i in range(_TILES)
)
# per tile: (mask of the other plain tiles, wilds, value, bound removed, template)
_FAST = tuple(
    tuple(
        (
            sum(1 << j for j in t.others),
            t.wilds,
            t.score,
            number_of(i) + sum(number_of(j) for j in t.others) + TOP * t.wilds,
            t,
        )
        for t in TEMPLATES[i]
    )
    for i in range(_TILES)
)


class Spent(Exception):
    """A budgeted search ran out of its `Budget`."""


class Budget:
    """How many more positions budgeted searches may visit (one `Budget` shared by all the
    searches of one decision); a search that needs more raises `Spent`."""

    def __init__(self, positions: int) -> None:
        self.left = positions


class _Search:
    """One exact search, with its memo; `forced` is a plain index, "wild" or None.

    `run` is a fail-soft branch and bound: asked whether the tiles left are worth more than
    `alpha`, it returns their exact best value when it is, else an upper bound no higher than
    `alpha`. The memo keeps exact values (with the best meld) and upper bounds apart.
    """

    def __init__(self, forced: int | str | None, one: int, wilds: int) -> None:
        self.memo: dict[int, tuple[int, bool, Template | None]] = {}
        self.forced = forced
        self.fbit = 1 << forced if isinstance(forced, int) else 0
        # only the melds this rack could ever lay, once per search
        self.fast = {
            i: tuple(f for f in _FAST[i] if f[1] <= wilds and f[0] & one == f[0])
            for i in range(_TILES)
            if one >> i & 1
        }

    def run(self, one: int, two: int, wilds: int, need: int, bound: int, alpha: int) -> int:
        if need and self.fbit and not one & self.fbit:
            return _NEG
        if not one:
            return _NEG if need else 0
        if bound <= alpha:
            return bound
        key = one | two << _TILES | wilds << (2 * _TILES) | need << (2 * _TILES + 2)
        hit = self.memo.get(key)
        if hit is not None and (hit[1] or hit[0] <= alpha):
            return hit[0]
        low = one & -one
        i = low.bit_length() - 1
        last = not two & low
        if last:
            one ^= low
        else:
            two ^= low
        best = upper = _NEG  # upper: the most a branch skipped by its bound could be worth
        floor = alpha
        choice: Template | None = None
        here = need and low == self.fbit
        for mask, want, value, removed, tpl in self.fast[i]:
            if want > wilds or mask & one != mask:
                continue
            rest = bound - removed
            if value + rest <= floor:
                upper = max(upper, value + rest)
                continue
            still = need
            if need and (here or mask & self.fbit or (want and self.forced == "wild")):
                still = 0
            doubles = mask & two
            total = value + self.run(
                one ^ (mask ^ doubles), two ^ doubles, wilds - want, still, rest, floor - value
            )
            if total > best:
                best, choice = total, tpl
                floor = max(floor, best)
        if not (here and last):
            rest = bound - number_of(i)
            if rest > floor:
                total = self.run(one, two, wilds, need, rest, floor)
                if total > best:
                    best, choice = total, None
            else:
                upper = max(upper, rest)
        exact = best > alpha
        if not exact:
            best = max(best, upper)
        if exact or hit is None or best < hit[0]:
            self.memo[key] = (best, exact, choice)
        return best

    def layout(self, one: int, two: int, wilds: int, need: int) -> list[Template]:
        chosen = []
        while one:
            key = one | two << _TILES | wilds << (2 * _TILES) | need << (2 * _TILES + 2)
            tpl = self.memo[key][2]
            low, one, two = pop_lowest(one, two)
            if tpl is None:
                continue
            if need and (
                low == self.fbit
                or (sum(1 << j for j in tpl.others) & self.fbit)
                or (tpl.wilds and self.forced == "wild")
            ):
                need = 0
            mask = sum(1 << j for j in tpl.others)
            doubles = mask & two
            one, two = one ^ (mask ^ doubles), two ^ doubles
            wilds -= tpl.wilds
            chosen.append(tpl)
        return chosen


@dataclass(frozen=True)
class Opening:
    """The best opening of a rack.

    `value`: the highest total of disjoint sets and runs (0 when none); `melds`: those melds as
    tile names in order, wilds in their places (runs that join are one meld); `pairs`: how many
    pairs the rack holds at most; `pair_melds`: those pairs; `can_pairs`: five or more pairs.
    """

    value: int
    melds: list[list[str]] = field(default_factory=list)
    pairs: int = 0
    pair_melds: list[list[str]] = field(default_factory=list)

    @property
    def can_pairs(self) -> bool:
        """True when the rack holds five or more pairs."""
        return self.pairs >= 5


def _read(tiles: Iterable[object], okey: str) -> tuple[list[int], int]:
    """Count a rack for the search; ValueError for a bad tile or a third copy of one."""
    if isinstance(tiles, str):
        raise ValueError(f"tiles must be a list of tile names, not the string {tiles!r}")
    okey = normalize(okey)
    if okey == FALSE_JOKER:
        raise ValueError("the okey is a numbered tile, never F")
    names = [normalize(t) for t in tiles]
    for name, count in Counter(names).items():
        if count > 2:
            raise ValueError(f"there are only 2 copies of {name}, the rack holds {count}")
    counts = [0] * _TILES
    wilds = 0
    for name in names:
        if name == okey:
            wilds += 1
        elif name == FALSE_JOKER:
            counts[index(okey)] += 1
        else:
            counts[index(name)] += 1
    return counts, wilds


def _name(i: int, okey: str) -> str:
    return FALSE_JOKER if NAMES[i] == okey else NAMES[i]


def _melds_from(templates: list[Template], okey: str) -> list[list[str]]:
    runs: list[tuple[int, int, list[str]]] = []  # colour, lo, names
    sets: list[list[str]] = []
    for tpl in templates:
        names = [okey if s == WILD else _name(s, okey) for s in tpl.slots]
        if tpl.kind == "set":
            sets.append(names)
            continue
        plain = next(s for s in tpl.slots if s != WILD)
        lo = number_of(plain) - tpl.slots.index(plain)
        runs.append((colour_of(plain), lo, names))
    runs.sort(key=lambda r: (r[0], r[1]))
    merged: list[tuple[int, int, list[str]]] = []
    for colour, lo, names in runs:
        if merged and merged[-1][0] == colour and merged[-1][1] + len(merged[-1][2]) == lo:
            merged[-1] = (colour, merged[-1][1], merged[-1][2] + names)
        else:
            merged.append((colour, lo, names))
    return [names for _, _, names in merged] + sets


def series_value(tiles: Iterable[object], okey: str, forced: str | None = None) -> int:
    """The best opening value by series; with `forced`, one such tile must be in a meld (or < 0)."""
    return _solve(tiles, okey, forced)[0]


def _solve(tiles: Iterable[object], okey: str, forced: str | None) -> tuple[int, list[Template]]:
    counts, wilds = _read(tiles, okey)
    okey = normalize(okey)
    target: int | str | None = None
    if forced is not None:
        e = effective(normalize(forced), okey)
        target = "wild" if e is None else index(e)
    one, two = _masks(counts)
    bound = sum(c * number_of(i) for i, c in enumerate(counts)) + wilds * TOP
    search = _Search(target, one, wilds)
    need = 1 if target is not None else 0
    value = search.run(one, two, wilds, need, bound, -1)
    if value < 0:
        return value, []
    return value, search.layout(one, two, wilds, need)


class _Budgeted(_Search):
    """The search counting every position it visits against a `Budget` (the plain search
    counts nothing, so the solver pays nothing for budgets it does not have)."""

    def __init__(self, one: int, wilds: int, budget: Budget) -> None:
        super().__init__(None, one, wilds)
        self.budget = budget

    def run(self, one: int, two: int, wilds: int, need: int, bound: int, alpha: int) -> int:
        self.budget.left -= 1
        if self.budget.left < 0:
            raise Spent
        return super().run(one, two, wilds, need, bound, alpha)


def rack_counts(tiles: Iterable[object], okey: str) -> tuple[list[int], int]:
    """A rack as the search reads it: copies of each of the 52 plain tiles (a false joker
    counted as the okey's own tile) and the number of wilds."""
    return _read(tiles, okey)


def reach_melds(
    counts: Sequence[int], wilds: int, threshold: int, budget: Budget | None = None
) -> tuple[int, list[Template]]:
    """The best value of the rack of `counts` and `wilds` with its melds when it is
    `threshold` or more, else (0, []) (the search stops looking at what cannot reach the
    threshold, so this is faster than the best opening)."""
    one, two = _masks(counts)
    bound = sum(c * number_of(i) for i, c in enumerate(counts)) + wilds * TOP
    if bound < threshold:
        return 0, []
    search = _Search(None, one, wilds) if budget is None else _Budgeted(one, wilds, budget)
    value = search.run(one, two, wilds, 0, bound, threshold - 1)
    if value < threshold:
        return 0, []
    return value, search.layout(one, two, wilds, 0)


def reaches(
    counts: Sequence[int], wilds: int, threshold: int, budget: Budget | None = None
) -> bool:
    """Whether the rack of `counts` and `wilds` holds melds worth `threshold` or more."""
    return reach_melds(counts, wilds, threshold, budget)[0] >= threshold


def best_opening(tiles: Iterable[object], okey: str, forced: str | None = None) -> Opening:
    """The highest-value opening by series of a rack, and its pairs.

    `tiles` are names (`R5`, `F`, ...), `okey` the wild tile's name. With `forced` (a tile the
    rack holds), only openings that lay at least one such tile count (value -1 when none does).
    """
    tiles = [normalize(t) for t in tiles]
    value, templates = _solve(tiles, okey, forced)
    okey = normalize(okey)
    pair_melds = pairs_of(tiles, okey)
    return Opening(max(value, -1), _melds_from(templates, okey), len(pair_melds), pair_melds)


def pairs_of(tiles: Iterable[object], okey: str) -> list[list[str]]:
    """The most pairs of identical tiles the rack holds (a wild pairs with any tile, high first)."""
    okey = normalize(okey)
    names = [normalize(t) for t in tiles]
    wilds = [t for t in names if t == okey]
    by_kind: dict[str, list[str]] = {}
    for t in names:
        e = effective(t, okey)
        if e is not None:
            by_kind.setdefault(e, []).append(t)
    out: list[list[str]] = []
    singles: list[str] = []
    for e in sorted(by_kind, key=lambda e: (-int(e[1:]), e)):
        group = by_kind[e]
        while len(group) >= 2:
            out.append([group.pop(), group.pop()])
        singles += group
    while wilds and singles:
        out.append([singles.pop(0), wilds.pop()])
    while len(wilds) >= 2:
        out.append([wilds.pop(), wilds.pop()])
    return out


def pair_count(tiles: Iterable[object], okey: str) -> int:
    """How many pairs the rack holds at most."""
    return len(pairs_of(tiles, okey))


def fits_table(tile: str, table: Sequence[Mapping[str, Any]], okey: str) -> list[int]:
    """The indices of the melds on the table `tile` can be added to."""
    tile, okey = normalize(tile), normalize(okey)
    return [k for k, meld in enumerate(table) if placements(meld, tile, okey)]


def addable(
    tiles: Iterable[object], table: Sequence[Mapping[str, Any]], okey: str
) -> list[tuple[str, int]]:
    """Which rack tiles can be added to which meld on the table: (tile, meld index), each once."""
    out = []
    for tile in dict.fromkeys(normalize(t) for t in tiles):
        out += [(tile, k) for k in fits_table(tile, table, okey)]
    return out


def discard_penalty(tile: str, table: Sequence[Mapping[str, Any]], okey: str) -> str | None:
    """Why discarding `tile` costs +101 ("okey" or "playable"), or None when it costs nothing.

    A wild okey always costs; another tile costs when it can be added to a meld on the table.
    A front end warns with this before the discard (the finisher's last tile is exempt).
    """
    tile, okey = normalize(tile), normalize(okey)
    if tile == okey:
        return "okey"
    if fits_table(tile, table, okey):
        return "playable"
    return None
