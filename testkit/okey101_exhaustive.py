"""A plain exhaustive search for the best 101 opening: the reference the solver is checked against.

Every set and every run of any length (3-13) the rack could lay, each wild placement separately, is
listed; the search then tries every multiset of them that the rack can pay for (each meld taken or
skipped in list order, a meld possibly taken again), with no memo and no bound.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations, product

from games.okey.tiles import FALSE_JOKER, NAMES, index, normalize

Candidate = tuple[tuple[int, ...], int, int]  # plain indices used, wilds used, value


def _counts(tiles: Iterable[str], okey: str) -> tuple[list[int], int]:
    counts, wilds = [0] * len(NAMES), 0
    for t in tiles:
        t = normalize(t)
        if t == okey:
            wilds += 1
        else:
            counts[index(okey if t == FALSE_JOKER else t)] += 1
    return counts, wilds


def candidates(counts: list[int], wilds: int) -> list[Candidate]:
    """Every set and run the rack could lay, one entry per choice of the places wilds take."""
    out: list[Candidate] = []
    for c in range(4):
        for lo in range(1, 12):
            for hi in range(lo + 2, 14):
                places = [c * 13 + n - 1 for n in range(lo, hi + 1)]
                choices = [((i, -1) if counts[i] else (-1,)) for i in places]
                for picked in product(*choices):
                    w = picked.count(-1)
                    if w <= wilds and w < len(picked):
                        out.append((tuple(i for i in picked if i >= 0), w, sum(range(lo, hi + 1))))
    for n in range(1, 14):
        for size in (3, 4):
            for colours in combinations(range(4), size):
                places = [c * 13 + n - 1 for c in colours]
                choices = [((i, -1) if counts[i] else (-1,)) for i in places]
                for picked in product(*choices):
                    w = picked.count(-1)
                    if w <= wilds and w < len(picked):
                        out.append((tuple(i for i in picked if i >= 0), w, size * n))
    return out


def exhaustive_value(tiles: Iterable[str], okey: str, forced: str | None = None) -> int:
    """The highest total value of disjoint sets and runs, by trying every combination.

    With `forced`, only combinations laying at least one such tile count (-1 when none does).
    """
    okey = normalize(okey)
    counts, wilds = _counts(tiles, okey)
    cands = candidates(counts, wilds)
    target: int | None = None
    if forced is not None:
        name = normalize(forced)
        target = -1 if name == okey else index(okey if name == FALSE_JOKER else name)
    none = -(10**9)

    def uses(plain: tuple[int, ...], w: int) -> bool:
        return target is not None and (target in plain if target >= 0 else w > 0)

    def go(k: int, wilds: int, done: bool) -> int:
        best = 0 if done else none
        for j in range(k, len(cands)):
            plain, w, value = cands[j]
            if w > wilds or any(counts[i] == 0 for i in plain):
                continue
            for i in plain:
                counts[i] -= 1
            if all(counts[i] >= 0 for i in plain):
                best = max(best, value + go(j, wilds - w, done or uses(plain, w)))
            for i in plain:
                counts[i] += 1
        return best

    return max(go(0, wilds, target is None), -1)
