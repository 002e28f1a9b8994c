"""Türk pokeri hands per second against pokerkit's five-card draw, side by side in one run.

Both sides play 4-player hands to the end with random legal actions (same policy: a uniform choice
among the legal move kinds, a uniform amount in the legal range, a uniform discard of 0-4 cards for
us, 0-5 for pokerkit). pokerkit is set up as its maintainer suggests for five-card draw
(uoftcprg/pokerkit#14): `NoLimitDeuceToSevenLowballSingleDraw` with `hand_types =
(StandardHighHand,)`, every dealer step automated, antes only. Our hands include the ones nobody
opens (carried pots), which are shorter, so moves per second are printed too. The two sides run
in alternating slices so that load from other processes hits both alike.

Run: `.venv/bin/python benchmarks/bench_turkish.py [seconds per side]` (default 2).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from games.base import Action
from games.poker.turkish import new

PLAYERS = 4
STACK = 200
ANTE = 1


def play_turkish(rnd: random.Random) -> int:
    """Play one hand with random legal moves; return the number of player moves."""
    game = new(["a", "b", "c", "d"], [STACK] * PLAYERS, seed=rnd.randbytes(32), ante=ANTE)
    moves = 0
    while not game.finished:
        seat = game.to_act()
        assert seat is not None
        spec = rnd.choice(game.legal_actions(seat))
        if spec.kind == "draw":
            hand = game.view(seat)["hand"]
            action = Action("draw", cards=tuple(rnd.sample(hand, rnd.randint(0, 4))))
        elif spec.min_amount is not None and spec.kind in ("open", "bet", "raise"):
            action = Action(spec.kind, rnd.randint(spec.min_amount, spec.max_amount or 0))
        else:
            action = Action(spec.kind)
        game.apply(seat, action)
        moves += 1
    return moves


def make_pokerkit() -> Callable[[random.Random], int]:
    """Build the pokerkit five-card draw player (imported here: pokerkit is a dev dependency)."""
    from pokerkit import Automation, NoLimitDeuceToSevenLowballSingleDraw, StandardHighHand

    class NoLimitFiveCardDraw(NoLimitDeuceToSevenLowballSingleDraw):
        hand_types = (StandardHighHand,)

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.RUNOUT_COUNT_SELECTION,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )

    def play(rnd: random.Random) -> int:
        state = NoLimitFiveCardDraw.create_state(
            automations,
            True,
            ANTE,
            (),
            2,
            (STACK,) * PLAYERS,
            PLAYERS,
        )
        moves = 0
        while state.status:
            if state.can_stand_pat_or_discard():
                seat = state.stand_patter_or_discarder_index
                hole = state.hole_cards[seat]
                state.stand_pat_or_discard(rnd.sample(hole, rnd.randint(0, len(hole))))
            else:
                options = ["call"]
                if state.can_fold():
                    options.append("fold")
                if state.can_complete_bet_or_raise_to():
                    options.append("raise")
                choice = rnd.choice(options)
                if choice == "fold":
                    state.fold()
                elif choice == "raise":
                    low = state.min_completion_betting_or_raising_to_amount
                    high = state.max_completion_betting_or_raising_to_amount
                    state.complete_bet_or_raise_to(rnd.randint(low, high))
                else:
                    state.check_or_call()
            moves += 1
        return moves

    return play


class Meter:
    """Hands, moves and time spent for one side; each side keeps its own random stream."""

    def __init__(self, play: Callable[[random.Random], int]) -> None:
        self.play = play
        self.rnd = random.Random(12345)
        self.hands = self.moves = 0
        self.elapsed = 0.0

    def run(self, seconds: float) -> None:
        """Play hands for about `seconds` more."""
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            self.moves += self.play(self.rnd)
            self.hands += 1
        self.elapsed += time.perf_counter() - start


def main() -> None:
    """Measure both sides in alternating slices (so machine load hits both alike); print the ratio."""
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    slices = 10
    ours, theirs = Meter(play_turkish), Meter(make_pokerkit())
    for _ in range(slices):
        ours.run(seconds / slices)
        theirs.run(seconds / slices)
    for name, m in (("Türk pokeri (4 players)", ours), ("pokerkit 5-card draw   ", theirs)):
        print(
            f"{name}: {m.hands / m.elapsed:8.0f} hands/s {m.moves / m.elapsed:9.0f} moves/s "
            f"({m.hands} hands, {m.moves / m.hands:.1f} moves/hand)"
        )
    hands_ratio = (ours.hands / ours.elapsed) / (theirs.hands / theirs.elapsed)
    moves_ratio = (ours.moves / ours.elapsed) / (theirs.moves / theirs.elapsed)
    print(f"ratio: {hands_ratio:.1f}x hands/s, {moves_ratio:.1f}x moves/s (target 3x)")


if __name__ == "__main__":
    main()
