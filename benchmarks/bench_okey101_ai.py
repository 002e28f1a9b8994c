"""101 Okey computer players: one player at a level (default `hard`) against three `easy` ones.

Plays whole rounds on the engine (games.okey101) with `games.okey101.ai.choose_action`, the
function the table calls, at the default table options (open 101, pairs allowed, doublings, okey
swaps). The tested player sits at seat `round % 4`, so it starts as often as the others. With
`--partners` the table plays eşli (option `partners`): the tested level holds both seats of a side
(`round % 4` and the seat opposite), the other level the other side.

101 scores are penalty points, lower is better (the +101 discard penalties included). For each
round the benchmark takes the difference "mean score of the opponents minus the tested player's
(with partners: the tested side's mean)" and reports its mean with a 95% confidence interval (normal approximation; the
rounds are independent deals): above zero means the tested level scores better. It also reports
how often each side opens (by series, by pairs), finishes and pays a +101 discard penalty, the
tested level's open-failure rate (its seats that never opened, with a 95% Wilson interval), and the
time of the tested player's decisions (one call of `choose_action`; a turn is several calls):
CPU time of the measuring thread (`time.thread_time`, so other jobs on a shared machine do not
inflate it) and wall-clock time, median, p99 and worst.

With `--baseline` every deal is played a second time with the tested level not looking ahead
(`games.okey101.ai.NO_LOOKAHEAD`, the same deal and rng), and the benchmark reports deal by deal how
much more often the look-ahead opened and the points a round it gained, with 95% intervals.

Exit status 1 when the interval is not above zero, the CPU p99 is 50 ms or more, or (with
`--baseline`) the look-ahead does not open more often (its interval not above zero).

Run: `.venv/bin/python -m benchmarks.bench_okey101_ai [--rounds 2000] [--level hard]
[--opponent easy] [--seed 1] [--partners] [--baseline]`.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field

from games.okey101 import Round101, best_opening, new
from games.okey101.ai import LEVELS, LOOKAHEAD, NO_LOOKAHEAD, Lookahead, choose_action

PLAYERS = 4
TARGET_MS = 50.0


@dataclass
class Tally:
    """What one side did over the rounds (the opponents' figures are summed over their seats)."""

    seats: int
    score: int = 0
    series: int = 0
    pairs: int = 0
    finishes: int = 0
    penalties: int = 0

    def line(self, name: str, rounds: int) -> str:
        """One line of figures per seat and round."""
        per = max(1, rounds * self.seats)
        return (
            f"  {name}: mean score {self.score / per:.1f}; opened "
            f"{(self.series + self.pairs) / per:.1%} ({self.series / per:.1%} by "
            f"series, {self.pairs / per:.1%} by pairs); finished {self.finishes / per:.1%}; "
            f"+101 discards {self.penalties / per:.2f} a round"
        )


@dataclass
class Timer:
    """Decision times of the tested player, in milliseconds."""

    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)


def tested_seats(index: int, partners: bool) -> list[int]:
    """The seats the tested level holds in round `index`: `index % 4`, and its partner."""
    seat = index % PLAYERS
    return [seat, (seat + 2) % PLAYERS] if partners else [seat]


def play_round(
    index: int,
    seed: int,
    level: str,
    opponent: str,
    timer: Timer,
    partners: bool = False,
    lookahead: Lookahead = LOOKAHEAD,
) -> tuple[list[int], Round101]:
    """One round with the tested level at `tested_seats` (looking ahead with `lookahead`);
    returns those seats and the round."""
    tested = tested_seats(index, partners)
    digest = hashlib.sha256(f"bench_okey101_ai:{seed}:{index}".encode()).digest()
    game = new([f"p{i}" for i in range(PLAYERS)], digest, {"partners": partners})
    rng = random.Random(digest)
    while not game.finished:
        seat = game.to_act()
        assert seat is not None
        if seat in tested:
            cpu, wall = time.thread_time(), time.perf_counter()
            action = choose_action(game, seat, level, rng, lookahead)
            timer.cpu.append((time.thread_time() - cpu) * 1000)
            timer.wall.append((time.perf_counter() - wall) * 1000)
        else:
            action = choose_action(game, seat, opponent, rng)
        game.apply(seat, action)
    return tested, game


def could_have_opened(game: Round101, seat: int) -> bool:
    """Whether the tiles that passed through the rack of `seat` (the rack at the end and its
    discard pile) hold an opening: did a seat that never opened throw its opening away?"""
    tiles = [*game.racks[seat], *game.piles[seat]]
    best = best_opening(tiles, game.okey)
    return best.value >= game.threshold or best.can_pairs


def lead(tested: list[int], game: Round101) -> float:
    """The round's figure: the opponents' mean score minus the tested seats' mean score."""
    rest = [s for s in range(PLAYERS) if s not in tested]
    scores = game.penalties
    return sum(scores[s] for s in rest) / len(rest) - sum(scores[s] for s in tested) / len(tested)


def never_opened(tested: list[int], game: Round101) -> int:
    """How many of the tested seats never opened in the round."""
    return sum(game.opened[s] is None for s in tested)


def opens_more(paired: list[tuple[float, float]], seats: int) -> bool:
    """Whether the look-ahead opened more often: the 95% interval of the per seat-round gain
    is above zero."""
    side = seats / len(paired)
    return mean_interval([f / side for f, _ in paired])[1] > 0


def paired_line(level: str, paired: list[tuple[float, float]], seats: int) -> str:
    """The same deals with and without the look-ahead: how many fewer seat-rounds never opened
    (per seat-round) and how many points a round the look-ahead gained, with 95% intervals."""
    rounds = len(paired)
    side = seats / rounds
    fewer = [f / side for f, _ in paired]
    mean, lo, hi = mean_interval(fewer)
    gain, glo, ghi = mean_interval([g for _, g in paired])
    return (
        f"  the same deals with {level} not looking ahead: it opened {mean:+.1%} more often "
        f"(95% CI {lo:+.1%} to {hi:+.1%}); the look-ahead gained {gain:+.1f} points a round "
        f"(95% CI {glo:+.1f} to {ghi:+.1f})"
    )


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of the proportion `hits / n`."""
    if n == 0:
        return 0.0, 1.0
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def mean_interval(values: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """The mean of `values` and its 95% confidence interval (normal approximation)."""
    mean = statistics.fmean(values)
    half = z * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, mean - half, mean + half


def _spread(ms: list[float]) -> str:
    return f"median {statistics.median(ms):.2f} ms, p99 {p99(ms):.2f} ms, worst {max(ms):.2f} ms"


def p99(ms: list[float]) -> float:
    """The 99th percentile of `ms`."""
    ms = sorted(ms)
    return ms[min(len(ms) - 1, int(0.99 * len(ms)))]


def main() -> int:
    """Play the rounds, print the figures; 1 when the tested level does not do better or is slow."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--level", default="hard", choices=LEVELS)
    parser.add_argument("--opponent", default="easy", choices=LEVELS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--partners", action="store_true", help="eşli: a side each")
    parser.add_argument(
        "--baseline",
        action="store_true",
        help="also play every deal with the tested level not looking ahead, and compare",
    )
    args = parser.parse_args()
    timer = Timer()
    side = 2 if args.partners else 1
    tested_side, others = Tally(side), Tally(PLAYERS - side)
    diffs: list[float] = []
    paired: list[tuple[float, float]] = []  # per deal: (fewer never opened, score gained)
    finished = shut = reachable = 0
    start = time.perf_counter()
    for index in range(args.rounds):
        tested, game = play_round(index, args.seed, args.level, args.opponent, timer, args.partners)
        result = game.result or {}
        finished += result.get("reason") == "finished"
        scores = list(game.penalties)
        rest = [s for s in range(PLAYERS) if s not in tested]
        diffs.append(lead(tested, game))
        if args.baseline:
            _, plain = play_round(
                index, args.seed, args.level, args.opponent, Timer(), args.partners, NO_LOOKAHEAD
            )
            paired.append(
                (
                    never_opened(tested, plain) - never_opened(tested, game),
                    diffs[-1] - lead(tested, plain),
                )
            )
        for s in tested:
            if game.opened[s] is None:
                shut += 1
                reachable += could_have_opened(game, s)
        for tally, seats in ((tested_side, tested), (others, rest)):
            for s in seats:
                tally.score += scores[s]
                tally.series += game.opened[s] == "series"
                tally.pairs += game.opened[s] == "pairs"
                tally.finishes += result.get("winner") == s
                tally.penalties += sum(1 for p in game.penalty_log if p["seat"] == s)
    elapsed = time.perf_counter() - start
    mean, lo, hi = mean_interval(diffs)
    table = (
        f"two {args.level} partners against two {args.opponent}"
        if args.partners
        else f"one {args.level} against three {args.opponent}"
    )
    print(
        f"101 Okey: {table}, {args.rounds} rounds "
        f"in {elapsed:.1f} s ({finished} finished, the rest ran out of stock)"
    )
    print(tested_side.line(args.level, args.rounds))
    print(others.line(args.opponent, args.rounds))
    seats = args.rounds * side
    low, high = wilson(shut, seats)
    print(
        f"  {args.level} open-failure rate {shut / max(1, seats):.1%} of {seats} seat-rounds "
        f"(95% CI {low:.1%} to {high:.1%})"
    )
    print(
        f"  {args.level} never opened {shut} times; in {reachable} of them the tiles that passed "
        "through its rack (the rack at the end and its discard pile) held an opening"
    )
    print(
        f"  {args.opponent} mean minus {args.level} score: {mean:.1f} points a round, "
        f"95% CI {lo:.1f} to {hi:.1f} (above zero: {args.level} scores better)"
    )
    if paired:
        print(paired_line(args.level, paired, seats))
    print(f"  decisions ({len(timer.cpu)}): CPU {_spread(timer.cpu)}; wall {_spread(timer.wall)}")
    ok = lo > 0 and p99(timer.cpu) < TARGET_MS and (not paired or opens_more(paired, seats))
    if not ok:
        print(
            f"  FAIL: the interval must be above zero, the CPU p99 under {TARGET_MS:.0f} ms and "
            "(with --baseline) the look-ahead must open more often"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
