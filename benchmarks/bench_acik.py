"""Açık poker speed: the void-bet (dead hand) check and whole random hands.

1. The dead-hand check for all pairs of players (`games.poker.void.analyse`, the real and the
   public judgement) at every street of 10-player 52-card hands, everybody still in: median and
   worst time per street. Target: under 20 ms for a whole table at the worst street, since the
   engine needs it on the first bet of every street.
2. Random legal hands played per second (2-10 players, random structures), void bets on and off.

Run: `.venv/bin/python benchmarks/bench_acik.py [hands]` (default 200 deals for the check).
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from games.base import Action
from games.poker import acik_rules, key
from games.poker.acik import deck_order, new
from games.poker.void import analyse


def time_checks(deals: int) -> dict[int, list[float]]:
    """Seconds taken by one whole-table check, per street, over `deals` 10-player deals."""
    rules = acik_rules(52)
    times: dict[int, list[float]] = {street: [] for street in range(1, 5)}
    dead_pairs: dict[int, int] = dict.fromkeys(range(1, 5), 0)
    for i in range(deals):
        deck = deck_order(rules, i.to_bytes(32, "big"))
        downs = dict(enumerate(deck[:10]))
        ups: dict[int, list] = {s: [] for s in range(10)}
        at = 10
        for street in range(1, 5):
            for s in range(10):
                ups[s].append(deck[at])
                at += 1
            seen = [c for cards in ups.values() for c in cards]
            start = time.perf_counter()
            result = analyse(rules.deck, downs, ups, seen, 5, lambda cards: key(cards, rules))
            times[street].append(time.perf_counter() - start)
            dead_pairs[street] += len(result.dead)
    for street in range(1, 5):
        print(f"   street {street}: dead pairs per deal {dead_pairs[street] / deals:.2f}")
    return times


def play(hands: int, void_bets: bool) -> float:
    """Random legal hands per second."""
    rng = random.Random(7)
    start = time.perf_counter()
    for i in range(hands):
        n = rng.randint(2, 10)
        game = new(
            [f"p{j}" for j in range(n)],
            [rng.randint(20, 400) for _ in range(n)],
            acik_rules(52),
            i.to_bytes(32, "big"),
            ante=rng.choice([0, 1, 5]),
            structure=rng.choice(["pot_limit", "fixed", "no_limit"]),
            void_bets=void_bets,
        )
        while not game.finished:
            seat = game.to_act()
            assert seat is not None
            spec = rng.choice(game.legal_actions(seat))
            amount = None
            if spec.kind in ("bet", "raise"):
                amount = rng.randint(spec.min_amount or 0, spec.max_amount or 0)
            game.apply(seat, Action(spec.kind, amount))
    return hands / (time.perf_counter() - start)


def main() -> None:
    """Print the figures."""
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    print(f"dead-hand check, 10 players, 52 cards, {deals} deals, all 90 ordered pairs:")
    times = time_checks(deals)
    for street, values in times.items():
        print(
            f"   street {street}: median {statistics.median(values) * 1e3:7.3f} ms"
            f"   worst {max(values) * 1e3:7.3f} ms"
        )
    for void_bets in (True, False):
        rate = play(300, void_bets)
        print(f"random hands per second (void_bets={void_bets}): {rate:,.0f}")


if __name__ == "__main__":
    main()
