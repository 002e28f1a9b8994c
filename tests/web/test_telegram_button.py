"""Telegram: with WEB_PUBLIC_URL and TELEGRAM_WEBAPP_NAME the group's table message carries a
URL button opening the Mini App's direct link to that table (web-app buttons are not allowed in
groups); the start parameter names the table, never a person."""

from __future__ import annotations

from bot.adapters.telegram import mini_app_link
from bot.adapters.web.server import table_of_start
from bot.core.messages import Button, Outgoing, OutKind, TableLink
from bot.settings import load_settings
from testkit.fakes.telegram_harness import ScriptedCore, telegram_bot

GROUP = -100500


def test_the_direct_link_needs_both_settings():
    both = load_settings(web_public_url="https://cards.example.org", telegram_webapp_name="table")
    link = mini_app_link(both, "masa_bot")
    assert link is not None and link("7") == "https://t.me/masa_bot/table?startapp=t7"
    assert mini_app_link(load_settings(telegram_webapp_name="table"), "masa_bot") is None
    assert mini_app_link(load_settings(web_public_url="https://cards.example.org"), "b") is None


async def test_the_table_message_gets_a_live_table_button():
    # (a table's id is a number: `t<n>` names a tournament's living message, tested below)
    core = ScriptedCore()
    buttons = ((Button("Check", "7", "check", "1"),),)
    core.on_command["poker"] = lambda c: [
        Outgoing(OutKind.EDIT_TABLE, "Ayşe to act", c.channel_id, table_id="7", buttons=buttons)
    ]
    async with telegram_bot(core) as (server, bot):
        assert bot.adapter.delivery is not None
        bot.adapter.delivery.web_table_link = lambda table: (
            f"https://t.me/b/table?startapp=t{table}"
        )
        ayse = server.user(11, "Ayşe", "en")
        await bot.feed(server.message_update(server.group(GROUP), ayse, "/poker open"))
        message_id = server.messages_sent_ids(GROUP)[-1]
        keyboard = server.last_keyboard(GROUP, message_id)
        assert keyboard[0][0]["callback_data"] == "7:check:1"
        [live] = keyboard[-1]
        assert live["url"] == "https://t.me/b/table?startapp=t7"
        assert live["text"] in ("🂠 Canlı masa", "🂠 Live table")


async def test_a_private_web_link_gets_a_web_app_button():
    core = ScriptedCore()
    url = "https://cards.example.org/t/signed-token"
    core.on_command["table"] = lambda c: [
        Outgoing(OutKind.PRIVATE, f"Your link: {url}", user_id=c.user_id, table_id="1", web_url=url)
    ]
    async with telegram_bot(core) as (server, bot):
        ayse = server.user(11, "Ayşe", "en")
        server.started_users.add(11)
        await bot.feed(server.message_update(server.group(GROUP), ayse, "/table web"))
        [sent] = server.sent_to(11)
        keyboard = sent.params["reply_markup"]["inline_keyboard"]
        assert keyboard[-1][0]["web_app"] == {"url": url}


async def test_a_tournaments_message_gets_a_button_per_table_playing_and_none_for_itself():
    """The living message (`t<id>`) of a running tournament opens each of its tables playing
    now (`Outgoing.tables`); a start parameter naming the tournament itself would be refused
    by the Mini App's sign-in, so none is made."""
    core = ScriptedCore()
    tables = tuple(TableLink(str(40 + n), n) for n in range(1, 6))
    core.on_command["tournament"] = lambda c: [
        Outgoing(OutKind.EDIT_TABLE, "Tournament 3", c.channel_id, table_id="t3", tables=tables)
    ]
    async with telegram_bot(core) as (server, bot):
        assert bot.adapter.delivery is not None
        bot.adapter.delivery.web_table_link = lambda table: (
            f"https://t.me/b/table?startapp=t{table}"
        )
        ayse = server.user(11, "Ayşe", "en")
        await bot.feed(server.message_update(server.group(GROUP), ayse, "/tournament standings"))
        message_id = server.messages_sent_ids(GROUP)[-1]
        keyboard = server.last_keyboard(GROUP, message_id)
        urls = [button["url"] for row in keyboard for button in row]
        assert urls == [f"https://t.me/b/table?startapp=t{40 + n}" for n in range(1, 6)]
        assert [len(row) for row in keyboard] == [4, 1]
        assert [b["text"] for b in keyboard[0]][:2] in (
            ["🂠 Table 1", "🂠 Table 2"],
            ["🂠 Masa 1", "🂠 Masa 2"],
        )
        assert all(table_of_start(url.rpartition("=")[2]) for url in urls)
        assert table_of_start("tt3") is None  # what the message carried before: refused


async def test_a_tournaments_message_between_stages_has_no_table_button():
    core = ScriptedCore()
    core.on_command["tournament"] = lambda c: [
        Outgoing(OutKind.EDIT_TABLE, "Tournament 3", c.channel_id, table_id="t3")
    ]
    async with telegram_bot(core) as (server, bot):
        assert bot.adapter.delivery is not None
        bot.adapter.delivery.web_table_link = lambda table: f"https://t.me/b/t?startapp=t{table}"
        ayse = server.user(11, "Ayşe", "en")
        await bot.feed(server.message_update(server.group(GROUP), ayse, "/tournament standings"))
        message_id = server.messages_sent_ids(GROUP)[-1]
        assert not server.last_keyboard(GROUP, message_id)
