"""The Telegram adapter's own words follow the core's language rule: the user's Telegram
`language_code` when it is Turkish or English, else the bot's DEFAULT_LOCALE; the core gets the
same normalised locale (None for any other language, never e.g. `de`)."""

from __future__ import annotations

import pytest

from bot.adapters.telegram.parsing import locale_of
from bot.adapters.telegram.texts import TEXTS, text
from bot.core.api import TableInfo
from bot.core.i18n import normalize_locale
from bot.core.messages import Outgoing, OutKind
from testkit.fakes.telegram_harness import ScriptedCore, telegram_bot

GROUP = -100_555
AYSE = 11

# (DEFAULT_LOCALE, the user's Telegram language_code, the language they must get)
CASES = [
    ("tr", "de", "tr"),
    ("en", "de", "en"),
    ("en", "pt-br", "en"),
    ("tr", "tr", "tr"),
    ("en", "tr", "tr"),
    ("tr", "en", "en"),
    ("tr", "en-GB", "en"),
    ("en", "en", "en"),
]


@pytest.mark.parametrize(
    ("code", "expected"),
    [("tr", "tr"), ("TR", "tr"), ("en-GB", "en"), ("de", None), ("pt-br", None), ("", None)],
)
def test_locale_of_normalises_like_the_core(code: str, expected: str | None) -> None:
    assert locale_of(code) == expected == normalize_locale(code)
    assert locale_of(None) is None


def test_text_refuses_a_language_it_does_not_speak() -> None:
    assert text("tr", "bad_button") == TEXTS["tr"]["bad_button"]
    with pytest.raises(ValueError, match="'de'"):
        text("de", "bad_button")


@pytest.mark.parametrize(("default", "code", "expected"), CASES)
async def test_button_refusal_and_greeting_follow_the_language_rule(
    default: str, code: str, expected: str
) -> None:
    core = ScriptedCore()
    async with telegram_bot(core, locale=default) as (server, bot):
        ayse = server.user(AYSE, "Ayşe", code)
        await bot.feed(server.press_update(ayse, GROUP, 77, "garbage"))
        [answer] = server.calls_to("answerCallbackQuery")
        assert answer.params["text"] == TEXTS[expected]["bad_button"]
        await bot.feed(server.message_update(server.private_chat(ayse), ayse, "/start cards"))
        [greeting] = server.sent_to(AYSE)
        assert greeting.params["text"] == TEXTS[expected]["started"]


@pytest.mark.parametrize(("default", "code", "expected"), CASES)
async def test_start_prompt_in_the_group_follows_the_language_rule(
    default: str, code: str, expected: str
) -> None:
    core = ScriptedCore()
    core.on_command["poker"] = lambda c: [
        Outgoing(OutKind.PRIVATE, "Your cards: Ah Kd", c.channel_id, user_id=str(AYSE))
    ]
    async with telegram_bot(core, locale=default) as (server, bot):
        ayse = server.user(AYSE, "Ayşe", code)
        await bot.feed(server.message_update(server.group(GROUP), ayse, "/poker hand"))
        [prompt] = server.sent_to(GROUP)
        assert prompt.params["text"].endswith(TEXTS[expected]["private_only"].split("}", 1)[1])
        [[button]] = prompt.params["reply_markup"]["inline_keyboard"]
        assert button["text"] == TEXTS[expected]["start_button"]
        assert "Ah" not in prompt.visible_text()
        # The core was told the normalised language, or None to decide by itself.
        [command] = core.commands
        assert command.locale == normalize_locale(code)


class TableCore(ScriptedCore):
    """A scripted core whose open table T1 speaks `locale` (read through `core.table_info`)."""

    def __init__(self, locale: str) -> None:
        super().__init__()
        self.locale = locale

    def table_info(self, table_id: str) -> TableInfo | None:
        if table_id != "T1":
            return None
        return TableInfo("T1", "telegram", "turkish", "poker", self.locale, "n1")


@pytest.mark.parametrize(
    ("default", "table", "code", "expected"),
    [("en", "tr", "de", "tr"), ("tr", "en", "de", "en"), ("tr", "en", "tr", "tr")],
)
async def test_start_prompt_about_a_table_falls_back_to_the_table_language(
    default: str, table: str, code: str, expected: str
) -> None:
    core = TableCore(table)
    core.on_command["poker"] = lambda c: [
        Outgoing(
            OutKind.PRIVATE, "Your cards: Ah Kd", c.channel_id, user_id=str(AYSE), table_id="T1"
        )
    ]
    async with telegram_bot(core, locale=default) as (server, bot):
        ayse = server.user(AYSE, "Ayşe", code)
        await bot.feed(server.message_update(server.group(GROUP), ayse, "/poker hand"))
        [prompt] = server.sent_to(GROUP)
        [[button]] = prompt.params["reply_markup"]["inline_keyboard"]
        assert button["text"] == TEXTS[expected]["start_button"]
