"""Traffic of the Telegram adapter, counted call by call at the fake Bot API: presses answered
first, group traffic queued per chat (never awaited by a handler, newest edit only), the table
posted afresh, private messages edited by slot."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager

from bot.core.messages import Button, Command, Outgoing, OutKind, Press
from testkit.fakes.cards import draw_prompt, shown_hand
from testkit.fakes.telegram_harness import ManualSleep, ScriptedCore, telegram_bot
from testkit.fakes.telegram_server import Call, FakeTelegram

GROUP = -100600
AYSE, MEHMET = 11, 22
PNG1 = b"\x89PNG\r\n\x1a\none"
PNG2 = b"\x89PNG\r\n\x1a\ntwo"

Deliver = Callable[[Sequence[Outgoing]], Awaitable[None]]


def buttons(nonce: str, *extra: Button) -> tuple[tuple[Button, ...], ...]:
    return ((Button("Check", "t1", "check", nonce), *extra),)


def table(text: str, nonce: str = "1", **kwargs: object) -> Outgoing:
    return Outgoing(
        OutKind.EDIT_TABLE, text, str(GROUP), table_id="t1", buttons=buttons(nonce), **kwargs
    )


def playing_core() -> ScriptedCore:
    """`/poker table` shows the table; Check moves it on, tells Ayşe her cards, announces."""
    core = ScriptedCore()
    bet = Button("Bet", "t1", "bet", "1", needs="amount", min_amount=10, max_amount=100)
    draw = Button("Draw", "t1", "draw", "1", needs="cards", max_cards=3)

    def poker(c: Command) -> list[Outgoing]:
        if c.args == ("hand",):
            return [shown_hand(c.user_id)]
        return [
            Outgoing(
                OutKind.EDIT_TABLE,
                "Ayşe to act",
                c.channel_id,
                table_id="t1",
                buttons=buttons("1", bet, draw),
            )
        ]

    def check(p: Press) -> list[Outgoing]:
        if p.user_id != str(AYSE):
            return [Outgoing(OutKind.ERROR, "Not your turn.", user_id=p.user_id)]
        return [
            Outgoing(OutKind.PUBLIC, "Hand 2 starts", str(GROUP), table_id="t1"),
            Outgoing(OutKind.PRIVATE, "Your cards: 9h 9d", user_id=str(AYSE), table_id="t1"),
            table("Mehmet to act", "2"),
        ]

    core.on_command["poker"] = poker
    core.on_act["draw"] = draw_prompt("t1", "1", 3)
    core.on_press["check"] = check
    return core


def calls_after(server: FakeTelegram, start: int) -> list[Call]:
    return [c for c in server.calls[start:] if c.method != "getUpdates"]


async def open_table(server: FakeTelegram, bot, user: dict) -> int:
    await bot.feed(server.message_update(server.group(GROUP), user, "/poker table"))
    return server.messages_sent_ids(GROUP)[-1]


async def test_a_press_is_answered_before_any_other_call():
    async with telegram_bot(playing_core()) as (server, bot):
        ayse, mehmet = server.user(AYSE, "Ayşe", "en"), server.user(MEHMET, "Mehmet", "en")
        server.started_users |= {AYSE, MEHMET}
        message = await open_table(server, bot, ayse)

        for user, data in [
            (ayse, "t1:bet:1"),  # asks for an amount (privately)
            (ayse, "t1:draw:1"),  # opens the draw picker (privately)
            (mehmet, "t1:check:1"),  # refused: a pop-up
            (ayse, "t1:check:1"),  # played: private cards, an announcement, a table edit
        ]:
            start = len(server.calls)
            await bot.feed(server.press_update(user, GROUP, message, data))
            made = calls_after(server, start)
            assert made[0].method == "answerCallbackQuery", (data, [c.method for c in made])
            assert len(made) >= 2 or made[0].params.get("show_alert"), data
        answers = server.calls_to("answerCallbackQuery")
        assert [a.params.get("text") for a in answers] == [None, None, "Not your turn.", None]
        assert server.sent_to(MEHMET) == []  # the refusal was the pop-up only


async def test_picker_toggles_and_confirm_are_answered_first():
    async with telegram_bot(playing_core()) as (server, bot):
        ayse = server.user(AYSE, "Ayşe", "en")
        server.started_users.add(AYSE)
        message = await open_table(server, bot, ayse)
        await bot.feed(server.press_update(ayse, GROUP, message, "t1:draw:1"))
        picker = server.messages_sent_ids(AYSE)[-1]
        toggle = server.last_keyboard(AYSE, picker)[0][0]["callback_data"]
        start = len(server.calls)
        await bot.feed(server.press_update(ayse, AYSE, picker, toggle))
        assert [c.method for c in calls_after(server, start)] == [
            "answerCallbackQuery",
            "editMessageReplyMarkup",
        ]
        confirm = server.last_keyboard(AYSE, picker)[-1][0]["callback_data"]
        start = len(server.calls)
        await bot.feed(server.press_update(ayse, AYSE, picker, confirm))
        made = [c.method for c in calls_after(server, start)]
        assert made[:2] == ["answerCallbackQuery", "editMessageReplyMarkup"]


async def test_group_traffic_never_holds_up_answers_or_private_messages():
    async with telegram_bot(playing_core()) as (server, bot):
        ayse = server.user(AYSE, "Ayşe", "en")
        server.started_users.add(AYSE)
        message = await open_table(server, bot, ayse)
        server.gates[GROUP] = asyncio.Event()  # the group's calls hang, like a rate limit
        start = len(server.calls)
        # The handler returns although the group's calls have not been answered.
        await asyncio.wait_for(
            bot.feed(server.press_update(ayse, GROUP, message, "t1:check:1"), settle=False), 10
        )
        made = calls_after(server, start)
        assert [c.method for c in made[:2]] == ["answerCallbackQuery", "sendMessage"]
        assert made[1].chat_id == AYSE and made[1].ok  # her cards went out meanwhile
        assert len([c for c in made if c.chat_id == GROUP]) <= 1  # one group call in flight
        server.gates[GROUP].set()
        await bot.settle()
        group = [(c.method, c.params["text"]) for c in server.calls[start:] if c.chat_id == GROUP]
        assert group == [("sendMessage", "Hand 2 starts"), ("editMessageText", "Mehmet to act")]


async def test_only_the_newest_pending_edit_is_written_and_posts_keep_their_order():
    async with telegram_bot(ScriptedCore()) as (server, bot):
        adapter = bot.adapter
        await adapter.deliver([table("v0")])
        await bot.settle()
        server.gates[GROUP] = asyncio.Event()
        start = len(server.calls)
        news = [Outgoing(OutKind.PUBLIC, f"news {i}", str(GROUP)) for i in range(2)]
        await adapter.deliver([table("v1")])
        await server.wait_for("editMessageText")  # v1 is in flight, the rest waits
        await adapter.deliver([news[0]])
        await adapter.deliver([table("v2")])
        await adapter.deliver([table("v3")])
        await adapter.deliver([news[1]])
        await adapter.deliver([table("v4")])
        server.gates[GROUP].set()
        await bot.settle()
        written = [c.params["text"] for c in server.calls[start:] if c.chat_id == GROUP]
        assert written == ["v1", "news 0", "news 1", "v4"]


async def test_announcements_waiting_in_the_queue_become_one_message():
    async with telegram_bot(ScriptedCore()) as (server, bot):
        server.gates[GROUP] = asyncio.Event()
        say = [Outgoing(OutKind.PUBLIC, f"line {i}", str(GROUP)) for i in range(5)]
        await bot.adapter.deliver([say[0]])
        await server.wait_for("sendMessage")  # in flight: nothing can be added to it any more
        await bot.adapter.deliver([say[1]])
        await bot.adapter.deliver([say[2]])
        await bot.adapter.deliver([table("v1")])  # a table post keeps its place between them
        await bot.adapter.deliver([say[3], say[4]])
        server.gates[GROUP].set()
        await bot.settle()
        texts = [c.params["text"] for c in server.calls if c.chat_id == GROUP]
        assert texts == ["line 0", "line 1\nline 2", "v1", "line 3\nline 4"]


async def test_flush_sends_everything_due_and_leaves_no_task_running():
    sleep = ManualSleep()
    core = ScriptedCore()
    core.on_command["frobnicate"] = lambda c: [
        Outgoing(OutKind.ERROR, "Unknown command.", user_id=c.user_id)
    ]
    async with telegram_bot(core, sleep=sleep) as (server, bot):
        ayse = server.user(AYSE, "Ayşe", "en")
        await bot.feed(server.message_update(server.group(GROUP), ayse, "/frobnicate"))
        server.gates[GROUP] = asyncio.Event()
        await bot.adapter.deliver([table("v1"), Outgoing(OutKind.PUBLIC, "bye", str(GROUP))])
        server.gates[GROUP].set()
        await bot.adapter.flush(10)
        methods = [c.method for c in server.calls if c.chat_id == GROUP]
        # The short reply, the table, the announcement, and the reply deleted without waiting.
        assert methods == ["sendMessage", "sendMessage", "sendMessage", "deleteMessage"]
        outbox = bot.adapter.delivery.outbox
        assert outbox._workers == {} and outbox._timers == {} and outbox._queues == {}


async def test_flush_gives_up_after_its_timeout():
    async with telegram_bot(ScriptedCore()) as (server, bot):
        server.gates[GROUP] = asyncio.Event()
        await bot.adapter.deliver([table("v1"), Outgoing(OutKind.PUBLIC, "bye", str(GROUP))])
        await bot.adapter.flush(0.05)  # the first call hangs: the rest is dropped
        assert bot.adapter.delivery.outbox._workers == {}
        assert [c.params["text"] for c in server.calls if c.chat_id == GROUP] == ["v1"]
        server.gates[GROUP].set()


async def test_fresh_posts_the_table_at_the_bottom_and_deletes_the_old_one():
    core = ScriptedCore()
    core.on_command["poker"] = lambda c: [table("Ayşe to act", fresh=c.args == ("table",))]
    async with telegram_bot(core) as (server, bot):
        ayse = server.user(AYSE, "Ayşe", "en")
        group = server.group(GROUP)
        await bot.feed(server.message_update(group, ayse, "/poker open"))
        [first] = server.messages_sent_ids(GROUP)
        await bot.adapter.deliver([Outgoing(OutKind.PUBLIC, "chatter", str(GROUP))])
        await bot.feed(server.message_update(group, ayse, "/poker open"))  # unchanged: skipped
        assert len(server.sent_to(GROUP)) == 2
        await bot.feed(server.message_update(group, ayse, "/poker table"))  # unchanged: posted
        *_, chatter, second = server.messages_sent_ids(GROUP)
        assert (GROUP, first) not in server.messages and second > chatter
        assert server.messages[(GROUP, second)]["text"] == "Ayşe to act"
        assert bot.adapter.delivery.tables["t1"].message_id == second
        [deleted] = server.calls_to("deleteMessage")
        assert deleted.params["message_id"] == first
        # Moves edit the new message.
        await bot.adapter.deliver([table("Mehmet to act", "2")])
        await bot.settle()
        assert server.calls_to("editMessageText")[-1].params["message_id"] == second


async def test_fresh_takes_the_buttons_away_when_the_old_message_cannot_be_deleted():
    core = ScriptedCore()
    async with telegram_bot(core) as (server, bot):
        await bot.adapter.deliver([table("Ayşe to act")])
        await bot.settle()
        [first] = server.messages_sent_ids(GROUP)
        server.undeletable.add((GROUP, first))
        await bot.adapter.deliver([table("Ayşe to act", fresh=True)])
        await bot.settle()
        assert (GROUP, first) in server.messages and server.last_keyboard(GROUP, first) == []
        assert len(server.messages_sent_ids(GROUP)) == 2


async def test_a_fresh_post_survives_a_later_edit_in_the_same_batch():
    async with telegram_bot(ScriptedCore()) as (server, bot):
        await bot.adapter.deliver([table("v0")])
        await bot.settle()
        await bot.adapter.deliver([table("v1", fresh=True), table("v2", "2")])
        await bot.settle()
        methods = [(c.method, c.params.get("text")) for c in server.calls if c.chat_id == GROUP]
        assert methods[-2:] == [("sendMessage", "v2"), ("deleteMessage", None)]


async def test_a_pending_fresh_post_survives_a_newer_edit():
    async with telegram_bot(ScriptedCore()) as (server, bot):
        await bot.adapter.deliver([table("v0")])
        await bot.settle()
        server.gates[GROUP] = asyncio.Event()
        await bot.adapter.deliver([Outgoing(OutKind.PUBLIC, "news", str(GROUP))])
        await server.wait_for("sendMessage", 2)
        await bot.adapter.deliver([table("v1", fresh=True)])
        await bot.adapter.deliver([table("v2")])
        server.gates[GROUP].set()
        await bot.settle()
        methods = [(c.method, c.params.get("text")) for c in server.calls if c.chat_id == GROUP]
        assert methods[-2:] == [("sendMessage", "v2"), ("deleteMessage", None)]


def private(text: str, slot: str | None, nonce: str = "1", **kwargs: object) -> Outgoing:
    tiles = ((Button("R5", "t1", "d.R5", nonce),),)
    return Outgoing(
        OutKind.PRIVATE,
        text,
        user_id=str(AYSE),
        table_id="t1",
        slot=slot,
        buttons=tiles,
        **kwargs,
    )


@asynccontextmanager
async def ayse_at_table() -> AsyncIterator[tuple[FakeTelegram, Deliver]]:
    """A bot whose table t1 is shown and Ayşe has started her private chat; yields the fake
    server and the adapter's `deliver`."""
    async with telegram_bot(ScriptedCore()) as (server, bot):
        server.user(AYSE, "Ayşe", "en")
        server.started_users.add(AYSE)
        deliver = bot.adapter.deliver
        await deliver([table("Ayşe to act")])  # the adapter delivers only its tables' items
        yield server, deliver


async def test_a_slot_edits_the_players_current_private_message():
    async with ayse_at_table() as (server, deliver):
        await deliver([private("Rack 1", "t1:1-1")])
        [first] = server.messages_sent_ids(AYSE)
        await deliver([private("Rack 1 after a take", "t1:1-1", "2")])
        await deliver([private("Rack 1 after a take", "t1:1-1", "2")])  # unchanged: no call
        assert server.messages_sent_ids(AYSE) == [first]
        [edit] = server.calls_to("editMessageText")
        assert edit.params["message_id"] == first
        assert server.last_keyboard(AYSE, first)[0][0]["callback_data"] == "t1:d.R5:2"
        # A new hand (slot) is a new message, and the old one's buttons are retired.
        await deliver([private("Rack 2", "t1:1-2", "3")])
        assert server.messages_sent_ids(AYSE)[0] == first
        second = server.messages_sent_ids(AYSE)[1]
        assert server.last_keyboard(AYSE, first) == []
        assert server.messages[(AYSE, second)]["text"] == "Rack 2"


async def test_a_slot_with_a_picture_edits_caption_or_media_and_never_keeps_a_stale_picture():
    async with ayse_at_table() as (server, deliver):
        await deliver([private("Cards", "t1:5", picture=PNG1)])
        [photo] = server.messages_sent_ids(AYSE)
        await deliver([private("Cards, your turn", "t1:5", "2", picture=PNG1)])
        [caption] = server.calls_to("editMessageCaption")
        assert caption.params["caption"] == "Cards, your turn"
        await deliver([private("New cards", "t1:5", "3", picture=PNG2)])
        [media] = server.calls_to("editMessageMedia")
        assert media.params["message_id"] == photo
        assert server.messages_sent_ids(AYSE) == [photo]
        # Without a picture the old one would stay and be stale: a new message instead.
        await deliver([private("Folded", "t1:5", "4")])
        assert len(server.messages_sent_ids(AYSE)) == 2
        assert server.last_keyboard(AYSE, photo) == []


async def test_unslotted_notes_leave_the_current_message_in_place():
    async with ayse_at_table() as (server, deliver):
        await deliver([private("Rack", "t1:1")])
        [rack] = server.messages_sent_ids(AYSE)
        await deliver([Outgoing(OutKind.PRIVATE, "You drew R7", user_id=str(AYSE), table_id="t1")])
        await deliver([private("Rack with R7", "t1:1", "2")])
        assert server.messages[(AYSE, rack)]["text"] == "Rack with R7"
        assert server.last_keyboard(AYSE, rack)[0][0]["callback_data"] == "t1:d.R5:2"
        assert len(server.messages_sent_ids(AYSE)) == 2
