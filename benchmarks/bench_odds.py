"""Açık poker live odds speed and accuracy, 10 players, beside a naive peer in the same run.

    .venv/bin/python -m benchmarks.bench_odds [--hands 12] [--naive 2] [--accuracy 10]

- Ours: `odds.estimate(hand.view(None))` on `--hands` random 10-player hands per street
  (everyone checks up to the street): CPU time (time.process_time, the machine is shared)
  mean / p99 / worst per street, the stated Monte Carlo error and the deals used; beside it,
  interleaved hand by hand, the pure-Python Monte Carlo alone (`vector=False`, "python").
- Naive peer: one random deal of the unknown cards at a time, every hand ranked with `evaluate`,
  until the same 95% half-width (1 point) is reached, on `--naive` of the same hands per street.
- The numpy Monte Carlo's one-off cost: its evaluator tables, built once per process (timed
  first, so the per-street times do not include it).
- Accuracy: on `--accuracy` random 3-player last-street positions (where full enumeration is
  feasible: 6,840 deals) the forced Monte Carlo's largest error against the enumeration, and how
  often it lies within its stated error.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from math import sqrt

from games.base import Action
from games.poker import acik_rules, evaluate
from games.poker.acik import new
from games.poker.cards import Card
from games.poker.odds import TARGET_ERROR, Z95, estimate
from games.poker.odds_vector import evaluator

PLAYERS = 10
RULES = acik_rules(52)


def views(street: int, count: int, players: int = PLAYERS) -> list[dict]:
    """Public views of `count` seeded random hands, everyone checking up to `street`."""
    out = []
    for i in range(count):
        rng = random.Random(f"{street}/{i}/{players}")
        hand = new([f"p{s}" for s in range(players)], [100] * players, RULES, rng.randbytes(32))
        while hand.street < street and not hand.finished:
            hand.apply(hand.to_act(), Action("check"))
        out.append(hand.view(None))
    return out


def naive(view: dict, rng: random.Random) -> tuple[list[float], float, int]:
    """Plain Monte Carlo: deal the unknown cards at random, rank every hand with `evaluate`,
    until the 95% half-width is under the target for every seat (checked every 100 deals)."""
    ups = [[Card.parse(c) for c in u] for u in view["up"]]
    seen = {c for u in ups for c in u}
    pool = [c for c in RULES.deck if c not in seen]
    live = [s for s in range(len(ups)) if not view["folded"][s]]
    need = [5 - len(ups[s]) for s in live]
    wins = [0] * len(live)
    deals = 0
    while True:
        for _ in range(100):
            drawn = rng.sample(pool, sum(need))
            at = 0
            ranks = []
            for j, s in enumerate(live):
                ranks.append(evaluate([*ups[s], *drawn[at : at + need[j]]], RULES))
                at += need[j]
            wins[ranks.index(max(ranks))] += 1
        deals += 100
        error = max(Z95 * sqrt(w / deals * (1 - w / deals) / deals) for w in wins)
        if deals >= 200 and error < TARGET_ERROR:
            return [w / deals for w in wins], error, deals


def p99(values: list[float]) -> float:
    """The 99th percentile (the largest value for fewer than 100 samples)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def speed(hands: int, naive_hands: int) -> None:
    """Print per-street CPU times of ours and of the naive peer."""
    start = time.process_time()
    evaluator(RULES)
    built = (time.process_time() - start) * 1e3
    print(f"numpy evaluator tables, built once per process: {built:.1f} ms")
    print(f"live odds, {PLAYERS} players, 52 cards, {hands} random hands per street (CPU time):")
    worst_all = 0.0
    for street in range(1, 5):
        positions = views(street, hands)
        times, errors, deals, exact, python = [], [], [], 0, []
        for view in positions:
            start = time.process_time()
            odds = estimate(view)
            times.append(time.process_time() - start)
            errors.append(odds.error)
            deals.append(odds.deals)
            exact += odds.exact
            start = time.process_time()
            estimate(view, vector=False)
            python.append(time.process_time() - start)
        peer = []
        for i, view in enumerate(positions[:naive_hands]):
            start = time.process_time()
            naive(view, random.Random(i))
            peer.append(time.process_time() - start)
        worst_all = max(worst_all, max(times))
        peer_text = f"naive mean {statistics.mean(peer) * 1e3:7.1f} ms" if peer else "naive -"
        print(
            f"  street {street}: mean {statistics.mean(times) * 1e3:5.1f} ms, "
            f"p99 {p99(times) * 1e3:5.1f} ms, worst {max(times) * 1e3:5.1f} ms; "
            f"exact {exact}/{hands}, error max {max(errors) * 100:.2f} pt, "
            f"deals mean {statistics.mean(deals):,.0f}; {peer_text}"
        )
        print(
            f"           python: mean {statistics.mean(python) * 1e3:5.1f} ms, "
            f"p99 {p99(python) * 1e3:5.1f} ms, worst {max(python) * 1e3:5.1f} ms"
        )
    print(f"  worst over all streets: {worst_all * 1e3:.1f} ms (target < 50 ms)")


def accuracy(count: int) -> None:
    """Print the forced Monte Carlo's error against full enumeration on 3-player positions."""
    worst = 0.0
    inside = total = 0
    stated = 0.0
    for view in views(4, count, players=3):
        exact = estimate(view, exact_limit=10**6)
        guess = estimate(view, exact_limit=0)
        stated = max(stated, guess.error)
        for a, b in zip(exact.chances, guess.chances, strict=True):
            if a is None or b is None:
                continue
            worst = max(worst, abs(a - b))
            inside += abs(a - b) <= guess.error or guess.exact
            total += 1
    print(
        f"accuracy, {count} 3-player last-street positions against enumeration: largest error "
        f"{worst * 100:.2f} pt, stated error up to {stated * 100:.2f} pt, within it "
        f"{inside}/{total}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--naive", type=int, default=2)
    parser.add_argument("--accuracy", type=int, default=10)
    args = parser.parse_args()
    speed(args.hands, args.naive)
    accuracy(args.accuracy)


if __name__ == "__main__":
    main()
