"""Türk pokeri hands per second against pokerkit's five-card draw, side by side in one run.

Both sides play 4-player hands to the end with random legal actions (same policy: a uniform choice
among the legal move kinds, a uniform amount in the legal range, a uniform discard of 0-4 cards for
us, 0-5 for pokerkit). pokerkit is set up as its maintainer suggests for five-card draw
(uoftcprg/pokerkit#14): `NoLimitDeuceToSevenLowballSingleDraw` with `hand_types =
(StandardHighHand,)`, every dealer step automated, antes only. Our hands include the ones nobody
opens (carried pots), which are shorter, so moves per second are printed too. The two sides run
in alternating slices so that load from other processes hits both alike.

Run: `.venv/bin/python -m benchmarks.bench_turkish [seconds per side]` (default 2).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable

from games.poker.turkish import new
from testkit.random_play import Meter, alternate, play_out, pokerkit_bet

PLAYERS = 4
STACK = 200
ANTE = 1


def play_turkish(rnd: random.Random) -> int:
    """Play one hand with random legal moves; return the number of player moves."""
    game = new(["a", "b", "c", "d"], [STACK] * PLAYERS, seed=rnd.randbytes(32), ante=ANTE)
    return play_out(game, rnd)


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
                pokerkit_bet(state, rnd, choose_amount=True)
            moves += 1
        return moves

    return play


def main() -> None:
    """Measure both sides in alternating slices (so machine load hits both alike); print the ratio."""
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    slices = 10
    ours, theirs = Meter(play_turkish), Meter(make_pokerkit())
    alternate([ours, theirs], seconds, seconds / slices)
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
