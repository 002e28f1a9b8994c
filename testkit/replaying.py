"""Played tables for the replay tests: random hands of a game on a real Store, and what each
player was entitled to see of each hand, recorded while it was played (independently of the
replay code): the cards or tiles each player held at any moment, and the channel's text."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bot.core.app import Core
from bot.core.messages import OutKind
from storage import Store
from testkit.helpers import cmd, make_core
from testkit.hidden import random_move, table_session

USERS = ("ayse", "bora", "cem", "deniz")
SPECTATOR = "zed"


@dataclass
class Played:
    """A table played to the end of some hands: per hand id, each user's held cards (notation) and the channel text seen while the hand ran; Okey: each round's penalties."""

    core: Core
    store: Store
    users: tuple[str, ...]
    held: dict[str, dict[str, set[str]]] = field(default_factory=dict)
    public: dict[str, list[str]] = field(default_factory=dict)
    finished: list[str] = field(default_factory=list)
    penalties: dict[str, list[int]] = field(default_factory=dict)


def _holdings(session: Any) -> tuple[str, dict[str, set[str]]] | None:
    """The running hand's id and the cards or tiles each user holds in it now."""
    if session is None:
        return None
    out: dict[str, set[str]] = {}
    if session.group == "okey":
        game = session.round
        if game is None:
            return None
        for index in range(len(session.staked)):
            rack = game.view(index)["hand"]
            out[session.seat_of(index).user_id] = set(rack)
        return session.hand_id(), out
    if not session.running():
        return None
    for index in range(len(session.in_hand)):
        view = session.engine.view(index)
        secret = [view["down"]] if "down" in view else view["hand"]
        cards = {c for c in secret if c}
        out[session.seat_of_engine(index).user_id] = cards
    return session.hand_id(), out


async def play(game: str, players: int, seed: int, hands: int) -> Played:
    """Open a table of `game` with `players` users and play `hands` hands or rounds by random
    legal moves (fewer if the table stops)."""
    store = await Store.open("sqlite+aiosqlite://")
    core = make_core(store, seed=f"replay-{seed}")
    users = USERS[:players]
    if game == "okey":
        opening = ["/okey start 3", *["/okey join"] * (players - 1), "/okey begin"]
    else:
        opening = [f"/poker open {game} 10", *["/poker join 300"] * players, "/poker start"]
    senders = [users[0], *users[1:players]] if game == "okey" else [users[0], *users]
    senders = [*senders, users[0]]
    result = Played(core, store, users)
    for user, line in zip(senders, opening, strict=True):
        out = await core.handle(cmd(user, line))
        assert not [o for o in out if o.kind is OutKind.ERROR], (line, out)
    rng = random.Random(seed)
    for _ in range(2000):
        session = table_session(core)
        now = _holdings(session)
        if now is None or len(result.finished) >= hands:
            break
        hand_id, held = now
        mine = result.held.setdefault(hand_id, {})
        for user, cards in held.items():
            mine.setdefault(user, set()).update(cards)
        match = getattr(session, "match", None)
        rounds = len(match.history) if match is not None else 0
        user, line = random_move(session, rng)
        out = await core.handle(cmd(user, line))
        assert not [o for o in out if o.kind is OutKind.ERROR], (line, out)
        channel = [o.text for o in out if o.kind in (OutKind.PUBLIC, OutKind.EDIT_TABLE)]
        result.public.setdefault(hand_id, []).extend(channel)
        after = _holdings(table_session(core))
        if after is not None:
            result.public.setdefault(after[0], []).extend(channel)
        if match is not None and len(match.history) > rounds:
            result.penalties[hand_id] = list(match.history[-1]["penalties"])
        if after is None or after[0] != hand_id:
            result.finished.append(hand_id)
    return result
