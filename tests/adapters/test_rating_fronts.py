"""`/rating` and `/leaderboard rating` on the fronts, tested at the seam with the core: the words
Discord's slash commands and Telegram's typed commands hand to `core.handle`, and their names in
both languages."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from bot.adapters.telegram.texts import MENU
from testkit.fakes.telegram_harness import ScriptedCore, telegram_bot
from tests.adapters.test_history_fronts import GROUP, call, payloads, tree_and_runner

__all__ = ["tree_and_runner"]  # the fixture, used by name

AYSE = 201


@pytest.mark.parametrize(
    ("name", "options", "expected"),
    [
        ("rating", {}, ()),
        ("rating", {"game": "101"}, ("101",)),
        ("rating", {"player": SimpleNamespace(id=777), "game": "acik"}, ("<@777>", "acik")),
        ("leaderboard", {"board": "rating"}, ("rating",)),
        ("leaderboard", {"board": "rating", "game": "okey"}, ("rating", "okey")),
        (
            "leaderboard",
            {"board": "rating", "game": "turkish", "scope": "global"},
            ("rating", "turkish", "global"),
        ),
        ("leaderboard", {"board": "wins", "game": "okey"}, ("wins",)),  # a game: rating only
    ],
)
async def test_discord_rating_commands_hand_the_core_their_words(
    tree_and_runner, name, options, expected
):
    tree, runner = tree_and_runner
    await call(tree, name, **options)
    assert runner.calls == [(name, expected)]


async def test_discord_rating_is_named_in_both_languages(tree_and_runner):
    tree, _ = tree_and_runner
    found = await payloads(tree)
    rating = found["rating"]
    assert rating["name_localizations"]["tr"] == "puan"
    options = {o["name"]: o for o in rating["options"]}
    assert options["player"]["type"] == discord.AppCommandOptionType.user.value
    assert [c["value"] for c in options["game"]["choices"]] == ["turkish", "acik", "okey", "101"]
    board = {o["name"]: o for o in found["leaderboard"]["options"]}
    assert [c["value"] for c in board["game"]["choices"]] == ["turkish", "acik", "okey", "101"]
    assert board["game"]["name_localizations"]["tr"] == "oyun"


async def test_telegram_rating_words_reach_the_core_as_typed():
    core = ScriptedCore()
    async with telegram_bot(core) as (server, bot):
        ayse = server.user(AYSE, "Ayşe", "tr")
        server.started_users.add(AYSE)
        group = server.group(GROUP)
        for typed in ("/rating @mehmet okey", "/leaderboard rating 101 global", "/puan"):
            await bot.feed(server.message_update(group, ayse, typed))
        assert [(c.name, c.args) for c in core.commands] == [
            ("rating", ("@mehmet", "okey")),
            ("leaderboard", ("rating", "101", "global")),
            ("puan", ()),  # the core folds and routes the Turkish word
        ]
    menu = {name: (turkish, english) for name, turkish, english in MENU}
    assert "rating" in menu and "rating" in menu["leaderboard"][1]
