"""Hand-ranking speed over all 2,598,960 five-card hands of the 52-card deck, beside treys.

    .venv/bin/python -m benchmarks.bench_ranking [--repeat 3] [--sample N]

Measured in the same run over the same hands (itertools.combinations of the deck):
- treys `Evaluator.evaluate(hand, ())` on treys card ints (treys ignores suits),
- our `evaluate(hand, rules)` on pre-built `Card`s (returns a HandRank), and `key(hand, rules)`,
- our batch path `evaluate_all(None, rules)` (every hand of the deck, keys consumed in C).
Rates use CPU time (time.process_time) and the best of `--repeat` rounds, because the machine is
shared; each round runs every path once, in turn, so a change in load hits them alike. The
empty-loop line shows what iterating the combinations alone costs.
"""

from __future__ import annotations

import argparse
import time
from collections import deque
from collections.abc import Callable
from itertools import combinations, islice

from treys import Card as TreysCard
from treys import Evaluator

from games.poker import acik_rules, evaluate, evaluate_all, key


def best_times(runs: dict[str, Callable[[], None]], repeat: int) -> dict[str, float]:
    """Return each run's smallest CPU time over `repeat` rounds that call every run in turn."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeat):
        for name, run in runs.items():
            start = time.process_time()
            run()
            best[name] = min(best[name], time.process_time() - start)
    return best


def main() -> None:
    """Run the measurements and print rates and ratios."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sample", type=int, default=0, help="first N hands only (0 = all)")
    args = parser.parse_args()

    rules = acik_rules(52)
    deck = rules.deck
    treys_deck = tuple(TreysCard.new(str(c)) for c in deck)
    treys_eval = Evaluator().evaluate
    stop = args.sample or None
    hands = sum(1 for _ in islice(combinations(range(52), 5), stop))

    def empty() -> None:
        for _ in islice(combinations(deck, 5), stop):
            pass

    def treys_all() -> None:
        for hand in islice(combinations(treys_deck, 5), stop):
            treys_eval(hand, ())

    def ours_evaluate() -> None:
        for hand in islice(combinations(deck, 5), stop):
            evaluate(hand, rules)

    def ours_key() -> None:
        for hand in islice(combinations(deck, 5), stop):
            key(hand, rules)

    def ours_batch() -> None:
        deque(evaluate_all(None, rules), maxlen=0)

    runs = {
        "empty loop": empty,
        "treys evaluate": treys_all,
        "evaluate": ours_evaluate,
        "key": ours_key,
        "batch evaluate_all": ours_batch,
    }
    timings = best_times(runs, args.repeat)
    batch_hands = 2598960
    rate = {name: hands / t for name, t in timings.items()}
    rate["batch evaluate_all"] = batch_hands / timings["batch evaluate_all"]
    print(f"hands: {hands:,} (batch: all {batch_hands:,}), best of {args.repeat} rounds, CPU time")
    for name, value in rate.items():
        print(f"{name:<20} {value:>12,.0f} hands/s")
    treys_rate = rate["treys evaluate"]
    print(f"evaluate / treys     {rate['evaluate'] / treys_rate:.2f}x")
    print(f"key / treys          {rate['key'] / treys_rate:.2f}x")
    print(f"batch / treys        {rate['batch evaluate_all'] / treys_rate:.2f}x")


if __name__ == "__main__":
    main()
