"""How likely a 101 rack is to open before the stock runs out, by sampling the draws to come.

`open_chances` is `hard`'s look-ahead before it has opened: for each tile it may discard, the
share of sampled futures in which the rack left by that discard, with the tiles drawn in that
future, holds an opening (the threshold by series, or five pairs where pairs are allowed). A
future is `draws` tiles taken at random from the tiles the seat cannot see (the others' racks and
the stock look alike to it). The futures are shared by the candidates, so the comparison between
them is sharper than the chances themselves, and the searches share one budget of search
positions, so a decision's work is bounded whatever the rack: the future being sampled when it
runs out, and those after it, are left out. Pure: the draws come from `rng`; it reads only
what the seat's own view shows.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.okey.templates import Template
from games.okey.tiles import full_set, number_of
from games.okey101.solver import Budget, Spent, rack_counts, reach_melds, reaches

MIN_PAIRS = 5
WILD = -1  # a wild's slot: it plays as any tile


def unseen(view: Mapping[str, Any]) -> list[str]:
    """The tiles the seat of `view` cannot see: the full set less its rack, the discard piles,
    the melds on the table and the indicator (what is left is the others' racks and the stock)."""
    left = Counter(full_set())
    shown: list[str] = [*view["hand"], view["indicator"]]
    for pile in view["discard_piles"]:
        shown += pile
    for meld in view["table"]:
        shown += meld["tiles"]
    left.subtract(Counter(shown))
    return [t for t, n in left.items() for _ in range(max(0, n))]


def draws_left(view: Mapping[str, Any]) -> int:
    """How many tiles the seat deciding now still draws if every player draws from the stock."""
    return int(view["stock"]) // len(view["players"])


def open_chances(
    hand: Sequence[str],
    candidates: Iterable[str],
    okey: str,
    need: tuple[int, bool],
    future: tuple[Sequence[str], int],
    rng: random.Random,
    samples: int,
    positions: int,
) -> dict[str, float]:
    """For each candidate discard of `hand`, the share of sampled futures in which the rack
    without it opens. `need`: the threshold and whether pairs may open; `future`: the tiles
    the seat cannot see and how many it will draw; at most `samples` futures and `positions`
    search positions in all (`Budget`). All zero when nothing is drawn any more."""
    cands = list(dict.fromkeys(candidates))
    pool, draws = future
    wins = dict.fromkeys(cands, 0)
    if draws <= 0 or not pool or not cands:
        return {c: 0.0 for c in cands}
    base, base_wilds = rack_counts(hand, okey)
    drawn = [_slot(t, okey) for t in pool]
    slots = {c: _slot(c, okey) for c in cands}
    budget = Budget(positions)
    done = 0
    while done < samples:
        counts, wilds = list(base), base_wilds
        for s in rng.sample(drawn, min(draws, len(drawn))):
            if s == WILD:
                wilds += 1
            else:
                counts[s] += 1
        try:
            opened = _opens_without(counts, wilds, [slots[c] for c in cands], need, budget)
        except Spent:
            break
        for c, ok in zip(cands, opened, strict=True):
            wins[c] += ok
        done += 1
    return {c: wins[c] / max(1, done) for c in cands}


def _opens_without(
    counts: list[int], wilds: int, slots: list[int], need: tuple[int, bool], budget: Budget
) -> list[bool]:
    """For each slot, whether the rack of `counts` and `wilds` less one such tile opens."""
    threshold, pairs_ok = need
    value, melds = reach_melds(counts, wilds, threshold, budget)
    out: list[bool] = []
    for s in slots:
        if s == WILD:
            spare = wilds > sum(t.wilds for t in melds)
            ok = bool(value) and (spare or reaches(counts, wilds - 1, threshold, budget))
            out.append(ok or (pairs_ok and _pairs(counts, wilds - 1) >= MIN_PAIRS))
            continue
        counts[s] -= 1
        ok = bool(value) and (
            value - _loss(melds, s, counts[s]) >= threshold
            or reaches(counts, wilds, threshold, budget)
        )
        ok = ok or (pairs_ok and _pairs(counts, wilds) >= MIN_PAIRS)
        counts[s] += 1
        out.append(ok)
    return out


def _pairs(counts: Sequence[int], wilds: int) -> int:
    """The most pairs: identical plain tiles, a wild with a single, two wilds."""
    twos = sum(c // 2 for c in counts)
    singles = sum(c % 2 for c in counts)
    matched = min(wilds, singles)
    return twos + matched + (wilds - matched) // 2


def _loss(melds: Sequence[Template], s: int, left: int) -> int:
    """At most what melds lose without one copy of plain tile `s` (`left` copies stay in the
    rack): nothing while a copy outside them stays, its number from a set of four or a run's end,
    else the whole meld it is in."""
    held = sum(t.slots.count(s) for t in melds)
    if left >= held:
        return 0
    loss = 10**9
    for t in melds:
        if s not in t.slots:
            continue
        if len(t.slots) > 3 and (t.kind == "set" or s in (t.slots[0], t.slots[-1])):
            loss = min(loss, number_of(s))
        else:
            loss = min(loss, t.score)
    return loss


def _slot(tile: str, okey: str) -> int:
    """What a tile is to the search: the index of the plain tile it plays as, WILD for a wild."""
    counts, wilds = rack_counts([tile], okey)
    return WILD if wilds else counts.index(1)
