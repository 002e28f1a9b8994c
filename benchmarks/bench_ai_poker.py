"""The `hard` computer poker player against `easy` ones: chips won per hand, and decision time.

For Türk pokeri and Açık poker, heads-up (one `hard`, one `easy`) and four-handed (one `hard`,
three `easy`): seeded hands with fresh 200-chip stacks, ante 10, pot limit (the table defaults),
the dealer button moving every hand. A Türk pokeri hand nobody opens carries its pot into the
next deal of the same hand until somebody wins it. `easy` is `bot.core.table.ai.poker_move(...,
cautious=False)`; `hard` is `games.poker.strategy.choose(view(seat), legal, rng, "hard")` with
`decision_rng(view)`. Prints the hands played, the hard seat's mean chips won per hand with a 95%
confidence interval (normal approximation), and the p50/p99/max time of its decisions: wall time
and CPU time (time.process_time). On a shared machine the wall time also counts the moments the
process waited for a core; the CPU time is the decision's own work. Nothing is built before the
first hand, so the first decision's one-off costs (the draw's rank table) count.

Run: `.venv/bin/python -m benchmarks.bench_ai_poker [seconds per line] [max hands per line]`
(default 30 s and 20,000 hands: about a minute per game).
"""

from __future__ import annotations

import math
import random
import sys
import time
from typing import Any

from bot.core.table import ai
from games.poker import acik, turkish
from games.poker.strategy import choose, decision_rng

STACK = 200
ANTE = 10
HARD = 0  # the hard player's seat; the button moves round the table instead
MAX_CARRIES = 20


def play_hand(
    module: Any,
    players: int,
    rnd: random.Random,
    dealer: int,
    times: list[float],
    cpu: list[float] | None = None,
) -> int:
    """Play one hand (with its carried deals); return the chips the hard seat won or lost."""
    stacks = [STACK] * players
    carried = 0
    for _ in range(MAX_CARRIES):
        engine = module.new(
            [f"p{i}" for i in range(players)],
            stacks,
            None,
            rnd.randbytes(32),
            dealer,
            ante=ANTE,
            carried_pot=carried,
        )
        while not engine.finished:
            seat = engine.to_act()
            if seat == HARD:
                view = engine.view(seat)
                start, start_cpu = time.perf_counter(), time.process_time()
                action = choose(view, engine.legal_actions(seat), decision_rng(view), "hard")
                times.append(time.perf_counter() - start)
                if cpu is not None:
                    cpu.append(time.process_time() - start_cpu)
            else:
                action = ai.poker_move(engine, seat, False)
            engine.apply(seat, action)
        end = engine.view(None)
        stacks = list(end["stacks"])
        if not end["carried"]:
            break
        carried = end["pot"]
        if min(stacks) < 1:
            break  # somebody cannot ante again: the carried pot is lost to everybody
    return stacks[HARD] - STACK


def run(name: str, module: Any, players: int, seconds: float, limit: int) -> None:
    """Play hands for `seconds` (at most `limit`) and print one line of results."""
    rnd = random.Random(f"bench_ai_poker {name} {players}")
    results: list[int] = []
    times: list[float] = []
    cpu: list[float] = []
    deadline = time.perf_counter() + seconds
    while len(results) < limit and time.perf_counter() < deadline:
        results.append(play_hand(module, players, rnd, len(results) % players, times, cpu))
    n = len(results)
    mean = sum(results) / n
    sd = math.sqrt(sum((r - mean) ** 2 for r in results) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    times.sort()
    cpu.sort()
    p50, p99 = times[len(times) // 2] * 1000, times[int(len(times) * 0.99)] * 1000
    cpu99 = cpu[int(len(cpu) * 0.99)] * 1000
    print(
        f"{name:13} {players}-handed  hands {n:6d}  hard wins {mean:+7.2f} chips/hand "
        f"(95% CI {mean - half:+.2f} .. {mean + half:+.2f}; {mean / ANTE:+.2f} antes)  "
        f"decisions {len(times)}: wall p50 {p50:.1f} ms, p99 {p99:.1f} ms, max "
        f"{times[-1] * 1000:.1f} ms; CPU p99 {cpu99:.1f} ms, max {cpu[-1] * 1000:.1f} ms"
    )


def main() -> None:
    """Run every game and table size."""
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 30.0
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 20_000
    for name, module in (("Türk pokeri", turkish), ("Açık poker", acik)):
        for players in (2, 4):
            run(name, module, players, seconds, limit)


if __name__ == "__main__":
    main()
