"""Several cores on one database, as several bot processes would run: each `Core` has its own
`Store` (on SQLite a file shared by all, on PostgreSQL the test database), the clock is shared
and moved by hand, and requests go to a core the test's seeded random picks."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field

from bot.core.app import Core
from bot.core.config import CoreConfig
from bot.core.messages import Command, Outgoing, OutKind, Press
from bot.core.okey.session import OkeySession
from bot.core.poker.session import PokerSession
from bot.core.table.fairness import SeededSource
from games.okey import auto_action
from storage import Store
from testkit.drive import ai_move
from testkit.helpers import Clock, cmd, errors

TURN_SECONDS = 60


@dataclass
class Cluster:
    """`n` cores on the database at `url`; `alive` are the indexes of those still running."""

    url: str
    rng: random.Random
    n: int = 3
    clock: Clock = field(default_factory=Clock)
    cores: list[Core] = field(default_factory=list)
    alive: list[int] = field(default_factory=list)
    accepted: list[int] = field(default_factory=list)  # player ids of accepted steps, in order

    async def start(self) -> Cluster:
        """Open every core's store."""
        for index in range(self.n):
            store = await Store.open(self.url)  # at head already: a no-op
            # players time out at random here, so the computer may stand in for every person
            # for a few hands: no idle close by quiet hands (tests/core/test_core_idle.py)
            config = CoreConfig(default_locale="en", turn_seconds=TURN_SECONDS, idle_close_hands=0)
            core = Core(store, config, clock=self.clock, seeds=SeededSource(f"core{index}"))
            self.cores.append(core)
            self.alive.append(index)
        return self

    async def close(self) -> None:
        """Close the stores of the cores still running."""
        for index in self.alive:
            await self.cores[index].store.close()
        self.alive = []

    @property
    def store(self) -> Store:
        """A running core's store, for the test's own reads."""
        return self.cores[self.alive[0]].store

    def pick(self) -> Core:
        """A running core, chosen at random."""
        return self.cores[self.rng.choice(self.alive)]

    async def drop(self, index: int, *, after_claim: bool = False) -> None:
        """Stop core `index` for good (its store is closed and never used again); with
        `after_claim` it dies right after claiming the due tables, before playing any."""
        if after_claim:
            await self.cores[index].store.claim_due(self.clock.now)
        self.alive.remove(index)
        await self.cores[index].store.close()

    async def player_id(self, user: str) -> int:
        """The player id of a test user."""
        record = await self.store.find_player("test", user)
        assert record is not None
        return record.id

    async def send(self, request: Command | Press, *, step: bool = True) -> list[Outgoing]:
        """Send a command or press to a random core; `step`: when accepted it is one action."""
        core = self.pick()
        out = await (core.press(request) if isinstance(request, Press) else core.handle(request))
        if step and not errors(out):
            self.accepted.append(await self.player_id(request.user_id))
        return out

    async def session(self, channel: str = "c1") -> PokerSession | OkeySession | None:
        """The channel's table as a random core sees it now (brought up to date from the store)."""
        live = await self.pick().tables.find("test", channel)
        return None if live is None else live.session

    async def tick_all(self) -> list[list[Outgoing]]:
        """Tick every running core at once."""
        now = self.clock.now
        return list(await asyncio.gather(*(self.cores[i].tick(now) for i in self.alive)))


def human_steps(actions: list) -> list[int]:
    """Player ids of the action log entries people made (not computer moves, time-outs or the
    timers' closes, which have no player)."""
    return [
        a.player_id
        for a in actions
        if a.player_id is not None and not a.action.get("auto") and not a.action.get("timeout")
    ]


def timeouts(actions: list) -> int:
    """How many time-outs the action log holds."""
    return sum(1 for a in actions if a.action.get("timeout"))


def announced(outs: list[list[Outgoing]], text: str) -> int:
    """How many public messages of all the outputs contain `text`."""
    return sum(1 for out in outs for o in out if o.kind is OutKind.PUBLIC and text in o.text)


def poker_request(session: PokerSession, as_press: bool) -> Command | Press:
    """The computer's move for the seat to act, as a typed command or a button press."""
    user, line = ai_move(session)
    if not as_press:
        return cmd(user, line)
    kind, *args = line.split()[1:]
    if kind == "pat":
        kind = "draw"
    return button_press(session, user, kind, tuple(args))


def okey_request(session: OkeySession, as_press: bool) -> Command | Press:
    """The Okey computer's next move (a take, discard or finish) for the seat to act."""
    index = session.actor()
    assert index is not None and session.round is not None
    user = session.seats[index].user_id
    action = auto_action(session.round, session.round.to_act())
    if action.kind == "take":
        if not as_press:
            return cmd(user, f"/okey take {action.source}")
        return button_press(session, user, "ts" if action.source == "stock" else "td", ())
    tile = action.cards[0]
    if not as_press:
        return cmd(user, f"/okey {action.kind} {tile}")
    return button_press(session, user, f"{action.kind[0]}.{tile}", ())


def button_press(session, user: str, action: str, args: tuple[str, ...]) -> Press:
    """A press of the turn button `action` as drawn in the table's current state."""
    return Press(
        "test", "c1", user, user.capitalize(), str(session.table_id), action, session.nonce, args
    )
