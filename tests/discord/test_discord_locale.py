"""The Discord adapter's own words follow the core's language rule: the player's Discord locale
when it is Turkish or English, else the bot's DEFAULT_LOCALE (a table's language for notices
about a table); the core gets the same normalised locale (None for anything else)."""

from __future__ import annotations

import discord
import pytest

from bot.adapters.discord import DiscordAdapter
from bot.adapters.discord.texts import TEXTS, locale_of, text
from bot.core.api import TableInfo
from bot.core.i18n import normalize_locale
from bot.core.messages import Button, Command, Outgoing, OutKind, Press
from testkit.fakes.core import NarrowCore
from testkit.fakes.discord_fakes import DiscordHarness, quick_boards

CHANNEL = 500_000_000_000_000_001
AYSE, MEHMET = 101, 102

# (DEFAULT_LOCALE, the player's Discord locale, the language they must get)
CASES = [
    ("tr", "de", "tr"),
    ("en", "de", "en"),
    ("tr", "pt-BR", "tr"),
    ("en", "tr", "tr"),
    ("tr", "tr", "tr"),
    ("tr", "en-US", "en"),
    ("tr", "en-GB", "en"),
    ("en", "en-US", "en"),
]


class RecordingCore(NarrowCore):
    """A core that records what it is asked and answers nothing (or crashes when `broken`)."""

    def __init__(self, broken: bool = False, table_locale: str | None = None) -> None:
        self.broken = broken
        self.commands: list[Command] = []
        self.presses: list[Press] = []
        self.table_locale = table_locale

    def table_info(self, table_id: str) -> TableInfo:
        return TableInfo(table_id, "discord", "turkish", "poker", self.table_locale or "", "n1")

    async def handle(self, command: Command) -> list[Outgoing]:
        self.commands.append(command)
        if self.broken:
            raise RuntimeError("boom")
        return []

    async def press(self, press: Press) -> list[Outgoing]:
        self.presses.append(press)
        return []


def build(core: RecordingCore, default: str) -> DiscordHarness:
    adapter = DiscordAdapter(core, default_locale=default, boards=quick_boards())
    return DiscordHarness(adapter)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (discord.Locale.turkish, "tr"),
        (discord.Locale.american_english, "en"),
        (discord.Locale.british_english, "en"),
        (discord.Locale.german, None),
        (discord.Locale.brazil_portuguese, None),
        ("tr-TR", "tr"),
        ("EN", "en"),
        ("", None),
        (None, None),
    ],
)
def test_locale_of_normalises_like_the_core(value: object, expected: str | None) -> None:
    assert locale_of(value) == expected
    raw = getattr(value, "value", value)
    assert locale_of(value) == normalize_locale(raw)


def test_text_refuses_a_language_it_does_not_speak() -> None:
    assert text("en", "failed") == TEXTS["en"]["failed"]
    with pytest.raises(ValueError, match="'de'"):
        text("de", "failed")


@pytest.mark.parametrize(("default", "platform", "expected"), CASES)
async def test_crash_notice_follows_the_language_rule(
    default: str, platform: str, expected: str
) -> None:
    core = RecordingCore(broken=True)
    harness = build(core, default)
    ayse = harness.user(AYSE, "Ayşe")
    await harness.slash(ayse, "help", CHANNEL, locale=platform)
    [reply] = harness.log.deliveries
    assert reply.audience == "ephemeral" and reply.target == AYSE
    assert reply.text == TEXTS[expected]["failed"]
    # The core is told the same normalised locale, so it decides the same way.
    [command] = core.commands
    assert command.locale == normalize_locale(platform)


@pytest.mark.parametrize(("default", "platform", "expected"), CASES)
async def test_amount_modal_follows_the_language_rule(
    default: str, platform: str, expected: str
) -> None:
    harness = build(RecordingCore(), default)
    ayse = harness.user(AYSE, "Ayşe")
    raise_button = Button(
        "Raise", "T1", "raise", "n1", needs="amount", min_amount=20, max_amount=90
    )
    harness.adapter.buttons["T1"] = {raise_button.custom_id: raise_button}
    await harness.press(ayse, "t:T1:raise:n1:a", None, locale=platform)
    modal, _ = harness.modals[AYSE]
    assert modal.amount.to_component_dict()["label"] == TEXTS[expected]["amount_label"].format(
        min=20, max=90
    )


@pytest.mark.parametrize(("default", "table"), [("en", "tr"), ("tr", "en"), ("tr", None)])
async def test_closed_dm_notice_speaks_the_table_language(default: str, table: str | None) -> None:
    harness = build(RecordingCore(table_locale=table), default)
    harness.user(MEHMET, "Mehmet", dms_open=False)
    await harness.adapter.deliver(
        [Outgoing(OutKind.EDIT_TABLE, "table", str(CHANNEL), table_id="T1")]
    )
    await harness.settle()
    # Later (a timer, say) the table deals Mehmet cards he cannot get by DM.
    secret = Outgoing(OutKind.PRIVATE, "your cards: Ah Kd", user_id=str(MEHMET), table_id="T1")
    await harness.adapter.deliver([secret])
    await harness.settle()
    expected = table or default
    [notice] = [t for t in harness.log.channel_texts(CHANNEL) if f"<@{MEHMET}>" in t]
    assert notice == TEXTS[expected]["dm_closed"].format(mention=f"<@{MEHMET}>")
    assert "Ah" not in notice
    message = harness.channel(CHANNEL).table_message()
    assert message is not None
    labels = [child.item.label for child in message.view.children]  # dynamic items
    assert TEXTS[expected]["show_hand"] in labels


@pytest.mark.parametrize(
    ("default", "table", "platform", "expected"),
    [("en", "tr", "de", "tr"), ("tr", "en", "de", "en"), ("tr", "en", "tr", "tr")],
)
async def test_amount_modal_of_a_table_falls_back_to_the_table_language(
    default: str, table: str, platform: str, expected: str
) -> None:
    harness = build(RecordingCore(table_locale=table), default)
    ayse = harness.user(AYSE, "Ayşe")
    await harness.press(ayse, "t:T1:bet:n1:a", None, locale=platform)
    modal, _ = harness.modals[AYSE]
    assert modal.amount.to_component_dict()["label"] == TEXTS[expected]["amount_label_open"]
