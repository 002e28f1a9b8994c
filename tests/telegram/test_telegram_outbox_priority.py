"""The Telegram group outbox under a member's flood (issue 25): play goes before answers,
identical answers are merged, each chat's queue is bounded."""

from __future__ import annotations

import asyncio
import logging

from bot.adapters.telegram.outbox import Outbox, Priority
from bot.core.messages import Command, Outgoing, OutKind
from testkit.fakes.telegram_harness import ScriptedCore, telegram_bot

GROUP = -100700
AYSE = 11


def recorder(done: list[str], name: str, gate: asyncio.Event | None = None):
    async def run() -> None:
        if gate is not None:
            await gate.wait()
        done.append(name)

    return run


async def test_table_edit_overtakes_waiting_answers():
    outbox, done, gate = Outbox(), [], asyncio.Event()
    outbox.post(1, recorder(done, "answer 0", gate), priority=Priority.ANSWER)  # in flight
    await asyncio.sleep(0)
    for i in range(1, 4):
        outbox.post(1, recorder(done, f"answer {i}"), priority=Priority.ANSWER)
    outbox.post(1, recorder(done, "news"))
    outbox.post(1, recorder(done, "table v1"), key="t1")
    outbox.post(1, recorder(done, "table v2"), key="t1")
    gate.set()
    await outbox.drain(5)
    assert done == ["answer 0", "news", "table v2", "answer 1", "answer 2", "answer 3"]


async def test_identical_answers_wait_once():
    outbox, done, gate = Outbox(), [], asyncio.Event()
    outbox.post(1, recorder(done, "busy", gate))
    await asyncio.sleep(0)
    for _ in range(20):
        outbox.post(1, recorder(done, "help"), priority=Priority.ANSWER, same="help text")
    outbox.post(1, recorder(done, "board"), priority=Priority.ANSWER, same="board text")
    assert outbox.waiting(1) == 2
    gate.set()
    await outbox.drain(5)
    assert done == ["busy", "help", "board"]


async def test_each_chat_queue_is_bounded_and_drops_answers_first(caplog):
    outbox, done, gate = Outbox(max_queue=5), [], asyncio.Event()
    outbox.post(1, recorder(done, "busy", gate))
    await asyncio.sleep(0)
    outbox.post(1, recorder(done, "table"), key="t1")
    outbox.post(1, recorder(done, "prompt"))
    with caplog.at_level(logging.WARNING, logger="bot.telegram"):
        for i in range(10):
            outbox.post(1, recorder(done, f"secret answer {i}"), priority=Priority.ANSWER)
    assert outbox.waiting(1) == 5
    dropped = [r.getMessage() for r in caplog.records if "group_job_dropped" in r.getMessage()]
    assert len(dropped) == 7 and all("priority=answer" in line for line in dropped)
    assert not any("secret" in r.getMessage() for r in caplog.records)  # never the content
    gate.set()
    await outbox.drain(5)
    assert done == ["busy", "table", "prompt", "secret answer 7", "secret answer 8",
                    "secret answer 9"]  # fmt: skip


async def test_a_full_queue_of_play_drops_its_oldest():
    outbox, done, gate = Outbox(max_queue=3), [], asyncio.Event()
    outbox.post(1, recorder(done, "busy", gate))
    await asyncio.sleep(0)
    for i in range(5):
        outbox.post(1, recorder(done, f"news {i}"))
    gate.set()
    await outbox.drain(5)
    assert done == ["busy", "news 2", "news 3", "news 4"]


def table(text: str) -> Outgoing:
    return Outgoing(OutKind.EDIT_TABLE, text, str(GROUP), table_id="t1")


async def test_the_table_edit_overtakes_queued_answers_through_the_bot_api():
    """A member's `/help` answers wait in the group's outbox; the table's edit goes first, and
    the identical answers become one message."""
    core = ScriptedCore()
    core.on_command["help"] = lambda c: [Outgoing(OutKind.PUBLIC, "Commands: ...", c.channel_id)]
    async with telegram_bot(core) as (server, bot):
        ayse = server.user(AYSE, "Ayşe", "en")
        await bot.adapter.deliver([table("v0")])
        await bot.settle()
        server.gates[GROUP] = asyncio.Event()  # the group's budget is spent: calls wait
        start = len(server.calls)
        await bot.adapter.deliver([table("v1")])
        await server.wait_for("editMessageText")  # v1 is in flight
        for _ in range(5):
            await bot.feed(server.message_update(server.group(GROUP), ayse, "/help"), False)
        await bot.adapter.deliver([table("v2")])
        server.gates[GROUP].set()
        await bot.settle()
        written = [c.params["text"] for c in server.calls[start:] if c.chat_id == GROUP]
        assert written == ["v1", "v2", "Commands: ..."]
        assert all(isinstance(c, Command) for c in core.commands) and len(core.commands) == 5


def test_a_batch_sends_a_repeated_identical_answer_once():
    from bot.adapters.batch import coalesce

    answer = Outgoing(OutKind.PUBLIC, "Commands: ...", str(GROUP))
    refusal = Outgoing(OutKind.ERROR, "No.", user_id="11")
    news = Outgoing(OutKind.PUBLIC, "Hand 2 starts", str(GROUP), table_id="t1")
    batch = [answer, refusal, answer, news, refusal, news, table("v1")]
    assert coalesce(batch) == [answer, refusal, news, news, table("v1")]


async def test_discord_lanes_put_the_table_first_merge_answers_and_stay_bounded(caplog):
    from bot.adapters.discord.outbox import Lanes
    from bot.adapters.discord.outbox import Priority as LanePriority

    lanes, done, gate = Lanes(max_queue=4), [], asyncio.Event()
    lane = ("channel", 5)
    lanes.put(lane, recorder(done, "busy", gate))
    await asyncio.sleep(0)
    for i in range(3):
        lanes.put(lane, recorder(done, "help"), priority=LanePriority.ANSWER, same="help")
        lanes.put(lane, recorder(done, f"verify {i}"), priority=LanePriority.ANSWER)
    lanes.put(lane, recorder(done, "table"))
    lanes.put(lane, recorder(done, "news"))
    with caplog.at_level(logging.WARNING, logger="bot.discord.outbox"):
        lanes.put(lane, recorder(done, "more news"))
    assert lanes.waiting(lane) == 4
    assert "outgoing_dropped" in caplog.text and "priority=answer" in caplog.text
    gate.set()
    await lanes.settle()
    assert done == ["busy", "table", "news", "more news", "verify 2"]


async def test_a_dropped_job_is_told_so():
    outbox, done, gate, told = Outbox(max_queue=1), [], asyncio.Event(), []
    outbox.post(1, recorder(done, "busy", gate))
    await asyncio.sleep(0)
    outbox.post(
        1, recorder(done, "reply"), priority=Priority.ANSWER, dropped=lambda: told.append(1)
    )
    outbox.post(1, recorder(done, "table"), key="t1")
    assert told == [1]
    gate.set()
    await outbox.drain(5)
    assert done == ["busy", "table"]
