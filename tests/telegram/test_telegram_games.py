"""Whole games through Telegram: the real core on SQLite, the real PTB client, the fake Bot API.

Players act only as Telegram users can: commands typed in the group, presses on the table
message's buttons, the amount prompt, the draw picker in the private chat. After every step the
test checks that no hidden card reached the group (in any request, sent or refused) before the
showdown, and that every button press was answered.
"""

from __future__ import annotations

import itertools
import random

from storage import Store
from testkit.fakes.cards import cards_in
from testkit.fakes.telegram_harness import telegram_bot
from testkit.fakes.telegram_server import FakeTelegram
from testkit.telegram_play import (
    AYSE,
    GROUP,
    MEHMET,
    ZEYNEP,
    Clock,
    Table,
    adapter_group_calls,
    all_data,
    group_leaks,
    make_core,
    play_poker,
    seat_and_start,
    turkish_hidden,
)


async def test_turkish_poker_whole_game_through_telegram(store):
    core = make_core(store, "telegram-turkish-4")  # a deal the scripted players get through
    rng = random.Random(7)
    async with telegram_bot(core) as (server, bot):
        ayse, mehmet = server.user(AYSE, "Ayşe", "en"), server.user(MEHMET, "Mehmet", "en")
        users = {str(AYSE): ayse, str(MEHMET): mehmet}
        server.started_users.add(AYSE)  # Mehmet has never started the bot
        table = Table(server, bot, core, users)
        await table.command(ayse, "/poker open turkish 10")
        await table.command(ayse, "/poker join 200")
        await table.command(mehmet, "/poker_join 200")
        await table.command(mehmet, "/poker start")

        # Mehmet's cards could not be sent: the group got a deep link, not the cards.
        session = table.live().session
        assert session.hand_no == 1
        link = [c for c in server.sent_to(GROUP) if "start=cards" in str(c.params)]
        assert len(link) == 1 and "Mehmet" in link[0].params["text"]
        hidden = turkish_hidden(session)
        assert len(hidden) == 10
        assert group_leaks(server.calls, hidden) == []
        ayse_seat = next(s for s in session.seats if s.user_id == str(AYSE))
        ayse_hand = set(session.engine.view(session.in_hand.index(ayse_seat.player_id))["hand"])
        assert set(cards_in(server.sent_to(AYSE)[-1].params["text"])) == ayse_hand
        assert not [c for c in server.sent_to(MEHMET, delivered=True)]

        # Mehmet presses Start: his cards arrive and play goes on.
        await bot.feed(server.message_update(server.private_chat(mehmet), mehmet, "/start cards"))
        mine = " ".join(c.params["text"] for c in server.sent_to(MEHMET))
        assert len(set(cards_in(mine)) & hidden) == 5  # his five cards, now privately

        start = len(server.calls)
        steps = await play_poker(table, users, rng, turkish_hidden, hands=5)
        # The group's budget (about 20 calls a minute): issue 14's 1.5 group calls per move, all
        # included; besides the core's announcements (each followed by the table posted anew and
        # the old one deleted), at most one group call per move (the table edit; prompts and
        # refusals went privately).
        group = [c for c in server.calls[start:] if c.chat_id == GROUP]
        announcements = len(group) - len(adapter_group_calls(group))
        assert len(group) <= 1.5 * steps, (len(group), steps)
        assert len(adapter_group_calls(group)) <= steps + 2 * announcements
        session = table.live().session
        # Five hands, unless someone lost every chip first (then nobody can act).
        assert session.hand_no >= 5 or min(session.chips.values()) == 0, steps
        assert session.hand_no >= 2 and steps >= 8
        # Amounts went in by the prompt's buttons and by typed replies; draws by the picker.
        presses = [p for p in server.calls_to("answerCallbackQuery")]
        assert len(presses) >= steps
        typed = [c for c in server.calls if c.method == "deleteMessage"]
        assert typed, "no amount prompt was used"
        assert any("|=" in str(a) for a in server.calls_to("editMessageReplyMarkup")) or any(
            c.chat_id in (AYSE, MEHMET) and "|~" in all_data(c) for c in server.calls
        ), "no draw picker was used"
        assert not server.open_callbacks  # every press was answered
        refused = [a for a in server.answered_callbacks.values() if a.get("show_alert")]
        assert refused == [], refused
        replies = [c for c in server.calls_to("sendMessage") if "reply_parameters" in c.params]
        assert replies == []  # no typed amount was refused either
        # Edits are coalesced: never two identical edits in a row of one message.
        edits = [c for c in server.calls_to("editMessageText") if c.chat_id == GROUP]
        pairs = itertools.pairwise(edits)
        assert all(
            (a.params["message_id"], a.params["text"], a.params.get("reply_markup"))
            != (b.params["message_id"], b.params["text"], b.params.get("reply_markup"))
            for a, b in pairs
        )


async def test_wrong_player_and_forged_presses_are_refused_privately(store):
    core = make_core(store, "telegram-refusals")
    async with telegram_bot(core) as (server, bot):
        ayse, mehmet = server.user(AYSE, "Ayşe", "en"), server.user(MEHMET, "Mehmet", "en")
        zeynep = server.user(ZEYNEP, "Zeynep", "en")
        server.started_users |= {AYSE, MEHMET}
        users = {str(AYSE): ayse, str(MEHMET): mehmet}
        table = Table(server, bot, core, users)
        await seat_and_start(table, ayse, mehmet)
        session = table.live().session
        version = table.live().version
        actor = session.seats[session.actor()].user_id
        other = mehmet if actor == str(AYSE) else ayse
        buttons = table.buttons()
        group_before = len(server.sent_to(GROUP))
        data = next(iter(buttons.values()))["callback_data"]
        await table.press(other, GROUP, table.message_id(), data)  # not their turn
        await table.press(zeynep, GROUP, table.message_id(), data)  # not even seated
        table_id, action, _nonce = data.split("|")[0].split(":")
        for forged in [f"{table_id}:{action}:deadbeef", f"999:{action}:x", "x:y", "🂡"]:
            await table.press(other, GROUP, table.message_id(), forged)
        answers = list(server.answered_callbacks.values())
        assert len(answers) == 6 and not server.open_callbacks
        assert all(a["show_alert"] and a["text"] for a in answers)
        assert len(server.sent_to(GROUP)) == group_before  # refusals never reach the group
        assert table.live().version == version  # nothing changed


async def test_admins_reset_a_table_and_others_cannot(store):
    core = make_core(store, "telegram-reset")
    async with telegram_bot(core) as (server, bot):
        ayse, mehmet = server.user(AYSE, "Ayşe", "en"), server.user(MEHMET, "Mehmet", "en")
        zeynep = server.user(ZEYNEP, "Zeynep", "en")
        server.started_users |= {AYSE, MEHMET}
        server.admins[GROUP] = {ZEYNEP}
        table = Table(server, bot, core, {})
        await seat_and_start(table, ayse, mehmet)
        group_before, private_before = len(server.sent_to(GROUP)), len(server.sent_to(AYSE))
        await table.command(ayse, "/table reset")
        [refusal] = server.sent_to(AYSE)[private_before:]  # refused in her private chat
        assert refusal.method == "sendMessage" and refusal.params["text"]
        assert len(server.sent_to(GROUP)) == group_before  # and the group stays quiet
        assert table.live() is not None
        await table.command(zeynep, "/table_reset cheating suspected")
        assert table.live() is None
        assert [c.params["user_id"] for c in server.calls_to("getChatMember")] == [AYSE, ZEYNEP]


async def test_turn_timer_output_reaches_the_group(store):
    clock = Clock()
    core = make_core(store, "afk", clock)
    async with telegram_bot(core) as (server, bot):
        ayse, mehmet = server.user(AYSE, "Ayşe", "en"), server.user(MEHMET, "Mehmet", "en")
        server.started_users |= {AYSE, MEHMET}
        table = Table(server, bot, core, {})
        await seat_and_start(table, ayse, mehmet)
        session = table.live().session
        actor = session.seats[session.actor()].name
        nonce = session.nonce
        message = table.message_id()
        before = len(server.calls)
        clock.now = clock.now.replace(hour=13)
        await bot.adapter.deliver(await core.tick(clock.now))
        await bot.settle()
        assert table.live().session.nonce != nonce
        said = "\n".join(c.visible_text() for c in server.calls[before:] if c.chat_id == GROUP)
        assert actor in said  # the time-out is announced in the group
        # an announcement: the table message follows it at the bottom, the old one is deleted
        assert table.message_id() != message
        deleted = [
            c.params["message_id"] for c in server.calls[before:] if c.method == "deleteMessage"
        ]
        assert deleted == [message]


async def test_after_a_restart_the_table_is_posted_again_and_play_goes_on(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path}/bot.db"
    server = FakeTelegram()
    server.started_users |= {AYSE, MEHMET}
    first_store = await Store.open(url)
    async with telegram_bot(make_core(first_store, "restart"), server=server) as (_, bot):
        ayse, mehmet = server.user(AYSE, "Ayşe", "en"), server.user(MEHMET, "Mehmet", "en")
        table = Table(server, bot, bot.adapter.core, {})
        await seat_and_start(table, ayse, mehmet)
    await first_store.close()

    store = await Store.open(url)
    try:
        core = make_core(store, "restart-2")
        async with telegram_bot(core, server=FakeTelegram()) as (server2, bot2):
            server2.started_users |= {AYSE, MEHMET}
            ayse, mehmet = server2.user(AYSE, "Ayşe", "en"), server2.user(MEHMET, "Mehmet", "en")
            await bot2.adapter.deliver(await core.start())
            await bot2.settle()
            table = Table(server2, bot2, core, {})
            resumed = "\n".join(c.visible_text() for c in server2.sent_to(GROUP))
            assert str(core.tables.in_channel("telegram", str(GROUP)).id) in resumed
            assert table.message_id() in server2.messages_sent_ids(GROUP)
            session = table.live().session
            user = {str(AYSE): ayse, str(MEHMET): mehmet}[session.seats[session.actor()].user_id]
            nonce = session.nonce
            action = next(a for a in ("pass", "check", "call", "fold") if a in table.buttons())
            await table.play(user, action, random.Random(1))
            assert table.live().session.nonce != nonce
            assert all(not a.get("show_alert") for a in server2.answered_callbacks.values())
    finally:
        await store.close()


async def test_poker_table_posts_the_table_again_at_the_bottom_with_the_real_core(store):
    core = make_core(store, "table-again")
    async with telegram_bot(core) as (server, bot):
        ayse, mehmet = server.user(AYSE, "Ayşe", "en"), server.user(MEHMET, "Mehmet", "en")
        server.started_users |= {AYSE, MEHMET}
        table = Table(server, bot, core, {})
        await seat_and_start(table, ayse, mehmet)
        for _ in range(2):  # nothing changed in between: it is posted anyway
            old = table.message_id()
            before = len(server.calls)
            await table.command(mehmet, "/poker table")
            group = [c for c in server.calls[before:] if c.chat_id == GROUP]
            assert [c.method for c in group] == ["sendMessage", "deleteMessage"]
            assert group[0].params["reply_markup"]  # the buttons come along
            assert group[1].params["message_id"] == old
            assert table.message_id() == server.messages_sent_ids(GROUP)[-1] != old
