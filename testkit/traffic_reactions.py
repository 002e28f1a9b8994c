"""The traffic benchmark's reactions (issue 37): while a table of four plays, its players send
reactions at a steady rate through their platform, as people do: each opens the reactions once
(the `😀` under the table message's turn buttons: a private picker) and then presses reactions
in it, round robin. Each press is a task of its own (a person does not wait for the previous
one to be answered), timed like every press of the game (`Traffic.answers`); the core counts
the reactions it took (`Core.watch_reactions`), the refused ones are the budget's."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from bot.core.reactions import REACTIONS
from testkit.traffic_play import loop_time

PICKER_TIMEOUT = 30.0


@dataclass
class Flow:
    """What the flow did: pickers opened, reactions pressed, taken by the core, refused (by the
    budget)."""

    opened: int = 0  # pickers opened (one press of `😀` each)
    sent: int = 0
    taken: int = 0
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)

    @property
    def refused(self) -> int:
        return self.sent - self.taken


async def _pickers(surface: Any, users: list[Any]) -> dict[str, Any]:
    """Each player presses `😀` on the table message once: (user id -> how to press a reaction
    in the private picker that opened)."""
    out: dict[str, Any] = {}
    for user in users:
        deadline = loop_time() + PICKER_TIMEOUT
        while loop_time() < deadline:
            opened = await surface.open_reactions(user)
            if opened is not None:
                out[surface.user_id(user)] = opened
                break
            await asyncio.sleep(0.5)  # no turn buttons just now (between two hands)
    return out


async def flow(surface: Any, core: Any, per_second: float, hands: int, counts: Flow) -> None:
    """Reactions at `per_second` from every seated person, round robin, while the game's first
    `hands` hands are played."""
    # from the game's first move on: opening and seating wait for a quiet chat, which a flow
    # of reactions never leaves it
    while (session := surface.session()) is None or surface.traffic.human_moves < 1:
        await asyncio.sleep(0.1)
    last_hand = session.hand_no + hands
    stop = core.watch_reactions(lambda *_told: _taken(counts))
    try:
        seated = [s.user_id for s in session.seats if not s.bot]
        users = [surface.users[user_id] for user_id in seated]
        pickers = await _pickers(surface, users)
        counts.opened = len(pickers)
        order = [user_id for user_id in seated if user_id in pickers]
        k = 0
        while order and (session := surface.session()) is not None and session.hand_no < last_hand:
            user_id = order[k % len(order)]
            reaction = REACTIONS[k % len(REACTIONS)]
            task = asyncio.create_task(
                surface.react(surface.users[user_id], pickers[user_id], reaction)
            )
            counts.tasks.add(task)
            task.add_done_callback(counts.tasks.discard)
            counts.sent += 1
            k += 1
            await asyncio.sleep(1 / per_second)
        await asyncio.gather(*list(counts.tasks), return_exceptions=True)
    finally:
        stop()


def _taken(counts: Flow) -> None:
    counts.taken += 1
