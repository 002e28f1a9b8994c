"""A player of the 101 table tests: the stand-in computer's moves (`games.okey101.ai`) typed as
commands, as a person would type them, until the match is over."""

from __future__ import annotations

import random

from bot.core.app import Core
from games.okey101 import ai
from testkit.helpers import cmd, errors
from testkit.hidden import okey101_line
from tests.core.okey101.rig import live


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
        out = await core.handle(cmd(seat.user_id, okey101_line(action)))
        assert not errors(out), (okey101_line(action), errors(out))
        steps += 1
    raise AssertionError("the match did not end")
