"""Açık poker speed: the void-bet (dead hand) check, and whole hands beside pokerkit's stud.

1. The dead-hand check for all pairs of players (`games.poker.void.analyse`: the judgement from
   real cards and the public one) at every street of 10-player 52-card deals, everybody still in:
   median and worst CPU time per street (process time: the machine is shared). Target: under 20 ms for a whole table at the worst street
   (the engine needs it on the first move of every street, then caches it). Beside it, the
   naive way: every completion of every player evaluated (no early exit), on fewer deals.
2. Random legal hands per second, 4 players, fixed limit, ante 1, with void bets on and off, side
   by side with pokerkit's `FixedLimitSevenCardStud` (the nearest open-stud peer: 7 cards, bring-in)
   under the same random policy. The sides run in alternating slices so that load from other
   processes hits both alike.

Run: `.venv/bin/python -m benchmarks.bench_acik [deals] [seconds per side]` (default 200, 2).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from itertools import combinations

from games.poker import Card, acik_rules, key
from games.poker.acik import deck_order, new
from games.poker.void import analyse
from testkit.random_play import Meter, alternate, play_out, pokerkit_bet

RULES = acik_rules(52)
PLAYERS = 10
STACK = 200


def k(cards) -> int:
    """The ranking key under the benchmark's rules."""
    return key(cards, RULES)


def deals(count: int):
    """(street, downs, ups, seen) for every street of `count` seeded 10-player deals."""
    for i in range(count):
        deck = deck_order(RULES, i.to_bytes(32, "big"))
        downs = dict(enumerate(deck[:PLAYERS]))
        ups: dict[int, list[Card]] = {s: [] for s in range(PLAYERS)}
        at = PLAYERS
        for street in range(1, 5):
            for s in range(PLAYERS):
                ups[s].append(deck[at])
                at += 1
            yield (
                street,
                downs,
                {s: list(u) for s, u in ups.items()},
                [c for u in ups.values() for c in u],
            )


def naive(downs, ups, seen) -> int:
    """Every completion of every player, no early exit; returns the dead-pair count."""
    dead = 0
    for seat, down in downs.items():
        known = (down, *ups[seat])
        pool = [c for c in RULES.deck if c not in seen and c != down]
        best = max(k(known + extra) for extra in combinations(pool, 5 - len(known)))
        dead += sum(1 for o in downs if o != seat and not best > k(ups[o]))
    return dead


def time_checks(count: int, naive_count: int) -> None:
    """Print the per-street figures of the whole-table check."""
    times: dict[int, list[float]] = {street: [] for street in range(1, 5)}
    dead: dict[int, int] = dict.fromkeys(range(1, 5), 0)
    public: dict[int, int] = dict.fromkeys(range(1, 5), 0)
    for street, downs, ups, seen in deals(count):
        start = time.process_time()
        result = analyse(RULES.deck, downs, ups, seen, 5, k)
        times[street].append(time.process_time() - start)
        dead[street] += len(result.dead)
        public[street] += len(result.public)
    naive_times: dict[int, list[float]] = {street: [] for street in range(1, 5)}
    for street, downs, ups, seen in deals(naive_count):
        start = time.process_time()
        naive(downs, ups, seen)
        naive_times[street].append(time.process_time() - start)
    print(f"dead-hand check, {PLAYERS} players, 52 cards, all 90 ordered pairs, {count} deals:")
    for street, values in times.items():
        print(
            f"  street {street}: median {statistics.median(values) * 1e3:7.3f} ms, "
            f"worst {max(values) * 1e3:7.3f} ms; dead pairs per deal "
            f"{dead[street] / count:5.2f} (publicly {public[street] / count:5.2f}); "
            f"naive ({naive_count} deals) median "
            f"{statistics.median(naive_times[street]) * 1e3:8.2f} ms"
        )


def play_acik(void_bets: bool) -> Callable[[random.Random], int]:
    """A player of whole Açık hands with random legal moves; returns moves per hand."""

    def play(rnd: random.Random) -> int:
        game = new(
            ["a", "b", "c", "d"],
            [STACK] * 4,
            RULES,
            rnd.randbytes(32),
            ante=1,
            structure="fixed",
            min_bet=2,
            void_bets=void_bets,
        )
        return play_out(game, rnd)

    return play


def play_pokerkit() -> Callable[[random.Random], int]:
    """pokerkit's fixed-limit seven-card stud, 4 players, same policy (dev dependency)."""
    from pokerkit import Automation, FixedLimitSevenCardStud

    automations = tuple(a for a in Automation if a is not Automation.RUNOUT_COUNT_SELECTION)

    def play(rnd: random.Random) -> int:
        state = FixedLimitSevenCardStud.create_state(automations, True, 1, 1, 2, 4, (STACK,) * 4, 4)
        moves = 0
        while state.status:
            if state.can_post_bring_in():
                state.post_bring_in()
                continue
            pokerkit_bet(state, rnd, choose_amount=False)
            moves += 1
        return moves

    return play


def side_by_side(seconds: float) -> None:
    """Alternate slices of each player until each had `seconds`; print hands and moves/s."""
    sides = {
        "acik void_bets=on": play_acik(True),
        "acik void_bets=off": play_acik(False),
        "pokerkit 7-card stud": play_pokerkit(),
    }
    meters = {name: Meter(play, clock=time.process_time) for name, play in sides.items()}
    alternate(list(meters.values()), seconds, 0.2)
    print("random hands, 4 players, fixed limit, ante 1:")
    for name, meter in meters.items():
        hands, moves = meter.per_second()
        print(f"  {name:22s} {hands:8,.0f} hands/s {moves:9,.0f} moves/s")


def main() -> None:
    """Print the figures."""
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
    time_checks(count, max(1, count // 100))
    side_by_side(seconds)


if __name__ == "__main__":
    main()
