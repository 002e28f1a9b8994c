"""Okey tournaments in the chats (issue 19), end to end through the real client libraries
against the fakes: discord.py's command tree and components (tables in threads opened through
discord.py's REST calls), python-telegram-bot against the fake Bot API (a forum group: a topic
per table; a plain group: shared rooms). Eight entrants (two people who press the buttons, six
who only register; everyone's moves are timed out and the computer stands in), 1-round matches.

Each test counts the platform calls: the registration/standings message is posted once and
edited from then on, refusals (a second Join, Start by someone else) reach only the presser, and
the group messages of each table stay within the platform's budget (docs/tournaments.md)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import discord

from bot.adapters.discord import DiscordAdapter
from bot.adapters.discord.components import table_view
from bot.adapters.rooms import LateRooms
from bot.adapters.telegram.callbacks import CallbackCodec, Pressed
from bot.adapters.telegram.parsing import parse_command
from bot.core.app import Core
from bot.core.config import CoreConfig
from bot.core.messages import Button, Outgoing, OutKind
from bot.core.table.fairness import SeededSource
from bot.core.tournament.state import Tournament
from storage import Store, tournament_escrow, wallet
from testkit.fakes.discord_fakes import DiscordHarness, quick_boards
from testkit.fakes.discord_rest import FakeRest
from testkit.fakes.telegram_harness import telegram_bot
from testkit.fakes.telegram_server import FakeTelegram
from testkit.helpers import Clock

GUILD = 123456 << 22
CHANNEL = 700_000_000_000_000_301
GROUP = -100900
NAMES = ("Ayşe", "Mehmet", "Zeynep", "Ali", "Can", "Deniz", "Ece", "Fatma")
FEE = 100


def make_core(store: Store, clock: Clock, rooms: LateRooms, seed: str) -> Core:
    return Core(
        store, CoreConfig(default_locale="en"), clock=clock, seeds=SeededSource(seed), rooms=rooms
    )


async def play_out(core: Core, clock: Clock, store: Store, deliver: Any) -> Tournament:
    """Tick the test clock (everyone times out, then the computer stands in) until the
    tournament is over, handing every answer to the adapter."""
    for _ in range(400):
        record = await store.get_tournament(1)
        if record.status in ("finished", "cancelled"):
            return Tournament.from_dict(record.snapshot, record.id)
        clock.advance(61)
        await deliver(await core.tick())
    raise AssertionError("the tournament did not end")


async def check_money(store: Store, platform: str, users: list[str], state: Tournament) -> None:
    """Fees in = prizes out, everyone ranked once, the escrow empty, the ledger sound."""
    assert state.status == "finished"
    assert sorted(state.ranking) == sorted(e.player_id for e in state.entrants)
    assert sum(state.prizes) == FEE * len(users)
    total = 0
    for user in users:
        player = await store.find_player(platform, user)
        total += await store.balance(wallet(player.id))
    assert total == 1000 * len(users)
    assert await store.balance(tournament_escrow(1)) == 0
    assert await store.audit() == []


# --- units --------------------------------------------------------------------------------------


def test_the_tournament_message_gets_no_show_my_hand_button_on_discord():
    join = Button("Join", "t1", "join", "n1")
    view = table_view(((join,),), None, None, "")
    assert [item.custom_id for item in view.children] == ["t:t1:join:n1:-"]


async def test_discord_prune_keeps_the_tournament_message_and_forgets_closed_tables(
    memory_store,
):
    core = make_core(memory_store, Clock(), LateRooms(), "prune")
    adapter = DiscordAdapter(core, default_locale="en", boards=quick_boards())
    harness = DiscordHarness(adapter)
    button = Button("Join", "t1", "join", "n1")
    await adapter.deliver_unasked(
        [
            Outgoing(
                OutKind.EDIT_TABLE, "registration", str(CHANNEL), None, "t1", buttons=((button,),)
            ),
            Outgoing(OutKind.EDIT_TABLE, "a closed table", str(CHANNEL), None, "42"),
        ]
    )
    await harness.settle()
    [registration] = [m for m in harness.channel(CHANNEL).live() if m.content == "registration"]
    assert not any(cid.startswith("h:") for cid in registration.custom_ids())
    assert adapter.prune() == 1  # table 42 is not open: forgotten; t1 is kept
    await adapter.deliver_unasked(
        [Outgoing(OutKind.EDIT_TABLE, "standings", str(CHANNEL), None, "t1")]
    )
    await harness.settle()
    assert registration.content == "standings"  # edited, not posted anew
    assert harness.channel(CHANNEL).posts == 2


def test_telegram_reads_the_tournament_commands_and_buttons():
    assert parse_command("/tournament_join", "bot") == ("tournament", ("join",))
    assert parse_command("/turnuva okey 100 3 start=21:30", "bot") == (
        "turnuva",
        ("okey", "100", "3", "start=21:30"),
    )
    assert parse_command("/tournament_okey@bot 50 in=15m", "bot") == (
        "tournament",
        ("okey", "50", "in=15m"),
    )
    codec = CallbackCodec()
    data = codec.encode(Button("Join", "t1", "join", "abc").custom_id)
    assert codec.decode(data) == Pressed("t1", "join", "abc")


# --- Discord ------------------------------------------------------------------------------------


class NoWait:
    """The rooms' close delay, passed at once."""

    async def __call__(self, seconds: float) -> None:
        return None


async def test_a_discord_okey_tournament_plays_its_tables_in_threads(memory_store) -> None:
    clock, late = Clock(), LateRooms()
    core = make_core(memory_store, clock, late, "discord-tournament")
    adapter = DiscordAdapter(core, default_locale="en", boards=quick_boards())
    harness = DiscordHarness(adapter)
    # the thread calls go through discord.py's REST layer to the fake API
    rest_client = discord.Client(intents=discord.Intents.none())
    rest = FakeRest().install(rest_client)
    rest.add_channel(CHANNEL, GUILD)
    adapter.rooms.attach(rest_client)
    adapter.rooms.sleep = NoWait()
    late.use(adapter.rooms)
    users = [harness.user(601 + i, name) for i, name in enumerate(NAMES)]
    ayse, mehmet = users[0], users[1]

    await harness.slash(ayse, "tournament okey", CHANNEL, fee=FEE, rounds=1)
    parent = harness.channel(CHANNEL)
    [registration] = parent.live()
    join = next(c for c in registration.custom_ids() if ":join:" in c)
    start = next(c for c in registration.custom_ids() if ":start:" in c)
    assert not any(c.startswith("h:") for c in registration.custom_ids())
    await harness.press(mehmet, join, registration)
    second = await harness.press(mehmet, join, registration)  # a second Join: refused
    not_hers = await harness.press(mehmet, start, registration)  # not the organiser
    for refused, words in ((second, "already registered"), (not_hers, "Only the organiser")):
        answers = [d for d in harness.log.deliveries if d.interaction == refused.id]
        assert answers and all(d.audience == "ephemeral" and d.target == mehmet.id for d in answers)
        assert any(words in d.text for d in answers)
        assert not any(words in t for t in harness.log.channel_texts(CHANNEL))
    for user in (ayse, *users[2:]):
        await harness.slash(user, "tournament join", CHANNEL)
    assert "Players (8/64)" in registration.content  # eight names, one message
    await harness.press(ayse, start, registration)
    assert len(rest.threads) == 2  # stage 1: two tables of four, each in its own thread

    per_tick: list[dict[int, int]] = []  # posts per channel in each timer step

    async def deliver(items: list[Outgoing]) -> None:
        before = {c: harness.channel(c).posts for c in harness.client.channels}
        await adapter.deliver_unasked(items)
        await harness.settle()
        adapter.prune()
        now = {c: harness.channel(c).posts for c in harness.client.channels}
        per_tick.append({c: n - before.get(c, 0) for c, n in now.items()})

    state = await play_out(core, clock, memory_store, deliver)
    await adapter.flush(5)
    await check_money(memory_store, "discord", [str(u.id) for u in users], state)
    assert registration.content.startswith("🏆") and "Final ranking" in registration.content
    assert not registration.deleted
    threads = sorted(rest.threads)
    assert len(threads) == 3  # two tables, then the final
    assert all(rest.threads[t]["archived"] and rest.threads[t]["locked"] for t in threads)
    # the parent channel: the registration message edited throughout; announcements only
    standings = [m for m in parent.messages.values() if m.content.startswith("🏆 Okey")]
    assert [m.id for m in standings] == [registration.id]
    assert parent.edits >= len(NAMES) + 2  # joins, start, each stage, the ranking
    announcements = parent.posts - 1
    assert announcements <= 2 + len(state.stages)  # started, each stage seated, the end
    busiest = max(n for tick in per_tick for n in tick.values())
    assert busiest <= 5  # Discord: 5 posts per 5 s per channel; a timer step stays under it
    for thread in threads:  # every timer step of a 1-round match: a line and the table anew
        posts = harness.channel(thread).posts
        assert 2 <= posts <= 20, posts


# --- Telegram -----------------------------------------------------------------------------------


def group_calls(server: FakeTelegram) -> list[Any]:
    """Every request that writes to the group (sent, edited, deleted), in order."""
    writes = ("sendMessage", "sendPhoto", "editMessageText", "editMessageCaption")
    return [
        c
        for c in server.calls
        if c.chat_id == GROUP and (c.method in writes or "delete" in c.method.lower())
    ]


async def telegram_tournament(memory_store, forum: bool) -> tuple[FakeTelegram, dict]:
    server = FakeTelegram(forums={GROUP} if forum else set())
    if forum:
        server.topic_rights.add(GROUP)
    clock, late = Clock(), LateRooms()
    core = make_core(memory_store, clock, late, f"telegram-tournament-{forum}")
    async with telegram_bot(core, server=server) as (server, bot):
        late.use(bot.adapter.rooms)
        users = [server.user(9001 + i, name, "en") for i, name in enumerate(NAMES)]
        server.started_users.update(u["id"] for u in users)  # their racks go privately
        ayse, mehmet = users[0], users[1]
        chat = server.group(GROUP)

        async def say(user: dict, text: str) -> None:
            await bot.feed(server.message_update(chat, user, text))

        await say(ayse, f"/tournament okey {FEE} 1")
        [registration] = server.messages_sent_ids(GROUP)
        data = {
            b["callback_data"].split(":")[1]: b["callback_data"]
            for row in server.last_keyboard(GROUP, registration)
            for b in row
        }
        await bot.feed(server.press_update(mehmet, GROUP, registration, data["join"]))
        before = len(server.calls)
        await bot.feed(server.press_update(mehmet, GROUP, registration, data["join"]))
        await bot.feed(server.press_update(mehmet, GROUP, registration, data["start"]))
        answers = [c for c in server.calls[before:] if c.method == "answerCallbackQuery"]
        assert len(answers) == 2 and all(a.params.get("show_alert") for a in answers)
        assert "already registered" in answers[0].params["text"]
        assert "Only the organiser" in answers[1].params["text"]
        # nothing public (the Start press looks up whether Mehmet administers the group)
        assert not [
            c for c in server.calls[before:] if c.chat_id == GROUP and c.method != "getChatMember"
        ]
        for user in (ayse, *users[2:]):
            await say(user, "/tournament_join")
        await bot.feed(server.press_update(ayse, GROUP, registration, data["start"]))

        per_tick: list[int] = []  # group writes in each timer step (one chat: one budget)

        async def deliver(items: list[Outgoing]) -> None:
            before = len(group_calls(server))
            await bot.adapter.deliver(items)
            await bot.settle()
            per_tick.append(len(group_calls(server)) - before)

        state = await play_out(core, clock, memory_store, deliver)
        await check_money(memory_store, "telegram", [str(u["id"]) for u in users], state)
        text = server.messages[(GROUP, registration)]["text"]
        assert text.startswith("🏆") and "Final ranking" in text
        registrations = [
            c
            for c in server.calls_to("sendMessage")
            if c.chat_id == GROUP and c.params.get("text", "").startswith("🏆 Okey")
        ]
        assert len(registrations) == 1  # posted once, edited from then on
        calls = group_calls(server)
        by_topic = Counter(c.params.get("message_thread_id") for c in calls)
        figures = {
            "busiest_step": max(per_tick),
            "steps": len(per_tick),
            "group_writes": len(calls),
            "by_topic": dict(by_topic),
            "topics": len(server.topics),
            "registration_edits": len(
                [
                    c
                    for c in server.calls_to("editMessageText")
                    if c.params.get("message_id") == registration
                ]
            ),
        }
        # one chat, one budget (about 20 messages a minute, topics included): a timer step is a
        # minute of play on the test clock
        assert figures["busiest_step"] <= 20, figures
        assert figures["registration_edits"] >= len(NAMES) + 2  # joins, start, stages, end
        return server, figures


async def test_a_telegram_okey_tournament_in_a_forum_plays_each_table_in_a_topic(
    memory_store,
) -> None:
    server, figures = await telegram_tournament(memory_store, forum=True)
    assert figures["topics"] == 3  # two tables, then the final
    assert set(figures["by_topic"]) == {None, *(topic for _, topic in server.topics)}
    assert all(topic["closed"] for topic in server.topics.values())


async def test_a_telegram_okey_tournament_in_a_plain_group_shares_the_group(memory_store) -> None:
    _, figures = await telegram_tournament(memory_store, forum=False)
    assert figures["topics"] == 0 and set(figures["by_topic"]) == {None}
