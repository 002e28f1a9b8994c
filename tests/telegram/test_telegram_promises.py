"""What the docs promise on Telegram and the console (issue 25, "also found"), each through the
real python-telegram-bot client against the fake Bot API: a typed `/poker hand` resends the
cards at the bottom, private keyboards are never "taken" twice (Telegram answers 400 "message is
not modified"), a button with a single amount plays at once, a user who never started the
private chat is told so once per group, and the console honours TURN_SECONDS."""

from __future__ import annotations

import random

from bot.__main__ import console_config
from bot.core.messages import NEEDS_AMOUNT, Button, Outgoing, OutKind
from bot.settings import load_settings
from testkit.fakes.telegram_harness import ManualSleep, ScriptedCore, help_core, telegram_bot
from testkit.telegram_play import (
    AYSE,
    GROUP,
    MEHMET,
    Table,
    make_core,
    play_poker,
    seat_and_start,
    turkish_hidden,
)


def hand_core() -> ScriptedCore:
    core = ScriptedCore()
    core.on_command["poker"] = lambda c: [
        Outgoing(
            OutKind.PRIVATE, "Your cards: K♠ K♥", user_id=c.user_id, table_id="t1", slot="t1:1"
        )
    ]
    return core


async def test_a_typed_poker_hand_resends_the_same_cards_at_the_bottom():
    async with telegram_bot(hand_core()) as (server, bot):
        ayse = server.user(AYSE, "Ayşe", "en")
        server.started_users.add(AYSE)
        group = server.group(GROUP)
        await bot.feed(server.message_update(group, ayse, "/poker hand"))
        await bot.feed(server.message_update(group, ayse, "/poker hand"))
        await bot.feed(server.message_update(group, ayse, "/el"))  # not a state command
        sent = server.sent_to(AYSE)
        assert [c.method for c in sent].count("sendMessage") == 2
        first, second = server.messages_sent_ids(AYSE)[:2]
        assert second > first  # a new message, at the bottom of the chat
        assert server.calls_to("editMessageText") == []


async def test_private_keyboards_are_never_taken_twice(tmp_path):
    from storage import Store

    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/bot.db")
    try:
        core = make_core(store, "telegram-turkish-4")
        async with telegram_bot(core) as (server, bot):
            ayse, mehmet = server.user(AYSE, "Ayşe", "en"), server.user(MEHMET, "Mehmet", "en")
            users = {str(AYSE): ayse, str(MEHMET): mehmet}
            server.started_users |= {AYSE, MEHMET}
            table = Table(server, bot, core, users)
            await seat_and_start(table, ayse, mehmet)
            await play_poker(table, users, random.Random(7), turkish_hidden, hands=4)
        private = [c for c in server.calls_to("editMessageReplyMarkup") if (c.chat_id or 0) > 0]
        assert private, "the draw picker's keyboard is taken once the draw is confirmed"
        assert [c.params for c in private if not c.ok] == []  # none changed nothing
    finally:
        await store.close()


async def test_a_button_with_a_single_amount_plays_at_once():
    core = ScriptedCore()
    opener = Button(
        "Open (40)", "t1", "open", "1", needs=NEEDS_AMOUNT, min_amount=40, max_amount=40
    )
    ranged = Button(
        "Raise (40-120)", "t1", "raise", "1", needs=NEEDS_AMOUNT, min_amount=40, max_amount=120
    )
    core.on_command["poker"] = lambda c: [
        Outgoing(
            OutKind.EDIT_TABLE,
            "Ayşe to act",
            c.channel_id,
            table_id="t1",
            buttons=((opener, ranged),),
        )
    ]
    async with telegram_bot(core) as (server, bot):
        ayse = server.user(AYSE, "Ayşe", "en")
        server.started_users.add(AYSE)
        await bot.feed(server.message_update(server.group(GROUP), ayse, "/poker table"))
        message = server.messages_sent_ids(GROUP)[-1]
        await bot.feed(server.press_update(ayse, GROUP, message, "t1:open:1"))
        assert [(p.action, p.args) for p in core.presses] == [("open", ("40",))]
        assert server.sent_to(AYSE) == []  # no amount asked
        await bot.feed(server.press_update(ayse, GROUP, message, "t1:raise:1"))
        assert len(core.presses) == 1 and len(server.sent_to(AYSE)) == 1  # a range is asked


async def test_a_user_who_never_started_the_chat_is_told_once_per_group():
    sleep = ManualSleep()
    sleep.wake()  # each short reply is deleted at once
    async with telegram_bot(help_core(), sleep=sleep) as (server, bot):
        ayse = server.user(AYSE, "Ayşe", "en")
        group, other = server.group(GROUP), server.group(GROUP - 1)
        for _ in range(5):
            await bot.feed(server.message_update(group, ayse, "/frobnicate"))
            await bot.settle()
        await bot.feed(server.message_update(other, ayse, "/frobnicate"))
        await bot.settle()
        told = [c for c in server.calls if c.method == "sendMessage" and (c.chat_id or 0) < 0]
        assert [c.chat_id for c in told] == [GROUP, GROUP - 1]
        # once they start the private chat, refusals go there
        await bot.feed(server.message_update(server.private_chat(ayse), ayse, "/start"))
        await bot.feed(server.message_update(group, ayse, "/frobnicate"))
        assert any("frobnicate" in c.params.get("text", "") for c in server.sent_to(AYSE))


def test_the_console_honours_turn_seconds():
    settings = load_settings(turn_seconds=7, idle_close_seconds=30, timezone="UTC")
    config = console_config(settings, pictures=False)
    assert (config.turn_seconds, config.idle_close_seconds, config.timezone) == (7, 30, "UTC")
