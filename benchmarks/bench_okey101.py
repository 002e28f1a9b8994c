"""101 Okey solver speed: `best_opening` beside a plain exhaustive search, on 22-tile racks.

Racks hold both okey tiles plus 20 tiles dealt from the rest of a shuffled set (random okey), the
case the issue asks to be fast: the solver runs on every draw. Measured:
  - `best_opening` (the series opening, its melds and the pairs), on `--racks` racks;
  - the exhaustive search (tests/games/okey101/exhaustive.py: every meld of any length, every
    combination, no memo, no bound) on the first `--exhaustive` of the same racks; both must
    agree on every one of them;
  - a whole "after a draw" pass: the best opening, the tiles that fit the table and the +101
    warning of every rack tile, against a table of six melds.

Times are CPU time of the measuring thread (`time.thread_time`) with the garbage collector paused,
so other jobs on a shared machine do not inflate them. Exit status 1 when the two searches
disagree or the solver's p99 is 10 ms or more.

Run: `.venv/bin/python -m benchmarks.bench_okey101 [--racks 1000] [--exhaustive 60] [--seed 1]`.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable

from games.okey.tiles import NAMES, full_set
from games.okey101 import addable, best_opening, discard_penalty
from testkit.okey101_exhaustive import exhaustive_value

Rack = tuple[list[str], str]
TARGET_MS = 10.0
TABLE = [
    {"kind": "run", "colour": "R", "lo": 3, "tiles": ["R3", "R4", "R5"]},
    {"kind": "run", "colour": "Y", "lo": 9, "tiles": ["Y9", "Y10", "Y11", "Y12"]},
    {"kind": "set", "number": 7, "tiles": ["R7", "B7", "K7"]},
    {"kind": "set", "number": 13, "tiles": ["R13", "Y13", "B13"]},
    {"kind": "run", "colour": "B", "lo": 1, "tiles": ["B1", "B2", "B3"]},
    {"kind": "run", "colour": "K", "lo": 10, "tiles": ["K10", "K11", "K12"]},
]


def wild_racks(rng: random.Random, count: int) -> list[Rack]:
    """22-tile racks: both okey tiles and 20 tiles from the rest of a shuffled set."""
    out = []
    for _ in range(count):
        okey = rng.choice(NAMES)
        pool = [t for t in full_set() if t != okey]
        rng.shuffle(pool)
        out.append(([okey, okey, *pool[:20]], okey))
    return out


def timed(fn: Callable[[list[str], str], object], racks: list[Rack]) -> tuple[list[float], list]:
    """Milliseconds per call and the results."""
    times, results = [], []
    gc.collect()
    gc.disable()
    try:
        for tiles, okey in racks:
            start = time.thread_time()
            results.append(fn(tiles, okey))
            times.append((time.thread_time() - start) * 1000)
    finally:
        gc.enable()
    return times, results


def percentile(times: list[float], q: float) -> float:
    """The q-quantile (0-1) of a list of milliseconds."""
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def summary(times: list[float]) -> str:
    """p50 / p99 / worst of a list of milliseconds."""
    return (
        f"p50 {statistics.median(times):8.3f}  p99 {percentile(times, 0.99):8.3f}  "
        f"worst {max(times):8.3f} ms"
    )


def after_draw(tiles: list[str], okey: str) -> object:
    """What a front end computes on every draw."""
    best = best_opening(tiles, okey)
    fits = addable(tiles, TABLE, okey)
    warnings = [discard_penalty(t, TABLE, okey) for t in set(tiles)]
    return best, fits, warnings


def main() -> int:
    """Run the benchmark; exit status 1 on a disagreement or a p99 over the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--racks", type=int, default=1000, help="racks for the solver")
    parser.add_argument("--exhaustive", type=int, default=60, help="racks for the exhaustive one")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    racks = wild_racks(random.Random(args.seed), args.racks)
    best_opening(*racks[0])  # warm the import-time tables out of the measure

    solver_t, solver = timed(lambda t, o: best_opening(t, o).value, racks)
    shared = racks[: args.exhaustive]
    exhaustive_t, exhaustive = timed(exhaustive_value, shared)
    draw_t, _ = timed(after_draw, racks)
    agree = sum(a == b for a, b in zip(solver, exhaustive, strict=False))

    print(f"== 101 best opening, 22-tile racks with both okeys ({args.racks} racks)")
    print(f"  solver       {summary(solver_t)}")
    print(f"  on the {len(shared)} racks both searched:")
    print(f"    solver     {summary(solver_t[: len(shared)])}")
    print(f"    exhaustive {summary(exhaustive_t)}")
    print(f"  values agree on {agree}/{len(shared)}; mean best value {statistics.mean(solver):.1f}")
    print(f"  after a draw (opening, addable, warnings) {summary(draw_t)}")
    openable = sum(v >= 101 for v in solver)
    print(f"  racks that can open by series at 101: {openable}/{len(racks)}")
    ok = agree == len(shared) and percentile(solver_t, 0.99) < TARGET_MS
    print(
        f"solver p99 under {TARGET_MS:.0f} ms and equal to the exhaustive search:",
        "yes" if ok else "NO",
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
