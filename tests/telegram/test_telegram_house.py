"""House rule words on Telegram (issue 16): `name=value` words, Turkish names and values, the
underscore and `@botname` forms reach the core as typed, and `rules set` asks whether the sender
is a group administrator (a moderator), as `/table` does."""

from __future__ import annotations

import pytest

from bot.adapters.telegram.parsing import parse_command
from testkit.fakes.telegram_harness import ScriptedCore, telegram_bot

GROUP = -100516
AYSE, MEHMET = 31, 32


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "/poker open acik 20 deck=32 peek=once",
            ("poker", ("open", "acik", "20", "deck=32", "peek=once")),
        ),
        ("/poker_open@Masa_Test_Bot acik deck=32", ("poker", ("open", "acik", "deck=32"))),
        ("/poker rules set deck=32", ("poker", ("rules", "set", "deck=32"))),
        ("/poker_rules_set floş=kapalı", ("poker", ("rules", "set", "floş=kapalı"))),
        ("/poker kurallar ayarla Renk=♥♠♦♣", ("poker", ("kurallar", "ayarla", "Renk=♥♠♦♣"))),
        ("/okey_start@masa_test_bot 3 geriat=açık", ("okey", ("start", "3", "geriat=açık"))),
    ],
)
def test_house_rule_words_are_kept_as_typed(text, expected):
    assert parse_command(text, "masa_test_bot") == expected


async def test_house_rules_reach_the_core_through_the_bot_api():
    core = ScriptedCore()
    async with telegram_bot(core) as (server, bot):
        ayse = server.user(AYSE, "Ayşe", "tr")
        group = server.group(GROUP)
        await bot.feed(server.message_update(group, ayse, "/poker open acik deck=32"))
        await bot.feed(
            server.message_update(group, ayse, "/poker_open@masa_test_bot acik 20 floş=kapalı")
        )
        assert [(c.name, c.args) for c in core.commands] == [
            ("poker", ("open", "acik", "deck=32")),
            ("poker", ("open", "acik", "20", "floş=kapalı")),
        ]
        assert not any(c.is_moderator for c in core.commands)
        assert server.calls_to("getChatMember") == []  # opening a table asks nobody's rights


async def test_rules_set_is_a_moderators_command_and_plain_rules_is_not():
    core = ScriptedCore()
    async with telegram_bot(core) as (server, bot):
        server.admins[GROUP] = {AYSE}
        ayse, mehmet = server.user(AYSE, "Ayşe", "tr"), server.user(MEHMET, "Mehmet", "en")
        group = server.group(GROUP)
        await bot.feed(server.message_update(group, mehmet, "/poker rules"))
        assert server.calls_to("getChatMember") == []
        await bot.feed(server.message_update(group, ayse, "/poker_rules_set deck=32 peek=once"))
        await bot.feed(server.message_update(group, mehmet, "/okey kurallar ayarla geriat=açık"))
        assert [(c.name, c.args, c.is_moderator) for c in core.commands] == [
            ("poker", ("rules",), False),
            ("poker", ("rules", "set", "deck=32", "peek=once"), True),
            ("okey", ("kurallar", "ayarla", "geriat=açık"), False),
        ]
        asked = [c.params["user_id"] for c in server.calls_to("getChatMember")]
        assert asked == [AYSE, MEHMET]
