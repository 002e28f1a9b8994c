"""The exact search behind `arrange`: most tiles in sets and runs, then the highest face value.

A rack is two bitmasks over the 52 tile indices (`one`: at least one copy, `two`: both copies)
and a number of wilds, so taking a meld's tiles out is a few integer operations. The search takes
the lowest tile left and tries every template that starts with it (templates.py), best first, or
leaves it loose; it memoizes on the tiles left and skips branches whose upper bound (every tile
left placed, every wild as a 13) cannot beat the best found, which keeps the memo exact.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.okey.templates import SCALE, TEMPLATES, WILD_VALUE, Template
from games.okey.tiles import NAMES, number_of

_TILES = len(NAMES)
_FAST = tuple(
    tuple((sum(1 << j for j in t.others), t.wilds, t.score, t.plain_value, t) for t in TEMPLATES[i])
    for i in range(_TILES)
)
_LOOSE = tuple(SCALE + number_of(i) for i in range(_TILES))

Memo = dict[int, tuple[int, Template | None]]


def masks(counts: Sequence[int]) -> tuple[int, int]:
    """A rack's counts as two bitmasks over the tile indices: at least one copy, both copies."""
    one = sum(1 << i for i, c in enumerate(counts) if c >= 1)
    two = sum(1 << i for i, c in enumerate(counts) if c >= 2)
    return one, two


def pop_lowest(one: int, two: int) -> tuple[int, int, int]:
    """The lowest tile's bit, and the two masks with one copy of that tile taken out."""
    low = one & -one
    if two & low:
        two ^= low
    else:
        one ^= low
    return low, one, two


def _bound(counts: Sequence[int], wilds: int) -> int:
    return sum(c * _LOOSE[i] for i, c in enumerate(counts)) + wilds * WILD_VALUE


def _search(one: int, two: int, wilds: int, bound: int, memo: Memo) -> int:
    if not one:
        return 0
    key = one | two << _TILES | wilds << (2 * _TILES)
    hit = memo.get(key)
    if hit is not None:
        return hit[0]
    low = one & -one
    i = low.bit_length() - 1
    if two & low:
        two ^= low
    else:
        one ^= low
    best = -1
    choice: Template | None = None
    for mask, need, score, value, tpl in _FAST[i]:
        if need > wilds or mask & one != mask:
            continue
        rest = bound - value - need * WILD_VALUE
        if score + rest <= best:
            continue
        doubles = mask & two
        total = score + _search(one ^ (mask ^ doubles), two ^ doubles, wilds - need, rest, memo)
        if total > best:
            best, choice = total, tpl
    rest = bound - _LOOSE[i]
    if rest > best:
        total = _search(one, two, wilds, rest, memo)
        if total > best:
            best, choice = total, None
    memo[key] = (best, choice)
    return best


def best_score(counts: Sequence[int], wilds: int) -> int:
    """The objective (tiles placed * SCALE + face value) of the best layout of a rack."""
    one, two = masks(counts)
    return _search(one, two, wilds, _bound(counts, wilds), {})


def best_layout(counts: Sequence[int], wilds: int) -> tuple[list[Template], list[int], int]:
    """The best layout: the templates laid down, the loose tile indices and the unused wilds."""
    one, two = masks(counts)
    memo: Memo = {}
    _search(one, two, wilds, _bound(counts, wilds), memo)
    chosen: list[Template] = []
    loose: list[int] = []
    while one:
        tpl = memo[one | two << _TILES | wilds << (2 * _TILES)][1]
        low, one, two = pop_lowest(one, two)
        if tpl is None:
            loose.append(low.bit_length() - 1)
            continue
        mask = sum(1 << j for j in tpl.others)
        doubles = mask & two
        one, two = one ^ (mask ^ doubles), two ^ doubles
        wilds -= tpl.wilds
        chosen.append(tpl)
    return chosen, loose, wilds


def _fits(one: int, two: int, wilds: int, failed: set[int]) -> bool:
    if not one:
        return wilds == 0
    key = one | two << _TILES | wilds << (2 * _TILES)
    if key in failed:
        return False
    low = one & -one
    i = low.bit_length() - 1
    if two & low:
        two ^= low
    else:
        one ^= low
    for mask, need, _, _, _ in _FAST[i]:
        if need > wilds or mask & one != mask:
            continue
        doubles = mask & two
        if _fits(one ^ (mask ^ doubles), two ^ doubles, wilds - need, failed):
            return True
    failed.add(key)
    return False


def all_melds(counts: Sequence[int], wilds: int) -> bool:
    """True when every tile and every wild of the rack fits in sets and runs."""
    one, two = masks(counts)
    return _fits(one, two, wilds, set())
