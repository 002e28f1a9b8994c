"""Each adapter names the community of what it sends the core: the Discord server, the Telegram
group (every forum topic of it alike; none in a private chat), the console's one community; and
a table opened through it records that community."""

from __future__ import annotations

from types import SimpleNamespace

from bot.adapters.console import COMMUNITY, Console, parse_line
from bot.adapters.discord import DiscordAdapter
from bot.adapters.discord.adapter import community_of
from bot.adapters.telegram.parsing import Place
from bot.core.messages import Button, Outgoing, OutKind
from testkit.fakes.discord_fakes import DiscordHarness, quick_boards
from testkit.fakes.telegram_harness import telegram_bot
from testkit.fakes.telegram_server import FakeTelegram
from testkit.helpers import make_core
from testkit.telegram_play import AYSE, GROUP, Table

CHANNEL = 500_000_000_000_000_001


def test_console_commands_and_presses_are_of_the_console_community():
    assert parse_line("ayse: /poker open").community == COMMUNITY == "console"
    console = Console(None)
    button = Button("Pass", "7", "pass", "n1")
    console.show([Outgoing(OutKind.EDIT_TABLE, "table", buttons=((button,),))])
    assert console.press_for(parse_line("ayse: 1")).community == "console"


def test_telegram_places_and_discord_interactions_name_their_community():
    assert Place(-1001).community == "-1001"
    assert Place(-1001, 7).community == "-1001"  # a forum topic is part of its group
    assert Place(42).community is None  # a private chat
    assert community_of(SimpleNamespace(guild_id=9)) == "9"
    assert community_of(SimpleNamespace(guild_id=None)) is None  # a direct message


async def test_a_table_opened_on_discord_records_the_server(store):
    adapter = DiscordAdapter(make_core(store), default_locale="en", boards=quick_boards())
    harness = DiscordHarness(adapter)
    ayse = harness.user(101, "Ayse")
    await harness.slash(ayse, "poker open", CHANNEL, game="turkish", ante=10)
    [table] = await store.load_open_tables()
    assert table.community == "1"  # the fake guild's id


async def test_a_table_opened_on_telegram_records_the_group(store):
    core = make_core(store)
    async with telegram_bot(core) as (server, bot):
        server: FakeTelegram
        ayse = server.user(AYSE, "Ayşe", "en")
        await Table(server, bot, core, {str(AYSE): ayse}).command(ayse, "/poker open turkish 10")
    [table] = await store.load_open_tables()
    assert table.community == str(GROUP)
