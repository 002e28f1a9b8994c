"""Açık poker's odds for the tests of where the core computes them: positions of every kind, and
the odds marked with the process that worked them out (a top-level function, so the odds'
worker processes can be handed it)."""

from __future__ import annotations

import os
import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from games.base import Action
from games.poker import acik_rules
from games.poker.acik import new
from games.poker.odds import Odds, estimate


def estimate_marked(view: Mapping[str, Any]) -> Odds:
    """`games.poker.odds.estimate(view)` with `deals` replaced by this process's id."""
    return replace(estimate(view), deals=os.getpid())


def positions() -> list[dict]:
    """Public and own views of seeded hands: 10 players on streets 1 and 3 (the numpy Monte
    Carlo), 3 and 2 players on the last streets (exact with the own down card), a 32-card deck,
    another suit order (the pure-Python Monte Carlo), a fold, and a finished hand."""
    out = []
    rules = [acik_rules(52), acik_rules(32), acik_rules(52, suit_order="cdsh")]
    for players, ruleset, street, viewers in [
        (10, rules[0], 1, (None, 1)),
        (10, rules[0], 3, (None, 1)),
        (3, rules[0], 4, (None, 1)),
        (2, rules[0], 3, (None, 1)),
        (5, rules[1], 2, (None, 1)),
        (6, rules[2], 2, (None,)),
    ]:
        rng = random.Random(f"{players}/{street}")
        hand = new([f"p{s}" for s in range(players)], [100] * players, ruleset, rng.randbytes(32))
        while hand.street < street:
            hand.apply(hand.to_act(), Action("check"))
        out += [hand.view(seat) for seat in viewers]
    bet = next(a for a in hand.legal_actions(hand.to_act()) if a.kind == "bet")
    hand.apply(hand.to_act(), Action("bet", bet.min_amount))
    hand.apply(hand.to_act(), Action("fold"))
    out.append(hand.view(None))
    while not hand.finished:
        hand.apply(hand.to_act(), Action("fold"))
    out.append(hand.view(None))
    return out
