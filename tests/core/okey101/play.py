"""A player of the 101 table tests: the stand-in computer's moves (`games.okey101.ai`) typed as
commands, as a person would type them, until the match is over."""

from __future__ import annotations

import random

from bot.core.app import Core
from games.base import Action
from games.okey101 import ai
from testkit.helpers import cmd, errors
from tests.core.okey101.rig import live


def typed(action: Action) -> str:
    """The command that makes `action`."""
    cards = " ".join(action.cards)
    if action.kind == "take":
        return "/okey take"
    if action.kind in ("open", "lay"):
        return f"/okey lay {cards}"
    if action.kind in ("add", "swap"):
        return f"/okey {action.kind} {cards} {(action.amount or 0) + 1}"
    if action.kind == "discard":
        return f"/okey discard {cards} confirm"
    return f"/okey finish {cards}"


async def play_out(core: Core, rng: random.Random, limit: int = 3000) -> int:
    """Type the moves of every person at the table until the match ends; the steps taken."""
    steps = 0
    while steps < limit:
        session = live(core).session
        game = session.game101
        if game is None:
            return steps
        index = game.to_act()
        assert index is not None
        seat = session.seat_of(index)
        action = ai.choose_action(game, index, "easy", rng)
        out = await core.handle(cmd(seat.user_id, typed(action)))
        assert not errors(out), (typed(action), errors(out))
        steps += 1
    raise AssertionError("the match did not end")
