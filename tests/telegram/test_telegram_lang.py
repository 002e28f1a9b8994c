"""The Telegram adapter's own words follow a player's `/lang` choice (through the real core's
`locale_of` on the real store) before their Telegram language; without a choice nothing changes."""

from __future__ import annotations

import pytest

from bot.adapters.telegram.texts import TEXTS
from testkit.fakes.telegram_harness import telegram_bot
from testkit.helpers import make_core

GROUP = -100_555
AYSE = 11


@pytest.mark.parametrize(("code", "chosen"), [("tr", "en"), ("en", "tr"), ("de", "en")])
async def test_lang_choice_beats_the_telegram_language(memory_store, code, chosen) -> None:
    core = make_core(memory_store, default_locale="tr")
    async with telegram_bot(core, locale="tr") as (server, bot):
        ayse = server.user(AYSE, "Ayşe", code)
        # Ayşe has not started the private chat, so the private "language set" answer makes the
        # adapter ask her to (a short reply in the group), already in the language she chose.
        await bot.feed(server.message_update(server.group(GROUP), ayse, f"/lang {chosen}"))
        assert await core.locale_of("telegram", str(AYSE)) == chosen
        [prompt] = server.sent_to(GROUP)
        [[button]] = prompt.params["reply_markup"]["inline_keyboard"]
        assert button["text"] == TEXTS[chosen]["start_button"]
        assert prompt.params["text"].endswith(TEXTS[chosen]["private_only"].split("}", 1)[1])
        await bot.feed(server.press_update(ayse, GROUP, 77, "garbage"))
        [answer] = server.calls_to("answerCallbackQuery")
        assert answer.params["text"] == TEXTS[chosen]["bad_button"]
        await bot.feed(server.message_update(server.private_chat(ayse), ayse, "/start cards"))
        greeting = server.sent_to(AYSE)[0]
        assert greeting.params["text"] == TEXTS[chosen]["started"]


@pytest.mark.parametrize(
    ("default", "code", "expected"), [("tr", "en", "en"), ("en", "tr", "tr"), ("en", "de", "en")]
)
async def test_without_a_choice_the_telegram_language_still_decides(
    memory_store, default, code, expected
) -> None:
    core = make_core(memory_store, default_locale=default)
    async with telegram_bot(core, locale=default) as (server, bot):
        ayse = server.user(AYSE, "Ayşe", code)
        await bot.feed(server.message_update(server.group(GROUP), ayse, "/balance"))
        assert await core.locale_of("telegram", str(AYSE)) is None
        [prompt] = server.sent_to(GROUP)
        [[button]] = prompt.params["reply_markup"]["inline_keyboard"]
        assert button["text"] == TEXTS[expected]["start_button"]
        await bot.feed(server.press_update(ayse, GROUP, 77, "garbage"))
        [answer] = server.calls_to("answerCallbackQuery")
        assert answer.params["text"] == TEXTS[expected]["bad_button"]
