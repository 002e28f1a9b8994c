"""Okey solver speed and quality, side by side with okey-solver-py on the same racks.

Measures `is_complete` racks per second and `arrange` median / p99 / worst milliseconds and tiles
placed per rack, for ours and for okey-solver-py's `SolverEngine` (backtracking strategy), on:
  - uniform: 15 tiles dealt from a shuffled 106-tile set, random indicator;
  - two wilds: both okey tiles plus 13 dealt tiles (the hard case for the search);
  - dense: both okey tiles plus 13 tiles from a window of five numbers (many overlapping melds).

The peer's rules differ in one point: it turns a false joker into a wild, while DECISIONS.md says a
false joker only plays as the okey's value. So a peer meld counts as placed only when it is valid
under our rules (`meld_kind`); the number of peer melds that are not is reported.

Times are CPU time of the measuring thread (`time.thread_time`) with the garbage collector paused,
so other jobs on a shared machine do not inflate them; both libraries are measured the same way.

Run: `.venv/bin/python -m benchmarks.bench_okey [--racks 2000] [--seed 1]`.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections.abc import Callable

from okey_core.types import OkeyMeta, Tile, TileColor
from okey_solver import create_standard_okey_solver

from games.okey import arrange, is_complete, meld_kind, okey_of
from games.okey.tiles import NAMES, full_set

PEER_COLOURS = {
    "R": TileColor.RED,
    "Y": TileColor.YELLOW,
    "B": TileColor.BLUE,
    "K": TileColor.BLACK,
}
Rack = tuple[list[str], str]


def uniform_racks(rng: random.Random, count: int, size: int = 15) -> list[Rack]:
    """Racks dealt from a shuffled full set, with a random indicator (never F)."""
    out = []
    for _ in range(count):
        tiles = full_set()
        rng.shuffle(tiles)
        indicator = rng.choice(NAMES)
        out.append((tiles[:size], indicator))
    return out


def wild_racks(rng: random.Random, count: int, window: int | None = None) -> list[Rack]:
    """Racks holding both okey tiles plus 13 more (from a window of numbers when given)."""
    out = []
    for _ in range(count):
        indicator = rng.choice(NAMES)
        okey = okey_of(indicator)
        lo = rng.randint(1, 13 - (window or 13) + 1)
        hi = lo + (window or 13) - 1
        pool = [t for t in full_set() if t != okey and (t == "F" or lo <= int(t[1:]) <= hi)]
        rng.shuffle(pool)
        out.append(([okey, okey, *pool[:13]], indicator))
    return out


def to_peer(tiles: list[str]) -> list[Tile]:
    """Our notation as okey-solver-py tiles; ids are positions in the rack."""
    out = []
    for k, name in enumerate(tiles):
        if name == "F":
            out.append(Tile(id=str(k), color=TileColor.JOKER, value=0))
        else:
            out.append(Tile(id=str(k), color=PEER_COLOURS[name[0]], value=int(name[1:])))
    return out


class Peer:
    """okey-solver-py's standard solver, told the okey tile (its `OkeyMeta` is the wild)."""

    def __init__(self) -> None:
        self.engine = create_standard_okey_solver("backtracking")
        self.invalid_melds = 0

    def arrange(self, tiles: list[str], indicator: str) -> int:
        """Tiles the peer places in melds that are valid under our rules."""
        okey = okey_of(indicator)
        meta = OkeyMeta(color=PEER_COLOURS[okey[0]], value=int(okey[1:]))
        result = self.engine.find_best_arrangement(to_peer(tiles), meta)
        placed = 0
        for meld in result.melds:
            names = [tiles[int(t.id)] for t in meld.tiles]
            if meld_kind(names, indicator) in ("set", "run"):
                placed += len(names)
            else:
                self.invalid_melds += 1
        return placed

    def is_complete(self, tiles: list[str], indicator: str) -> bool:
        """Complete when the peer lays every tile in melds, or finds seven pairs."""
        okey = okey_of(indicator)
        meta = OkeyMeta(color=PEER_COLOURS[okey[0]], value=int(okey[1:]))
        peer_tiles = to_peer(tiles)
        if not self.engine.find_best_arrangement(peer_tiles, meta).remainingTiles:
            return True
        return self.engine.find_best_pairs(peer_tiles, meta)["totalPairs"] >= 7


def timed(fn: Callable[[list[str], str], object], racks: list[Rack]) -> tuple[list[float], list]:
    """Milliseconds per call and the results."""
    times, results = [], []
    gc.collect()
    gc.disable()
    try:
        for tiles, indicator in racks:
            start = time.thread_time()
            results.append(fn(tiles, indicator))
            times.append((time.thread_time() - start) * 1000)
    finally:
        gc.enable()
    return times, results


def summary(times: list[float]) -> str:
    """Median / p99 / worst of a list of milliseconds."""
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"median {statistics.median(ordered):7.3f}  p99 {p99:8.3f}  worst {ordered[-1]:8.3f} ms"


def compare_arrange(name: str, racks: list[Rack], peer: Peer) -> bool:
    """Print the arrange comparison for one family of racks; True when ours never placed fewer."""
    ours_t, ours = timed(lambda t, i: arrange(t, i).placed, racks)
    peer_t, theirs = timed(peer.arrange, racks)
    fewer = sum(o < p for o, p in zip(ours, theirs, strict=True))
    more = sum(o > p for o, p in zip(ours, theirs, strict=True))
    print(f"\n== arrange, {name}: {len(racks)} racks of {len(racks[0][0])} tiles")
    print(f"  ours           {summary(ours_t)}  tiles placed/rack {statistics.mean(ours):.3f}")
    print(f"  okey-solver-py {summary(peer_t)}  tiles placed/rack {statistics.mean(theirs):.3f}")
    print(f"  racks where ours placed more: {more}, fewer: {fewer}")
    return fewer == 0


def compare_complete(racks: list[Rack], peer: Peer) -> None:
    """Print is_complete throughput for both on the same 14-tile racks."""
    hands = [(tiles[:14], indicator) for tiles, indicator in racks]
    ours_t, ours = timed(is_complete, hands)
    peer_t, theirs = timed(peer.is_complete, hands)
    agree = sum(a == b for a, b in zip(ours, theirs, strict=True))
    print(f"\n== is_complete: {len(hands)} hands of 14 tiles (half of them complete)")
    print(f"  ours           {len(hands) / (sum(ours_t) / 1000):10.0f} racks/s")
    print(f"  okey-solver-py {len(hands) / (sum(peer_t) / 1000):10.0f} racks/s")
    print(f"  verdicts agree on {agree}/{len(hands)} (they differ where the peer makes F wild)")


def complete_hands(rng: random.Random, count: int) -> list[Rack]:
    """Half complete hands (built from runs and sets), half dealt ones."""
    out = uniform_racks(rng, count - count // 2, 14)
    while len(out) < count:
        indicator = rng.choice(NAMES)
        hand: list[str] = []
        for size in rng.choice([(3, 3, 4, 4), (3, 3, 3, 5), (5, 5, 4)]):
            if size <= 4 and rng.random() < 0.5:
                number = rng.randint(1, 13)
                hand += [f"{c}{number}" for c in rng.sample("RYBK", size)]
            else:
                colour, start = rng.choice("RYBK"), rng.randint(1, 14 - size + 1)
                hand += [f"{colour}{1 if n == 14 else n}" for n in range(start, start + size)]
        okey = okey_of(indicator)
        hand = ["F" if t == okey else t for t in hand]
        if all(hand.count(t) <= 2 for t in hand):
            out.append((hand, indicator))
    rng.shuffle(out)
    return out


def main() -> int:
    """Run the benchmark; exit status 1 when ours placed fewer tiles than the peer on a rack."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--racks", type=int, default=2000, help="uniform racks (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    peer = Peer()
    ok = compare_arrange("uniform deal", uniform_racks(rng, args.racks), peer)
    ok &= compare_arrange("two wilds", wild_racks(rng, args.racks // 2), peer)
    ok &= compare_arrange("two wilds, dense", wild_racks(rng, args.racks // 4, window=5), peer)
    compare_complete(complete_hands(rng, args.racks // 2), peer)
    print(
        f"\npeer melds invalid under DECISIONS.md (false joker used as wild): {peer.invalid_melds}"
    )
    print("never fewer tiles placed than the peer:", "yes" if ok else "NO")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
