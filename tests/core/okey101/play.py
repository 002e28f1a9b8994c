"""A player of the 101 table tests: the stand-in computer's moves (`games.okey101.ai`) typed as
commands, as a person would type them, until the match is over; a one-person match against
computer players."""

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


async def solo_match(core: Core, community: str = "g1", seed: int = 7) -> None:
    """Ayşe opens a one-round 101 match in `community` with three `easy` computer players and
    plays it out (her moves the stand-in computer's, typed)."""

    def say(line: str):
        return core.handle(cmd("ayse", line, community=community))

    assert not errors(await say("/okey start 101 1 10"))
    for _ in range(3):
        assert not errors(await say("/okey addbot easy"))
    assert not errors(await say("/okey begin"))
    rng = random.Random(seed)
    while live(core).session.running():
        game = live(core).session.game101
        assert not errors(
            await say(okey101_line(ai.choose_action(game, game.to_act(), "easy", rng)))
        )
