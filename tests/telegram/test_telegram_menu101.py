"""Telegram's command menu lists the 101 Okey commands in Turkish and English, and what a menu
entry sends reaches the core as the typed command would: `/okey_start_101` opens a 101 table,
`/leaderboard_101` shows the 101 board."""

from __future__ import annotations

from bot.adapters.telegram.parsing import parse_command
from bot.adapters.telegram.texts import MENU
from testkit.fakes.telegram_harness import telegram_bot
from testkit.helpers import make_core

GROUP = -100_101
LOBBY = -100_102
AYSE = 11
OKEY101_MENU = {
    "okey_start_101": ("okey", ("start", "101")),
    "okey_lay": ("okey", ("lay",)),
    "okey_add": ("okey", ("add",)),
    "okey_swap": ("okey", ("swap",)),
    "tournament_okey_101": ("tournament", ("okey", "101")),
}


async def test_the_menu_has_the_101_commands_in_both_languages(memory_store) -> None:
    async with telegram_bot(make_core(memory_store)) as (server, bot):
        await bot.adapter.register_commands()
        default, english, turkish = (
            {c["command"]: c["description"] for c in call.params["commands"]}
            for call in server.calls_to("setMyCommands")
        )
    assert default == english
    for name, words in OKEY101_MENU.items():
        assert parse_command(f"/{name}", "bot") == words
        assert "101" in english[name] and "101" in turkish[name]
        assert english[name] != turkish[name]
    assert english["okey_start_101"].startswith("Open a 101 Okey table")
    assert turkish["okey_start_101"].startswith("101 Okey masası aç")
    assert turkish["tournament_okey_101"].startswith("101 Okey turnuvası aç")
    for board in ("leaderboard", "history", "stats"):
        assert "101" in english[board] and "101" in turkish[board]
    assert len(MENU) == len(english) == len(turkish)


async def test_the_101_menu_entries_reach_the_core(memory_store) -> None:
    async with telegram_bot(make_core(memory_store), locale="tr") as (server, bot):
        ayse = server.user(AYSE, "Ayşe", "tr")
        await bot.feed(server.message_update(server.group(GROUP), ayse, "/okey_start_101"))
        texts = [c.params.get("text", c.params.get("caption", "")) for c in server.sent_to(GROUP)]
        assert any(t.startswith("101 Okey · masa") for t in texts), texts
        # (where a table plays the board answers privately: asked in another group)
        await bot.feed(server.message_update(server.group(LOBBY), ayse, "/leaderboard_101"))
        [board] = server.sent_to(LOBBY)
        assert board.params["text"].startswith("Sıralama — 101 Okey")
