"""People at a chat table, for the traffic benchmark: they wait until the table (or their private
message) shows their turn, think, and press one of the buttons they see. The platform part (what
a player sees, how a press travels) is a `Surface`; the choice of move is the same everywhere.

A player reads only whose turn it is from the core (what a person reads off the table message) and
the turn nonce, to know when the buttons they see are the current ones; every action goes through
the platform (buttons, the amount path, the draw picker), so the figures hold whatever the texts.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass
from typing import Any, Protocol

from testkit.traffic_stats import Traffic

POKER_PREFERENCE = ("call", "check", "open", "pass", "pat", "draw", "bet", "raise", "fold")
THINK = (1.0, 3.0)  # seconds a person takes to choose a move
QUICK = (0.4, 1.2)  # seconds for a follow-up: an amount, a card in the draw picker
SEE_TIMEOUT = 180.0  # give up waiting for the table to show a turn after this long
POLL = 0.2  # how often a waiting player looks again
NUDGE_AFTER = 10.0  # seconds without my buttons before I ask to see my hand again


@dataclass(frozen=True)
class GameSpec:
    """One benchmark game: which game, how many human and computer seats, how many hands."""

    game: str  # "okey" | "turkish" | "acik"
    humans: int
    bots: int
    hands: int  # hands to play (poker); Okey plays one round
    speed: str = "normal"  # the table's `speed` house option (issue 37)

    @property
    def group(self) -> str:
        return "okey" if self.game == "okey" else "poker"

    @property
    def label(self) -> str:
        """The game as the report names it: `turkish`, or `turkish+relaxed` at another speed."""
        return self.game if self.speed == "normal" else f"{self.game}+{self.speed}"


@dataclass(frozen=True)
class Seen:
    """A button a player can see: its core action, and what the surface needs to press it."""

    action: str
    handle: Any


class Surface(Protocol):
    """A platform as players meet it."""

    traffic: Traffic

    async def open_table(self, spec: GameSpec) -> None:
        """Open the table, seat the players (humans and computers) and start play."""

    def session(self) -> Any:
        """The core's session of the table (read only), or None when it is closed."""

    def seen(self, user_id: str, private: bool, nonce: str) -> list[Seen]:
        """The buttons carrying `nonce` that the user sees on the table message, or with
        `private` on their own private message."""

    async def act(self, user_id: str, button: Seen, rng: random.Random) -> bool:
        """Press a button and complete it (amount, cards) like a person; False when refused."""

    async def settle(self) -> None:
        """Wait until every queued request has gone out."""


def is_reaction(action: str) -> bool:
    """True for the reactions' buttons (`r`, `r.<reaction>`): no move of the turn, so the
    players of the game never choose them (the reactions' flow presses them)."""
    return action == "r" or action.startswith("r.")


def loop_time() -> float:
    """The running loop's clock (virtual under the benchmark)."""
    return asyncio.get_running_loop().time()


async def wait_for_turn(
    surface: Surface, user_id: str, private: bool, nonce: str
) -> list[Seen] | None:
    """Wait until the user sees buttons of the current turn; None after `SEE_TIMEOUT`."""
    started = loop_time()
    nudged = False
    while loop_time() < started + SEE_TIMEOUT:
        session = surface.session()
        if session is None or session.nonce != nonce:
            return None
        buttons = surface.seen(user_id, private, nonce)
        if buttons:
            return buttons
        nudge = getattr(surface, "nudge", None)
        if not nudged and nudge is not None and loop_time() > started + NUDGE_AFTER:
            nudged = True
            await nudge(user_id)
        await asyncio.sleep(POLL)
    return None


def choose(spec: GameSpec, buttons: list[Seen], tried: set[str], rng: random.Random) -> Seen:
    """A person's pick among the buttons they see (a refused action is not tried again)."""
    fresh = [b for b in buttons if b.action not in tried] or buttons
    by_action = {b.action: b for b in fresh}
    if spec.game == "okey":
        finish = [b for b in fresh if b.action.startswith("f.")]
        if finish:
            return finish[0]
        if "ts" in by_action and rng.random() < 0.8:
            return by_action["ts"]
        discards = [b for b in fresh if b.action.startswith("d.")]
        return rng.choice(discards or fresh)
    liked = [by_action[a] for a in POKER_PREFERENCE if a in by_action]
    if liked and rng.random() < 0.75:
        return liked[0]
    return rng.choice(fresh)


async def play(surface: Surface, spec: GameSpec, rng: random.Random) -> Traffic:
    """Play the game to its end (Okey: one round; poker: `spec.hands` hands) and return the
    traffic counted by the surface, with the human moves and hands filled in."""
    traffic = surface.traffic
    started_wall, started = time.monotonic(), loop_time()
    await surface.open_table(spec)
    session = surface.session()
    first_hand = session.hand_no
    shown_at = loop_time()
    stuck = 0
    while session is not None and stuck < 5:
        if spec.game != "okey" and session.hand_no >= first_hand + spec.hands:
            break
        if spec.game == "okey" and (session.round is None or session.round.finished):
            break
        index = session.actor()
        if index is None:
            break
        user_id = session.seats[index].user_id
        nonce = session.nonce
        private = spec.game == "okey" and session.round.phase != "take"
        buttons = await wait_for_turn(surface, user_id, private, nonce)
        if buttons is None:
            stuck += 1
            session = surface.session()
            continue
        traffic.table_lag.append(loop_time() - shown_at)
        await asyncio.sleep(rng.uniform(*THINK))
        tried: set[str] = set()
        for _attempt in range(4):
            button = choose(spec, buttons, tried, rng)
            tried.add(button.action)
            if await surface.act(user_id, button, rng):
                traffic.human_moves += 1
                break
            traffic.refused += 1
            session = surface.session()
            if session is None or session.nonce != nonce:
                break
            await asyncio.sleep(rng.uniform(*QUICK))
            buttons = surface.seen(user_id, private, nonce) or buttons
        shown_at = loop_time()
        session = surface.session()
    await surface.settle()
    end = surface.session()
    if spec.game == "okey":
        traffic.hands = 1
    else:
        traffic.hands = (end.hand_no if end is not None else first_hand + spec.hands) - first_hand
    traffic.virtual_seconds = loop_time() - started
    traffic.wall_seconds = time.monotonic() - started_wall
    return traffic


async def changed(surface: Surface, nonce: str, timeout: float = 30.0) -> bool:
    """Wait (up to `timeout`) until the table's turn nonce is no longer `nonce`."""
    deadline = loop_time() + timeout
    while loop_time() < deadline:
        session = surface.session()
        if session is None or session.nonce != nonce:
            return True
        await asyncio.sleep(POLL / 4)
    return False
