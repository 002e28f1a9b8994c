"""The 101 computer players' benchmark tools: a round is played out with the tested seat rotating,
its decisions are timed, and the interval of the mean is the normal approximation."""

from __future__ import annotations

import math

from benchmarks.bench_okey101_ai import (
    Timer,
    could_have_opened,
    lead,
    mean_interval,
    never_opened,
    opens_more,
    p99,
    paired_line,
    play_round,
    wilson,
)
from games.okey101.ai import NO_LOOKAHEAD
from tests.games.okey101.helpers import rigged


def test_a_round_is_played_out_with_the_tested_seat_rotating() -> None:
    timer = Timer()
    for index in range(4):
        tested, game = play_round(index, 1, "hard", "easy", timer)
        assert tested == [index % 4]
        assert game.finished and game.result is not None
    assert timer.cpu and len(timer.cpu) == len(timer.wall)


def test_with_partners_the_tested_level_holds_a_side() -> None:
    tested, game = play_round(5, 1, "hard", "easy", Timer(), partners=True)
    assert tested == [1, 3]
    assert game.options["partners"] and game.finished


def test_mean_interval_and_p99() -> None:
    mean, lo, hi = mean_interval([1.0, 3.0])
    half = 1.96 * math.sqrt(2) / math.sqrt(2)
    assert mean == 2.0 and math.isclose(lo, 2.0 - half) and math.isclose(hi, 2.0 + half)
    assert mean_interval([5.0])[1] == -math.inf
    assert p99([float(k) for k in range(100)]) == 99.0


def test_the_open_failure_rate_interval_holds_the_rate() -> None:
    low, high = wilson(440, 2000)
    assert low < 0.22 < high and math.isclose(high - low, 0.036, abs_tol=0.002)
    assert wilson(0, 0) == (0.0, 1.0)


def test_could_have_opened_reads_the_rack_and_the_discard_pile() -> None:
    rack = ["R1", "R1", "Y2", "Y2", "B3", "B3", "K5", "K5", "R9", "Y11", "B13"]
    game = rigged({1: rack})
    assert not could_have_opened(game, 1)  # four pairs
    game = rigged({1: rack}, turn=2, discard="R9")  # seat 1 threw the fifth pair's twin away
    assert could_have_opened(game, 1)


def test_the_same_deal_is_played_again_without_the_look_ahead() -> None:
    tested, game = play_round(3, 1, "hard", "easy", Timer())
    again, plain = play_round(3, 1, "hard", "easy", Timer(), lookahead=NO_LOOKAHEAD)
    assert tested == again and plain.finished
    assert (game.seed, game.okey) == (plain.seed, plain.okey)  # the same deal
    for g in (game, plain):
        rest = [s for s in range(4) if s not in tested]
        assert lead(tested, g) == sum(g.penalties[s] for s in rest) / 3 - g.penalties[tested[0]]
        assert never_opened(tested, g) == (g.opened[tested[0]] is None)


def test_the_paired_line_reads_per_seat_round() -> None:
    line = paired_line("hard", [(1.0, 10.0), (0.0, 0.0), (-1.0, -4.0), (2.0, 2.0)], 8)
    assert "opened +25.0% more often" in line and "gained +2.0 points a round" in line
    assert opens_more([(1.0, 0.0), (1.0, 0.0), (0.0, 0.0), (1.0, 0.0)], 8)
    assert not opens_more([(1.0, 0.0), (-1.0, 0.0), (0.0, 0.0), (1.0, 0.0)], 8)
