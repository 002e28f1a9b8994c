"""Whole games on three cores sharing one database (three bot processes): every command and
press goes to a random core, timers are ticked on all cores at once, one core dies mid-play.
Checked: every accepted step is in the action log once and nothing else is, each time-out happens
exactly once, the chips add up (the store's audit), and the survivors carry on."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

import pytest

from bot.core.messages import Command, Press
from bot.core.table.service import CLAIM_LEASE
from storage import escrow
from testkit.helpers import cmd, errors
from testkit.scale import (
    TURN_SECONDS,
    Cluster,
    announced,
    human_steps,
    okey_request,
    poker_request,
    timeouts,
)

TIMED_OUT = "took too long"
PLAYERS = ("ayse", "mehmet", "cem")


class Referee:
    """Plays a table through a cluster and keeps count of what must be in the log."""

    def __init__(self, cluster: Cluster, request: Callable[..., Command | Press]) -> None:
        self.cluster = cluster
        self.request = request
        self.rng = cluster.rng
        self.expected_timeouts = 0
        self.table_id = 0

    async def log(self) -> list:
        return await self.cluster.store.actions(self.table_id)

    async def move(self, session) -> None:
        """The player to act moves, by command or button, through a random core: a legal move
        is accepted whichever core gets it and whatever the others did before."""
        request = self.request(session, self.rng.random() < 0.5)
        out = await self.cluster.send(request)
        assert not errors(out), (request, errors(out))

    async def double_press(self, session) -> None:
        """The same button reaches two cores at once (a double click across processes): it is
        applied once, the other press is refused as stale."""
        request = self.request(session, True)
        first, second = self.rng.sample(self.cluster.alive, 2)
        outs = await asyncio.gather(
            self.cluster.cores[first].press(request), self.cluster.cores[second].press(request)
        )
        refused = [errors(out) for out in outs if errors(out)]
        assert len(refused) == 1, outs
        assert refused[0] == ["That button is from an earlier turn; use the latest table message."]
        self.cluster.accepted.append(await self.cluster.player_id(request.user_id))

    async def time_out(self, session, *, crash: int | None = None) -> None:
        """The player to act waits too long; all cores tick at once and exactly one of them
        times the player out. With `crash`, that core claims the table first and dies: the
        others take the table over once the claim's lease has passed."""
        due = session.deadline is not None
        before = timeouts(await self.log())
        self.cluster.clock.advance(TURN_SECONDS + 1)
        if crash is not None:
            await self.cluster.drop(crash, after_claim=True)
            assert announced(await self.cluster.tick_all(), TIMED_OUT) == 0  # still claimed
            assert timeouts(await self.log()) == before
            self.cluster.clock.advance(CLAIM_LEASE.total_seconds())
        outs = await self.cluster.tick_all()
        self.expected_timeouts += due
        assert announced(outs, TIMED_OUT) == due
        assert timeouts(await self.log()) == before + due
        again = await self.cluster.tick_all()  # nothing is due twice
        assert announced(again, TIMED_OUT) == 0

    async def check_books(self) -> None:
        """The log holds exactly the accepted steps (plus computer moves and time-outs) and the
        chips add up."""
        log = await self.log()
        assert human_steps(log) == self.cluster.accepted
        assert timeouts(log) == self.expected_timeouts
        assert [a.seq for a in log] == list(range(1, len(log) + 1))
        assert await self.cluster.store.audit() == []


async def seat_players(cluster: Cluster) -> None:
    for user in PLAYERS:
        assert not errors(await cluster.send(cmd(user, "/balance"), step=False))


async def play(referee: Referee, moves: int, drop_at: int) -> None:
    """`moves` turns of play with random routing, double presses and time-outs; core 0 dies at
    turn `drop_at` (claiming a due table just before)."""
    cluster = referee.cluster
    for turn in range(moves):
        session = await cluster.session()
        if session is None or session.actor() is None:
            return
        roll = referee.rng.random()
        if turn == drop_at:
            await referee.time_out(session, crash=0)
        elif roll < 0.08:
            await referee.time_out(session)
        elif roll < 0.2:
            await referee.double_press(session)
        else:
            await referee.move(session)


@pytest.mark.parametrize("seed", [1, 2])
async def test_turkish_poker_on_three_cores(db_url: str, seed: int) -> None:
    cluster = await Cluster(db_url, random.Random(seed)).start()
    referee = Referee(cluster, poker_request)
    try:
        await seat_players(cluster)
        assert not errors(await cluster.send(cmd("ayse", "/poker open turkish 10"), step=False))
        for user in PLAYERS:
            assert not errors(await cluster.send(cmd(user, "/poker join 200")))
        assert not errors(await cluster.send(cmd("ayse", "/poker start")))
        referee.table_id = (await cluster.session()).table_id
        await play(referee, moves=90, drop_at=30)
        assert cluster.alive == [1, 2]
        # Everyone still seated stands up and the table closes; a player away for `away` hands
        # (docs/commands.md, "A kept seat") was stood up already and is told so.
        seated = {seat.user_id for seat in (await cluster.session()).seats}
        for user in PLAYERS:
            out = await cluster.send(cmd(user, "/poker leave"))
            assert errors(out) == ([] if user in seated else ["You are not sitting at this table."])
        assert await cluster.session() is None
        assert await cluster.store.balance(escrow(referee.table_id)) == 0
        await referee.check_books()
        assert referee.expected_timeouts >= 1
    finally:
        await cluster.close()


@pytest.mark.parametrize("seed", [3])
async def test_okey_on_three_cores(db_url: str, seed: int) -> None:
    cluster = await Cluster(db_url, random.Random(seed)).start()
    referee = Referee(cluster, okey_request)
    try:
        await seat_players(cluster)
        assert not errors(await cluster.send(cmd("ayse", "/okey start 1 10")))
        for user in PLAYERS[1:]:
            assert not errors(await cluster.send(cmd(user, "/okey join")))
        assert not errors(await cluster.send(cmd("ayse", "/okey begin")))
        referee.table_id = (await cluster.session()).table_id
        await play(referee, moves=400, drop_at=40)
        session = await cluster.session()
        assert session is not None and session.phase == "waiting"  # the match is over
        # nobody starts another match: exactly one surviving core closes the table
        cluster.clock.advance(901)
        outs = await cluster.tick_all()
        assert sum(1 for out in outs if out) == 1
        assert await cluster.session() is None
        assert await cluster.store.balance(escrow(referee.table_id)) == 0
        await referee.check_books()
        log = await referee.log()
        assert [a.action["kind"] for a in log if a.player_id is None] == ["close"]
    finally:
        await cluster.close()
