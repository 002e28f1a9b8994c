"""Okey computer players: one player at a level (default `hard`) against three `easy` ones.

Plays whole rounds on the engine (games.okey.round) with `bot.core.table.ai.okey_move`, the function the
table calls. The tested player sits at seat `round % 4`, so it starts as often as the others.
Reports the share of finished rounds (not those that run out of stock) it wins with a 95% Wilson
interval (an equal player wins 25%), its finishes with an okey tile, indicator shows, and the
wall-clock time of its decisions (median, p99, worst). Stops at `--rounds` or after `--seconds`,
whichever comes first, and prints how many rounds it played.

Run: `.venv/bin/python -m benchmarks.bench_ai [--rounds 2000] [--seconds 60] [--level hard]`.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import statistics
import time

from bot.core.table.ai import okey_move
from games.okey.round import OkeyRound

PLAYERS = 4


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play_round(index: int, seed: int, level: str, times: list[float]) -> dict:
    """One round with the tested player at seat `index % 4`; its decision times go to `times`."""
    tested = index % PLAYERS
    digest = hashlib.sha256(f"bench_ai:{seed}:{index}".encode()).digest()
    game = OkeyRound.new([f"p{i}" for i in range(PLAYERS)], digest, {})
    shows = 0
    while not game.finished:
        seat = game.to_act()
        assert seat is not None
        if seat == tested:
            start = time.perf_counter()
            action = okey_move(game, seat, level)
            times.append(time.perf_counter() - start)
            shows += action.kind == "show_indicator"
        else:
            action = okey_move(game, seat, "easy")
        game.apply(seat, action)
    result = game.result or {}
    return {
        "finished": result.get("reason") == "finished",
        "won": result.get("winner") == tested,
        "okey_finish": result.get("winner") == tested and bool(result.get("okey_discard")),
        "shows": shows,
    }


def main() -> None:
    """Play the rounds and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--level", default="hard", choices=("easy", "normal", "hard"))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    times: list[float] = []
    rounds = finished = wins = okey_wins = shows = 0
    start = time.perf_counter()
    while rounds < args.rounds and time.perf_counter() - start < args.seconds:
        out = play_round(rounds, args.seed, args.level, times)
        rounds += 1
        finished += out["finished"]
        wins += out["won"]
        okey_wins += out["okey_finish"]
        shows += out["shows"]
    elapsed = time.perf_counter() - start
    lo, hi = wilson(wins, finished)
    ms = sorted(t * 1000 for t in times)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))] if ms else 0.0
    print(f"Okey: one {args.level} against three easy, {rounds} rounds in {elapsed:.1f} s")
    print(f"  finished rounds: {finished} (the rest ran out of stock)")
    share = wins / finished if finished else 0.0
    print(f"  {args.level} wins {wins}: {share:.1%} of finished rounds, 95% CI {lo:.1%}-{hi:.1%}")
    print(f"  finishes with an okey tile: {okey_wins}; indicator shows: {shows}")
    if ms:
        print(
            f"  decision time: median {statistics.median(ms):.2f} ms, p99 {p99:.2f} ms, "
            f"worst {ms[-1]:.2f} ms over {len(ms)} decisions"
        )


if __name__ == "__main__":
    main()
