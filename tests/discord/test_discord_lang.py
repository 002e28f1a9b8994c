"""The Discord adapter's own words follow a player's `/lang` choice (through the real core's
`locale_of` on the real store) before their Discord locale; without a choice nothing changes."""

from __future__ import annotations

import pytest

from bot.adapters.discord import DiscordAdapter
from bot.adapters.discord.texts import TEXTS
from bot.core.messages import Button, Outgoing, OutKind
from testkit.fakes.discord_fakes import DiscordHarness, quick_boards
from testkit.helpers import make_core

CHANNEL = 500_000_000_000_000_001
AYSE, MEHMET = 101, 102
RAISE = Button("Raise", "T1", "raise", "n1", needs="amount", min_amount=20, max_amount=90)


class PressCrashes:
    """The real core, except that a button press crashes (to get the adapter's own notice)."""

    def __init__(self, core) -> None:
        self.core = core

    def __getattr__(self, name: str):
        return getattr(self.core, name)

    async def press(self, press):
        raise RuntimeError("boom")


def build(core, default: str) -> DiscordHarness:
    adapter = DiscordAdapter(core, default_locale=default, boards=quick_boards())
    adapter.buttons["T1"] = {RAISE.custom_id: RAISE}
    return DiscordHarness(adapter)


async def modal_label(harness: DiscordHarness, user, platform: str) -> str:
    await harness.press(user, "t:T1:raise:n1:a", None, locale=platform)
    modal, _ = harness.modals.pop(user.id)
    return modal.amount.to_component_dict()["label"]


@pytest.mark.parametrize(("platform", "chosen"), [("tr", "en"), ("en-US", "tr"), ("de", "en")])
async def test_lang_choice_beats_the_discord_locale(memory_store, platform, chosen) -> None:
    core = make_core(memory_store, default_locale="tr")
    harness = build(PressCrashes(core), default="tr")
    ayse = harness.user(AYSE, "Ayşe")
    await harness.slash(ayse, "lang", CHANNEL, locale=platform, language=chosen)
    assert await core.locale_of("discord", str(AYSE)) == chosen
    assert await modal_label(harness, ayse, platform) == TEXTS[chosen]["amount_label"].format(
        min=20, max=90
    )
    harness.log.deliveries.clear()
    await harness.press(ayse, "t:T1:fold:n1:-", None, locale=platform)  # the core crashes
    [notice] = harness.log.deliveries
    assert notice.target == AYSE and notice.text == TEXTS[chosen]["failed"]


@pytest.mark.parametrize(
    ("default", "platform", "expected"),
    [("tr", "en-US", "en"), ("en", "tr", "tr"), ("en", "de", "en")],
)
async def test_without_a_choice_the_discord_locale_still_decides(
    memory_store, default, platform, expected
) -> None:
    core = make_core(memory_store, default_locale=default)
    harness = build(core, default)
    ayse = harness.user(AYSE, "Ayşe")
    await harness.slash(ayse, "balance", CHANNEL, locale=platform)  # a player, with no choice
    assert await modal_label(harness, ayse, platform) == TEXTS[expected]["amount_label"].format(
        min=20, max=90
    )


async def test_closed_dm_notice_follows_the_players_choice(memory_store) -> None:
    core = make_core(memory_store, default_locale="tr")
    harness = build(core, default="tr")
    mehmet = harness.user(MEHMET, "Mehmet", dms_open=False)
    await harness.slash(mehmet, "lang", CHANNEL, locale="tr", language="en")
    await harness.adapter.deliver(
        [Outgoing(OutKind.EDIT_TABLE, "table", str(CHANNEL), table_id="T1")]
    )
    await harness.settle()
    # Later (a timer, say) the table deals Mehmet cards he cannot get by DM: the channel is
    # told in his chosen language, not the table's (Turkish here).
    secret = Outgoing(OutKind.PRIVATE, "your cards: Ah Kd", user_id=str(MEHMET), table_id="T1")
    await harness.adapter.deliver([secret])
    await harness.settle()
    [notice] = [t for t in harness.log.channel_texts(CHANNEL) if f"<@{MEHMET}>" in t]
    assert notice == TEXTS["en"]["dm_closed"].format(mention=f"<@{MEHMET}>")
    assert "Ah" not in notice
    message = harness.channel(CHANNEL).table_message()
    assert message is not None  # the table's own button stays in the table's language
    assert TEXTS["tr"]["show_hand"] in [child.item.label for child in message.view.children]


async def test_a_failing_lookup_falls_back_to_the_discord_locale(memory_store) -> None:
    class LookupFails(PressCrashes):
        async def locale_of(self, platform: str, user_id: str) -> str | None:
            raise RuntimeError("database on fire")

    harness = build(LookupFails(make_core(memory_store)), default="tr")
    ayse = harness.user(AYSE, "Ayşe")
    assert await modal_label(harness, ayse, "en-US") == TEXTS["en"]["amount_label"].format(
        min=20, max=90
    )
    await harness.press(ayse, "t:T1:fold:n1:-", None, locale="en-US")  # still answered
    assert [d.text for d in harness.log.deliveries] == [TEXTS["en"]["failed"]]
