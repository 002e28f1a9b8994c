"""The random-play policy and the side-by-side meter shared by the poker benchmarks.

Policy, the same for our engines and for pokerkit: a uniform choice among the legal move kinds, a
uniform amount in the legal range (when the structure lets a player choose one), and for a draw a
uniform number of cards up to the limit, chosen uniformly from the hand.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from games.base import Action, Game

AMOUNT_KINDS = ("open", "bet", "raise")


def random_action(game: Game, seat: int, rnd: random.Random) -> Action:
    """A random legal move of `seat` under the policy above."""
    spec = rnd.choice(game.legal_actions(seat))
    if spec.kind == "draw":
        hand = game.view(seat)["hand"]
        return Action("draw", cards=tuple(rnd.sample(hand, rnd.randint(0, spec.max_cards or 0))))
    if spec.kind in AMOUNT_KINDS and spec.min_amount is not None:
        return Action(spec.kind, rnd.randint(spec.min_amount, spec.max_amount or spec.min_amount))
    return Action(spec.kind)


def play_out(game: Game, rnd: random.Random) -> int:
    """Play `game` to its end with random legal moves; returns the number of moves."""
    moves = 0
    while not game.finished:
        seat = game.to_act()
        assert seat is not None
        game.apply(seat, random_action(game, seat, rnd))
        moves += 1
    return moves


def pokerkit_bet(state: Any, rnd: random.Random, choose_amount: bool) -> None:
    """One pokerkit betting move under the policy: check or call, fold (when legal) or raise.

    `choose_amount`: raise to a uniform legal amount (no limit); otherwise to pokerkit's only
    amount (fixed limit)."""
    options = ["call"]
    if state.can_fold():
        options.append("fold")
    if state.can_complete_bet_or_raise_to():
        options.append("raise")
    choice = rnd.choice(options)
    if choice == "fold":
        state.fold()
    elif choice == "raise" and choose_amount:
        low = state.min_completion_betting_or_raising_to_amount
        high = state.max_completion_betting_or_raising_to_amount
        state.complete_bet_or_raise_to(rnd.randint(low, high))
    elif choice == "raise":
        state.complete_bet_or_raise_to()
    else:
        state.check_or_call()


class Meter:
    """Hands, moves and time spent for one side; each side keeps its own random stream (seeded
    alike) and is timed with `clock` (wall or CPU time)."""

    def __init__(
        self, play: Callable[[random.Random], int], clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.play = play
        self.clock = clock
        self.rnd = random.Random(12345)
        self.hands = self.moves = 0
        self.elapsed = 0.0

    def run(self, seconds: float) -> None:
        """Play hands for about `seconds` more."""
        start = self.clock()
        deadline = start + seconds
        while self.clock() < deadline:
            self.moves += self.play(self.rnd)
            self.hands += 1
        self.elapsed += self.clock() - start

    def per_second(self) -> tuple[float, float]:
        """(hands, moves) per second so far."""
        return self.hands / self.elapsed, self.moves / self.elapsed


def alternate(meters: list[Meter], seconds: float, slice_seconds: float) -> None:
    """Run the meters in turn, a slice each, until each had `seconds`, so that load from other
    processes hits every side alike."""
    while min(m.elapsed for m in meters) < seconds:
        for meter in meters:
            meter.run(slice_seconds)
