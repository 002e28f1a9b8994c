"""Tournament rooms on Telegram (issue 19), through the real python-telegram-bot client against
the fake Bot API: a table's forum topic is created when the group is a forum and the bot may
manage its topics (else no room, logged once), closed after the table's last lines; and a table
in a shared room (`"<chat>#<label>"`, `"<chat>/<topic>#<label>"`) is shown in its chat (topic)
with a table message of its own, its traffic queued as that chat's."""

from __future__ import annotations

import asyncio
import logging

from bot.adapters.telegram.parsing import Place
from bot.adapters.telegram.rooms import topic_name
from bot.core.messages import Button, Outgoing, OutKind
from bot.core.table.rooms import shared_room
from testkit.fakes.telegram_harness import ManualClock, ScriptedCore, telegram_bot
from testkit.fakes.telegram_server import FakeTelegram

GROUP = -100700
AYSE = 11


def forum(rights: bool = True) -> FakeTelegram:
    """A fake Bot API where `GROUP` is a forum (and the bot manages its topics with `rights`)."""
    server = FakeTelegram(forums={GROUP})
    if rights:
        server.topic_rights.add(GROUP)
    return server


def table(text: str, channel: str, table_id: str, nonce: str = "1") -> Outgoing:
    button = Button("Check", table_id, "check", nonce)
    return Outgoing(OutKind.EDIT_TABLE, text, channel, table_id=table_id, buttons=((button,),))


def public(text: str, channel: str, table_id: str) -> Outgoing:
    return Outgoing(OutKind.PUBLIC, text, channel, table_id=table_id)


def rooms_logged(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if "rooms_unavailable" in r.getMessage()]


# --- places -------------------------------------------------------------------------------------


def test_a_shared_rooms_place_is_its_chat_and_topic_with_its_label():
    assert Place.parse(shared_room("-100", "t1")) == Place(-100, None, "t1")
    assert Place.parse(shared_room("-100/7", "t1")) == Place(-100, 7, "t1")
    for key in ("-100", "-100/7", "-100#t1", "-100/7#t1"):
        assert Place.parse(key).key == key
    assert Place(-100, 7, "t1").send_kwargs() == {"message_thread_id": 7}
    assert Place.parse("700000000000000001#t1").is_group is False  # a Discord id: no group
    assert Place.parse("abc#t1") is None


def test_topic_names_fit_telegram():
    assert topic_name(" Okey  night ") == "Okey night"
    assert len(topic_name("x" * 300)) == 128
    assert topic_name("") == "table"


# --- opening ------------------------------------------------------------------------------------


async def test_a_room_is_a_forum_topic_and_the_table_plays_in_it():
    async with telegram_bot(ScriptedCore(), server=forum()) as (server, harness):
        room = await harness.adapter.rooms.open_room("telegram", str(GROUP), "Okey night · 2")
        place = Place.parse(room)
        assert place is not None and place.chat_id == GROUP and place.thread_id is not None
        [created] = server.calls_to("createForumTopic")
        assert created.params["name"] == "Okey night · 2"
        await harness.adapter.deliver(
            [public("Round 1 starts.", room, "T2"), table("table 2", room, "T2")]
        )
        await harness.settle()
        sent = server.calls_to("sendMessage")
        assert [c.params["text"] for c in sent] == ["Round 1 starts.", "table 2"]
        assert {c.params.get("message_thread_id") for c in sent} == {place.thread_id}


async def test_a_group_that_is_no_forum_gets_no_room_and_is_logged_once(caplog):
    async with telegram_bot(ScriptedCore(), server=FakeTelegram()) as (server, harness):
        with caplog.at_level(logging.INFO, logger="bot.telegram.rooms"):
            for n in range(3):
                assert (
                    await harness.adapter.rooms.open_room("telegram", str(GROUP), f"t{n}") is None
                )
        assert server.calls_to("createForumTopic") == []
        assert len(server.calls_to("getChat")) == 1  # the answer is remembered
        assert rooms_logged(caplog) == [f"event=rooms_unavailable chat={GROUP} reason=not_a_forum"]


async def test_a_forum_without_manage_topics_gets_no_room(caplog):
    async with telegram_bot(ScriptedCore(), server=forum(rights=False)) as (server, harness):
        with caplog.at_level(logging.INFO, logger="bot.telegram.rooms"):
            assert await harness.adapter.rooms.open_room("telegram", str(GROUP), "t1") is None
        assert server.calls_to("createForumTopic") == []
        assert rooms_logged(caplog) == [
            f"event=rooms_unavailable chat={GROUP} reason=no_manage_topics"
        ]
        assert await harness.adapter.rooms.open_room("telegram", str(GROUP), "t2") is None
        await harness.settle()
        [asked] = server.calls_to("sendMessage")  # the admins are asked once, in the group
        assert asked.params["chat_id"] == GROUP and "Manage Topics" in asked.params["text"]


async def test_a_group_that_is_no_forum_is_not_asked_for_topic_rights():
    async with telegram_bot(ScriptedCore(), server=FakeTelegram()) as (server, harness):
        assert await harness.adapter.rooms.open_room("telegram", str(GROUP), "t1") is None
        await harness.settle()
        assert server.calls_to("sendMessage") == []


async def test_the_answer_is_asked_again_once_it_is_old():
    clock = ManualClock()
    async with telegram_bot(ScriptedCore(), server=forum(rights=False)) as (server, harness):
        harness.adapter.rooms.clock = clock
        assert await harness.adapter.rooms.open_room("telegram", str(GROUP), "t1") is None
        server.topic_rights.add(GROUP)  # an admin gave the bot Manage Topics
        assert await harness.adapter.rooms.open_room("telegram", str(GROUP), "t2") is None
        clock.now += 61
        assert await harness.adapter.rooms.open_room("telegram", str(GROUP), "t3") is not None


async def test_no_room_for_another_platform_or_a_private_chat():
    async with telegram_bot(ScriptedCore(), server=forum()) as (server, harness):
        rooms = harness.adapter.rooms
        assert await rooms.open_room("discord", str(GROUP), "t1") is None
        assert await rooms.open_room("telegram", str(AYSE), "t1") is None
        assert await rooms.open_room("telegram", "nonsense", "t1") is None
        assert server.calls_to("getChat") == []


async def test_a_room_opened_from_a_topic_or_a_shared_room_is_a_new_topic_of_the_chat():
    async with telegram_bot(ScriptedCore(), server=forum()) as (server, harness):
        for parent in (f"{GROUP}/5", shared_room(f"{GROUP}/5", "t1")):
            room = await harness.adapter.rooms.open_room("telegram", parent, "t")
            assert Place.parse(room).chat_id == GROUP
        assert [c.chat_id for c in server.calls_to("createForumTopic")] == [GROUP, GROUP]


# --- closing ------------------------------------------------------------------------------------


async def test_a_topic_is_closed_after_the_tables_last_lines():
    async with telegram_bot(ScriptedCore(), server=forum()) as (server, harness):
        room = await harness.adapter.rooms.open_room("telegram", str(GROUP), "t1")
        place = Place.parse(room)
        await harness.adapter.rooms.close_room("telegram", room)
        # the core answers its last items after it asked for the close
        await harness.adapter.deliver([public("Ayşe wins the table.", room, "T1")])
        await harness.settle()
        assert server.calls_to("closeForumTopic") == []
        harness.adapter.sleep.wake()  # the close's delay is over
        [closed] = await server.wait_for("closeForumTopic")
        assert closed.params["message_thread_id"] == place.thread_id and closed.ok
        assert harness.adapter.sleep.delays == [30.0]
        assert [c.params["text"] for c in server.calls_to("sendMessage")] == [
            "Ayşe wins the table."
        ]
        assert server.topics[(GROUP, place.thread_id)]["closed"]


async def test_a_waiting_close_happens_at_shutdown():
    server = forum()
    async with telegram_bot(ScriptedCore(), server=server) as (_server, harness):
        room = await harness.adapter.rooms.open_room("telegram", str(GROUP), "t1")
        await harness.adapter.rooms.close_room("telegram", room)
    assert [c.ok for c in server.calls_to("closeForumTopic")] == [True]


async def test_closing_a_shared_room_changes_nothing_and_a_failed_close_is_only_logged(caplog):
    server = forum()
    with caplog.at_level(logging.INFO, logger="bot.telegram.rooms"):
        async with telegram_bot(ScriptedCore(), server=server) as (_server, harness):
            rooms = harness.adapter.rooms
            await rooms.close_room("telegram", shared_room(f"{GROUP}/5", "t1"))
            await rooms.close_room("telegram", str(GROUP))
            await rooms.close_room("telegram", f"{GROUP}/999")  # no such topic
    assert [c.params["message_thread_id"] for c in server.calls_to("closeForumTopic")] == [999]
    failed = [r for r in caplog.records if "room_not_closed" in r.getMessage()]
    assert len(failed) == 1 and failed[0].levelno == logging.WARNING
    assert server.token not in failed[0].getMessage()


# --- shared rooms -------------------------------------------------------------------------------


async def test_shared_rooms_post_in_their_chat_each_with_its_own_table_message():
    async with telegram_bot(ScriptedCore()) as (server, harness):
        first, second = shared_room(str(GROUP), "t1"), shared_room(f"{GROUP}/7", "t2")
        await harness.adapter.deliver(
            [
                table("table 1: Ayşe to act", first, "T1"),
                table("table 2: Mehmet to act", second, "T2"),
                public("Table 1: round 1 starts.", first, "T1"),
            ]
        )
        await harness.settle()
        await harness.adapter.deliver([table("table 1: Zeynep to act", first, "T1", "2")])
        await harness.settle()
        sent = server.calls_to("sendMessage")
        assert [(c.chat_id, c.params.get("message_thread_id")) for c in sent] == [
            (GROUP, None),
            (GROUP, 7),
            (GROUP, None),
        ]
        [edit] = server.calls_to("editMessageText")
        table_one = server.messages_sent_ids(GROUP)[0]
        assert (edit.params["message_id"], edit.params["text"]) == (
            table_one,
            "table 1: Zeynep to act",
        )


async def test_shared_rooms_queue_as_their_chat():
    async with telegram_bot(ScriptedCore()) as (server, harness):
        gate = server.gates[GROUP] = asyncio.Event()
        rooms = [shared_room(str(GROUP), label) for label in ("t1", "t2")]
        await harness.adapter.deliver([table(f"table {r}", r, r) for r in rooms])
        await server.wait_for("sendMessage")
        # one chat for Telegram: the second table waits behind the first in the chat's queue
        assert harness.adapter.delivery.outbox.last(GROUP) is not None
        assert len(server.calls_to("sendMessage")) == 1
        gate.set()
        await harness.settle()
        assert len(server.calls_to("sendMessage")) == 2


async def test_a_press_and_a_private_command_in_a_shared_room_name_that_room():
    core = ScriptedCore()
    async with telegram_bot(core) as (server, harness):
        ayse = server.user(AYSE, "Ayse", "en")
        room = shared_room(str(GROUP), "t2")
        await harness.adapter.deliver([table("table 2", room, "T2")])
        await harness.settle()
        [message_id] = server.messages_sent_ids(GROUP)
        data = server.last_keyboard(GROUP, message_id)[0][0]["callback_data"]
        await harness.feed(server.press_update(ayse, GROUP, message_id, data))
        assert [p.channel_id for p in core.presses] == [room]
        chat = server.private_chat(ayse)
        await harness.feed(server.message_update(chat, ayse, "/okey discard R5"))
        assert core.commands[-1].channel_id == room


async def test_waiting_announcements_of_shared_rooms_in_one_chat_become_one_message():
    async with telegram_bot(ScriptedCore()) as (server, harness):
        server.gates[GROUP] = asyncio.Event()
        one, two = shared_room(str(GROUP), "t1"), shared_room(str(GROUP), "t2")
        topic = shared_room(f"{GROUP}/7", "t3")
        await harness.adapter.deliver([public("first", one, "T1")])
        await server.wait_for("sendMessage")  # in flight: nothing can be added to it any more
        await harness.adapter.deliver(
            [
                public("Table 1: Ayşe wins.", one, "T1"),
                public("Table 2: Mehmet wins.", two, "T2"),
                public("Table 3: Zeynep wins.", topic, "T3"),  # another topic: its own message
            ]
        )
        server.gates[GROUP].set()
        await harness.settle()
        sent = [
            (c.params["text"], c.params.get("message_thread_id"))
            for c in server.calls_to("sendMessage")
        ]
        assert sent == [
            ("first", None),
            ("Table 1: Ayşe wins.\nTable 2: Mehmet wins.", None),
            ("Table 3: Zeynep wins.", 7),
        ]
