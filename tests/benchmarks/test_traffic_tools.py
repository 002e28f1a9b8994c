"""The traffic benchmark's tools: the virtual-time loop skips idle waits but never jumps over
work still in flight (a thread, a database call), the fake Discord REST API's channel rate limit
as discord.py meets it, the counting helpers, and one short game per platform that is fully
answered and counted."""

from __future__ import annotations

import asyncio
import time

import aiosqlite
import discord
import pytest
from discord.http import Route

from testkit import virtual_time
from testkit.fakes.discord_rest_server import FakeDiscordRest
from testkit.traffic_stats import percentile, worst_window

CHANNEL = 500_000_000_000_000_123


@pytest.fixture
def counted(monkeypatch):
    """aiosqlite and PTB's requests counted as outside work, for this test only."""
    for owner, name, wrapped in virtual_time.outside_work_wrappers():
        monkeypatch.setattr(owner, name, wrapped)


def run_virtual(main):
    """Run a coroutine function on a fresh virtual-time loop; (its result, wall seconds)."""
    loop = virtual_time.VirtualTimeLoop()
    started = time.monotonic()
    try:
        return loop.run_until_complete(main()), time.monotonic() - started
    finally:
        loop.close()


def test_an_idle_hour_passes_at_once():
    async def main():
        loop = asyncio.get_running_loop()
        start = loop.time()
        await asyncio.sleep(3600)
        return loop.time() - start

    elapsed, wall = run_virtual(main)
    assert 3600 <= elapsed < 3605
    assert wall < 3


def run_beside_a_timer(work):
    """Run `work()` while a timer 50 s ahead is pending; whether the timer fired before the
    work was done, and the virtual seconds the work took."""

    async def main():
        loop = asyncio.get_running_loop()
        fired = []
        loop.call_later(50, fired.append, True)
        start = loop.time()
        await work()
        return bool(fired), loop.time() - start

    return run_virtual(main)[0]


def test_time_does_not_jump_over_a_thread():
    async def work():
        await asyncio.get_running_loop().run_in_executor(None, time.sleep, 0.2)

    fired, took = run_beside_a_timer(work)
    assert not fired and took < 5


def test_time_does_not_jump_over_a_database_call(counted):
    async def work():
        async with aiosqlite.connect(":memory:") as db:
            await db.create_function("slow", 0, lambda: time.sleep(0.2) or 1)
            async with db.execute("select slow()") as cursor:
                assert await cursor.fetchall() == [(1,)]

    fired, took = run_beside_a_timer(work)
    assert not fired and took < 5


def test_discord_py_waits_for_the_channel_bucket_of_the_fake_rest_api(counted):
    async def main():
        loop = asyncio.get_running_loop()
        rest = FakeDiscordRest()
        base, Route.BASE = Route.BASE, await rest.start()
        client = discord.Client(intents=discord.Intents.none())
        try:
            async with client:
                await client.http.static_login("fake-token")
                channel = client.get_partial_messageable(CHANNEL)
                start, returned = loop.time(), []
                for n in range(11):
                    message = await channel.send(f"post {n}")
                    returned.append(loop.time() - start)
                await channel.get_partial_message(message.id).edit(content="edited")
                await channel.get_partial_message(message.id).delete()
        finally:
            Route.BASE = base
            await rest.stop()
        return returned, rest

    (returned, rest), _wall = run_virtual(main)
    posts = [c.at - rest.calls[0].at for c in rest.calls if c.kind == "post"]
    assert max(posts[:5]) < 1 and posts[5] - posts[0] > 4.99 and posts[10] - posts[5] > 4.99
    assert posts[10] < 11
    assert rest.rate_limited == 0  # discord.py read the headers and waited
    assert returned[4] >= 5  # the post that empties the bucket returns when it is refilled
    assert [c.kind for c in rest.calls if c.channel_id == CHANNEL] == ["post"] * 11 + [
        "edit",
        "delete",
    ]
    assert [m["content"] for m in rest.channel_messages(CHANNEL)][-1] == "post 9"


def test_worst_window_and_percentile():
    assert worst_window([], 5.0) == 0
    assert worst_window([0, 1, 4.9, 5, 9.8, 20], 5.0) == 3
    assert percentile([], 0.99) != percentile([], 0.99)  # nan
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert percentile([float(n) for n in range(1, 101)], 0.99) == 99.0


@pytest.mark.parametrize("platform", ["telegram", "discord"])
def test_one_poker_hand_is_played_answered_and_counted(platform, counted):
    from benchmarks.bench_traffic import one_game
    from testkit.traffic_play import GameSpec

    spec = GameSpec("acik", humans=4, bots=0, hands=1)
    traffic, _wall = run_virtual(lambda: one_game(platform, spec, seed=2))
    assert traffic.hands == 1 and traffic.human_moves >= 4
    assert traffic.unanswered == 0 and len(traffic.answers) == traffic.presses
    assert traffic.group_calls >= traffic.new_group >= 1
    assert traffic.private_calls >= 4  # each player's down card


@pytest.mark.parametrize("platform", ["telegram", "discord"])
def test_reactions_flow_beside_a_hand_and_every_press_is_answered(platform, counted):
    from benchmarks.bench_traffic import reacting_game

    (traffic, flow), _wall = run_virtual(
        lambda: reacting_game(platform, seed=2, hands=1, reacting=True, per_second=4.0)
    )
    assert traffic.hands == 1 and traffic.human_moves >= 4
    assert traffic.unanswered == 0 and len(traffic.answers) == traffic.presses
    assert flow.sent > 12 and flow.taken >= 4  # each player's budget at least
    assert flow.refused > 0  # 4 a second from three people: the budget refuses some
    # the presses: the game's, each person's picker and every reaction, each answered
    assert flow.opened == 3  # the table's three people (the fourth seat is a computer)
    assert traffic.presses >= flow.sent + flow.opened + traffic.human_moves
