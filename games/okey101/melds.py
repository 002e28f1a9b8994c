"""101 Okey melds: reading a group of tiles as a set, a run or a pair, their values, and adding to them.

Tiles use the notation of `games/okey/tiles.py` (`R5`, `K13`, `F`). With okey `okey`, the two okey
tiles are wild; a false joker `F` is a plain tile of the okey's own colour and number. Unlike
classic Okey, 1 plays low only: `R1 R2 R3` is a run, `R12 R13 R1` is not, nothing wraps.

A meld lying on the table is a JSON-safe dict:
- run: `{"kind": "run", "colour": "R", "lo": 5, "tiles": ["R5", <okey>, "R7"]}` — the tiles in order,
  the k-th standing for number `lo + k`;
- set: `{"kind": "set", "number": 7, "tiles": ["R7", "B7", <okey>]}` — a wild stands for a colour
  the plain tiles lack;
- pair: `{"kind": "pair", "tiles": ["R5", "R5"]}`.
The table adds `"owner"` (the seat that laid it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.okey.tiles import COLOURS, FALSE_JOKER, colour_of, index, normalize, number_of

Meld = dict[str, Any]
MIN_MELD, MAX_SET, TOP = 3, 4, 13


def indicator_for(okey: str) -> str:
    """The indicator that makes `okey` the okey (same colour, previous number, 1 -> 13)."""
    i = index(okey)
    return f"{COLOURS[colour_of(i)]}{(number_of(i) - 2) % 13 + 1}"


def effective(tile: str, okey: str) -> str | None:
    """What `tile` plays as: None for a wild okey, the okey's name for a false joker, else itself."""
    if tile == okey:
        return None
    if tile == FALSE_JOKER:
        return okey
    return tile


def tile_value(tile: str, okey: str) -> int:
    """The number a tile counts on a rack: a wild okey and a false joker count as the okey's number."""
    return int((okey if tile in (okey, FALSE_JOKER) else tile)[1:])


def _split(name: str) -> tuple[str, int]:
    return name[0], int(name[1:])


def read_meld(tiles: Sequence[str], okey: str, allow_pair: bool = False) -> Meld | None:
    """Read `tiles` (canonical names) as a set or a run (or a pair), or None when they form none.

    A run given in an order that reads as consecutive numbers (wilds in their places) is laid in
    that order; otherwise the plain tiles are sorted, wilds fill the gaps and any wild left goes to
    the high end while it fits (then the low end). Only one tile with two wilds can read as both a
    set and a run: given in run order it is that run, otherwise the reading worth more (a tie: the
    set).
    """
    tiles = list(tiles)
    if allow_pair and len(tiles) == 2:
        a, b = (effective(t, okey) for t in tiles)
        if a is None or b is None or a == b:
            return {"kind": "pair", "tiles": tiles}
        return None
    if len(tiles) < MIN_MELD:
        return None
    plain = [e for e in (effective(t, okey) for t in tiles) if e is not None]
    if not plain:
        return None
    ordered = _run_in_order(tiles, okey)
    if ordered is not None:
        return ordered
    options = [m for m in (_as_set(tiles, plain, okey), _as_run(tiles, plain, okey)) if m]
    if not options:
        return None
    return max(options, key=lambda m: (meld_value(m), m["kind"] == "set"))


def _as_set(tiles: list[str], plain: list[str], okey: str) -> Meld | None:
    if len(tiles) > MAX_SET:
        return None
    numbers = {_split(p)[1] for p in plain}
    colours = [_split(p)[0] for p in plain]
    if len(numbers) != 1 or len(set(colours)) != len(colours):
        return None
    wilds = [t for t in tiles if effective(t, okey) is None]
    ordered = sorted((t for t in tiles if effective(t, okey) is not None), key=_colour_rank(okey))
    return {"kind": "set", "number": numbers.pop(), "tiles": ordered + wilds}


def _colour_rank(okey: str) -> Callable[[str], int]:
    return lambda t: COLOURS.index(_split(effective(t, okey) or t)[0])


def _run_in_order(tiles: list[str], okey: str) -> Meld | None:
    colour, lo = None, None
    for k, t in enumerate(tiles):
        e = effective(t, okey)
        if e is None:
            continue
        c, n = _split(e)
        if colour is None:
            colour, lo = c, n - k
        elif c != colour or lo is None or n != lo + k:
            return None
    if colour is None or lo is None or lo < 1 or lo + len(tiles) - 1 > TOP:
        return None
    return {"kind": "run", "colour": colour, "lo": lo, "tiles": tiles}


def _as_run(tiles: list[str], plain: list[str], okey: str) -> Meld | None:
    colours = {_split(p)[0] for p in plain}
    numbers = sorted(_split(p)[1] for p in plain)
    if len(colours) != 1 or len(set(numbers)) != len(numbers):
        return None
    size = len(tiles)
    span = numbers[-1] - numbers[0] + 1
    if span > size:
        return None
    extra = size - span
    hi = min(TOP, numbers[-1] + extra)
    lo = hi - size + 1
    if lo < 1:
        return None
    colour = colours.pop()
    by_number = {_split(effective(t, okey) or "")[1]: t for t in tiles if effective(t, okey)}
    wilds = [t for t in tiles if effective(t, okey) is None]
    out = [by_number[n] if n in by_number else wilds.pop() for n in range(lo, hi + 1)]
    return {"kind": "run", "colour": colour, "lo": lo, "tiles": out}


def meld_numbers(meld: Mapping[str, Any], okey: str) -> list[int]:
    """The number each tile of a meld stands for (a pair: each tile's own, a wild its partner's)."""
    size = len(meld["tiles"])
    if meld["kind"] == "run":
        return list(range(meld["lo"], meld["lo"] + size))
    if meld["kind"] == "set":
        return [meld["number"]] * size
    plain = [effective(t, okey) for t in meld["tiles"]]
    known = [_split(p)[1] for p in plain if p is not None]
    number = known[0] if known else int(okey[1:])
    return [number] * size


def meld_value(meld: Mapping[str, Any], okey: str = "") -> int:
    """A set's or run's value: the sum of the numbers its tiles stand for (pairs: theirs too)."""
    if meld["kind"] == "run":
        lo, size = int(meld["lo"]), len(meld["tiles"])
        return size * lo + size * (size - 1) // 2
    if meld["kind"] == "set":
        return int(meld["number"]) * len(meld["tiles"])
    return sum(meld_numbers(meld, okey))


def stands_for(meld: Mapping[str, Any], okey: str) -> list[list[str]]:
    """For each tile of a set or run, the plain tiles (effective names) it may stand for.

    A plain tile stands for itself; a wild in a run for the tile of its place; a wild in a set for
    any colour the set's plain tiles lack.
    """
    out: list[list[str]] = []
    if meld["kind"] == "run":
        for k, t in enumerate(meld["tiles"]):
            out.append([f"{meld['colour']}{meld['lo'] + k}"] if effective(t, okey) is None else [t])
        return out
    plain = [effective(t, okey) for t in meld["tiles"]]
    have = {_split(p)[0] for p in plain if p is not None}
    missing = [f"{c}{meld['number']}" for c in COLOURS if c not in have]
    return [missing if p is None else [p] for p in plain]


def placements(meld: Mapping[str, Any], tile: str, okey: str) -> list[str]:
    """Where `tile` may be added to a meld on the table: "low", "high" (runs) or "set"; [] if none.

    A run grows at either end within 1-13; a set of three takes a colour it lacks (a wild always
    fits such a set). Pairs take nothing.
    """
    e = effective(tile, okey)
    if meld["kind"] == "run":
        lo, hi = meld["lo"], meld["lo"] + len(meld["tiles"]) - 1
        out = []
        if lo > 1 and (e is None or e == f"{meld['colour']}{lo - 1}"):
            out.append("low")
        if hi < TOP and (e is None or e == f"{meld['colour']}{hi + 1}"):
            out.append("high")
        return out
    if meld["kind"] == "set" and len(meld["tiles"]) < MAX_SET:
        if e is None:
            return ["set"]
        c, n = _split(e)
        have = {_split(p)[0] for p in (effective(t, okey) for t in meld["tiles"]) if p}
        if n == meld["number"] and c not in have:
            return ["set"]
    return []


def add_tile(meld: Mapping[str, Any], tile: str, okey: str, where: str) -> Meld:
    """A copy of `meld` with `tile` added at `where` (one of `placements`)."""
    out = dict(meld)
    if where == "low":
        out["tiles"] = [tile, *meld["tiles"]]
        out["lo"] = meld["lo"] - 1
    elif where == "high":
        out["tiles"] = [*meld["tiles"], tile]
    else:
        grown = [*meld["tiles"], tile]
        plain = [t for t in grown if effective(t, okey) is not None]
        wilds = [t for t in grown if effective(t, okey) is None]
        out["tiles"] = sorted(plain, key=_colour_rank(okey)) + wilds
    return out


def swap_wild(meld: Mapping[str, Any], tile: str, okey: str) -> Meld | None:
    """A copy of the set or run with plain `tile` in place of a wild that stands for it, or None."""
    e = effective(tile, okey)
    if e is None or meld["kind"] not in ("run", "set"):
        return None
    for k, (t, could) in enumerate(zip(meld["tiles"], stands_for(meld, okey), strict=True)):
        if effective(t, okey) is None and e in could:
            if meld["kind"] == "run":
                tiles = list(meld["tiles"])
                tiles[k] = tile
                return {**meld, "tiles": tiles}
            rest = list(meld["tiles"])
            del rest[k]
            return add_tile({**meld, "tiles": rest}, tile, okey, "set")
    return None


def normal_name(tile: object) -> str:
    """`normalize` re-exported for the engine (ValueError for an unknown tile)."""
    return normalize(tile)
