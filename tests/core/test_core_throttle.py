"""One member cannot flood a chat (issue 25): the command budget per user and chat, the press
budget, and answers that concern the asker alone going private where a table plays."""

from __future__ import annotations

import pytest

from bot.core.messages import OutKind, Press
from bot.core.throttle import Throttle, Verdict
from storage import Store, wallet
from testkit.helpers import Clock, cmd, make_core


@pytest.fixture
async def store(tmp_path):
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/bot.db")
    yield store
    await store.close()


def test_bucket_refuses_the_sixth_once_then_silence_and_refills():
    now = [0.0]
    budget = Throttle(5, 0.5, lambda: now[0])
    assert [budget.take("u") for _ in range(5)] == [Verdict.OK] * 5
    assert budget.take("u") is Verdict.WARN
    assert [budget.take("u") for _ in range(10)] == [Verdict.SILENT] * 10
    assert budget.take("other") is Verdict.OK  # each key has its own bucket
    now[0] += 1.9  # not one whole command back yet
    assert budget.take("u") is Verdict.SILENT
    now[0] += 0.2
    assert budget.take("u") is Verdict.OK
    assert budget.take("u") is Verdict.WARN  # empty again: one more warning, then silence
    assert budget.take("u") is Verdict.SILENT
    now[0] += 10.0  # a full bucket again
    assert [budget.take("u") for _ in range(5)] == [Verdict.OK] * 5


def test_idle_buckets_are_forgotten_and_memory_is_capped():
    now = [0.0]
    budget = Throttle(5, 0.5, lambda: now[0], max_buckets=100)
    for user in range(50):
        budget.take(user)
    assert len(budget) == 50
    now[0] += budget.refill_seconds  # every bucket has refilled: as good as new
    budget.take("late")
    assert len(budget) == 1
    for user in range(1_000):
        budget.take(user)
    assert len(budget) <= 100


async def test_sixth_command_gets_one_slow_down_then_silence_until_refilled(store):
    clock = Clock()
    core = make_core(store, clock=clock, command_burst=5, command_refill_seconds=2.0)
    for _ in range(5):
        out = await core.handle(cmd("ayse", "/help"))
        assert out[0].kind is OutKind.PUBLIC
    sixth = await core.handle(cmd("ayse", "/help"))
    assert [item.kind for item in sixth] == [OutKind.ERROR]
    assert sixth[0].user_id == "ayse" and "Slow down" in sixth[0].text
    for _ in range(20):
        assert await core.handle(cmd("ayse", "/help")) == []
    # another member and another chat are not held up
    assert (await core.handle(cmd("mehmet", "/help")))[0].kind is OutKind.PUBLIC
    assert (await core.handle(cmd("ayse", "/help", channel="c2")))[0].kind is OutKind.PUBLIC
    clock.advance(2.0)
    assert (await core.handle(cmd("ayse", "/help")))[0].kind is OutKind.PUBLIC


async def test_refused_commands_change_nothing_and_speak_the_users_language(store):
    clock = Clock()
    core = make_core(store, clock=clock, command_burst=5, command_refill_seconds=2.0)
    await core.handle(cmd("ayse", "/lang tr"))
    for _ in range(4):
        await core.handle(cmd("ayse", "/balance"))
    player = await store.player("test", "ayse", "Ayse")
    before = await store.balance(wallet(player.id))
    refused = await core.handle(cmd("ayse", "/daily", locale="en"))
    assert refused[0].kind is OutKind.ERROR and "yavaşla" in refused[0].text
    assert await store.balance(wallet(player.id)) == before  # /daily never ran
    clock.advance(2.0)
    ran = await core.handle(cmd("ayse", "/daily"))
    assert ran[0].kind is OutKind.PRIVATE
    assert await store.balance(wallet(player.id)) > before


async def test_no_budget_unless_configured(store):
    core = make_core(store)
    for _ in range(30):
        assert (await core.handle(cmd("ayse", "/help")))[0].kind is OutKind.PUBLIC


async def test_press_flood_is_refused_privately(store):
    core = make_core(store, press_burst=3, press_refill_seconds=1.0)
    press = Press("test", "c1", "ayse", "Ayse", "t1", "fold", "n0", locale="en")
    answers = [await core.press(press) for _ in range(6)]
    assert all(a[0].kind is OutKind.ERROR and a[0].user_id == "ayse" for a in answers)
    assert all("Slow down" not in a[0].text for a in answers[:3])
    # a press is always answered (its pop-up): beyond the budget the answer is the slow-down
    assert all("Slow down" in a[0].text for a in answers[3:])


async def test_answers_to_the_asker_go_private_where_a_table_plays(store):
    core = make_core(store)
    quiet = await core.handle(cmd("ayse", "/leaderboard"))
    assert quiet[0].kind is OutKind.PUBLIC
    await core.handle(cmd("ayse", "/poker open turkish 10"))
    for line in ("/help", "/leaderboard", "/verify 1-1"):
        out = await core.handle(cmd("mehmet", line))
        assert out and all(item.kind is not OutKind.PUBLIC for item in out), line
        assert all(item.user_id == "mehmet" for item in out)
    elsewhere = await core.handle(cmd("mehmet", "/help", channel="c2"))
    assert elsewhere[0].kind is OutKind.PUBLIC
