"""Meld templates: for each tile, every small meld it can start, precomputed once.

The solvers always take the lowest tile index still in the rack, so a meld that uses it may only
use plain tiles of higher index; lower positions are filled by wilds. Runs are listed up to five
tiles long: a longer run splits into two runs of at least three, each holding a plain tile (there
are at most two wilds), so nothing is lost and the search stays small. Templates with the same use
of tiles and wilds are merged, keeping the highest face value.

`meld_templates(i, wrap, score)` builds them for both games: classic Okey's runs may end 12-13-1
(`wrap`) and score tiles placed before face value; 101's runs stop at 13 and score face value
(games/okey101/solver.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import combinations, product

from games.okey.tiles import COLOURS, NAMES, colour_of, number_of

WILD = -1
MAX_WILDS = 2
MAX_RUN = 5
HIGH_ONE = 14  # the position of a 1 played after 13 (12-13-1)
# The objective packs (tiles placed, face value) in one integer; face value stays below this.
SCALE = 1000
# The most a wild can add to the objective: one tile placed, playing as a 13.
WILD_VALUE = SCALE + 13


@dataclass(frozen=True)
class Template:
    """A meld that starts with one tile: the other plain tiles it needs and how many wilds.

    `slots` lists the meld in display order: a tile index, or WILD. `numbers` gives the number each
    slot plays as (1-13). For a run, `colour` and `lo`/`hi` (positions 1-14) say where it lies.
    """

    kind: str
    others: tuple[int, ...]
    wilds: int
    score: int
    slots: tuple[int, ...]
    numbers: tuple[int, ...]
    colour: int = -1
    lo: int = 0
    hi: int = 0
    # sum of (SCALE + number) over its plain tiles: what it removes from the search's upper bound
    plain_value: int = 0


Score = Callable[[int, int], int]  # (tiles in the meld, their face value) -> the search's score


def _number_at(position: int) -> int:
    return 1 if position == HIGH_ONE else position


def _run_templates(i: int, wrap: bool, score: Score) -> list[Template]:
    c, n = colour_of(i), number_of(i)
    positions = [n] + ([HIGH_ONE] if wrap and n == 1 else [])
    top = HIGH_ONE if wrap else 13
    out = []
    for p in positions:
        for length in range(3, MAX_RUN + 1):
            for lo in range(max(1, p - length + 1), min(p, top - length + 1) + 1):
                hi = lo + length - 1
                choices: list[tuple[int, ...]] = []
                for q in range(lo, hi + 1):
                    qi = c * 13 + _number_at(q) - 1
                    if q == p:
                        choices.append((i,))
                    elif qi > i:
                        choices.append((qi, WILD))
                    else:
                        choices.append((WILD,))
                numbers = tuple(_number_at(q) for q in range(lo, hi + 1))
                for slots in product(*choices):
                    wilds = slots.count(WILD)
                    if wilds > MAX_WILDS:
                        continue
                    others = tuple(sorted(s for s in slots if s not in (WILD, i)))
                    out.append(
                        Template(
                            "run",
                            others,
                            wilds,
                            score(length, sum(numbers)),
                            slots,
                            numbers,
                            c,
                            lo,
                            hi,
                        )
                    )
    return out


def _set_templates(i: int, score: Score) -> list[Template]:
    c, n = colour_of(i), number_of(i)
    rest = [k for k in range(len(COLOURS)) if k != c]
    out = []
    for size in (3, 4):
        for chosen in combinations(rest, size - 1):
            choices = [((k * 13 + n - 1, WILD) if k > c else (WILD,)) for k in chosen]
            for picked in product(*choices):
                wilds = picked.count(WILD)
                if wilds > MAX_WILDS:
                    continue
                others = tuple(sorted(s for s in picked if s != WILD))
                slots = (i, *others) + (WILD,) * wilds
                out.append(
                    Template("set", others, wilds, score(size, size * n), slots, (n,) * size)
                )
    return out


def meld_templates(i: int, wrap: bool, score: Score) -> list[Template]:
    """The small melds tile `i` can start (runs of 3-5 and sets; with `wrap` a run may end
    12-13-1), one per use of other tiles and wilds (the highest `score` kept), best first."""
    best: dict[tuple[tuple[int, ...], int], Template] = {}
    for tpl in _run_templates(i, wrap, score) + _set_templates(i, score):
        key = (tpl.others, tpl.wilds)
        if key not in best or tpl.score > best[key].score:
            best[key] = tpl
    # Big melds first: the exact searches find good answers early and prune the rest.
    return sorted(best.values(), key=lambda t: -t.score)


def _classic_score(length: int, face: int) -> int:
    return length * SCALE + face


def _templates_for(i: int) -> tuple[Template, ...]:
    return tuple(
        replace(t, plain_value=sum(SCALE + number_of(j) for j in (i, *t.others)))
        for t in meld_templates(i, True, _classic_score)
    )


TEMPLATES: tuple[tuple[Template, ...], ...] = tuple(_templates_for(i) for i in range(len(NAMES)))
