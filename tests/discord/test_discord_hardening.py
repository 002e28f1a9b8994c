"""Hardening at the Discord edge (issue 15), each through the real discord.py pieces that had the
bug: the amount modal found by its custom id in discord.py's `ViewStore`, network faults raised
where discord.py raises them, commands looked up by the real command tree, and the client's own
options. Every interaction ends answered, whatever the transport does."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from bot.adapters.discord import DiscordAdapter, DiscordBot
from bot.adapters.discord.texts import TEXTS
from bot.core.messages import Button, Outgoing, OutKind
from testkit.fakes.core import NarrowCore
from testkit.fakes.discord_fakes import DiscordHarness, http_error, quick_boards

CHANNEL = 500_000_000_000_000_011
AYSE, MEHMET, ZEYNEP = 301, 302, 303
RAISE = Button("Raise", "T1", "raise", "n1", needs="amount", min_amount=20, max_amount=90)
FAULTS = [
    ConnectionResetError(104, "Connection reset by peer"),
    aiohttp.ServerDisconnectedError(),
    TimeoutError(),
]
FAULT_IDS = ["reset", "disconnected", "timeout"]


class TurnCore(NarrowCore):
    """Ayşe is to act at table T1; everyone else is refused. Records every press."""

    def __init__(self) -> None:
        self.presses: list[tuple[str, tuple[str, ...]]] = []
        self.lookups = 0

    async def handle(self, command):
        return [
            Outgoing(OutKind.PRIVATE, "your balance: 100", user_id=command.user_id),
            Outgoing(OutKind.EDIT_TABLE, "table T1", channel_id=str(CHANNEL), table_id="T1"),
        ]

    async def press(self, press):
        self.presses.append((press.user_id, press.args))
        if press.user_id != str(AYSE):
            return [Outgoing(OutKind.ERROR, "It is not your turn.", user_id=press.user_id)]
        return [
            Outgoing(
                OutKind.EDIT_TABLE, f"Ayşe raises to {press.args[0]}", str(CHANNEL), None, "T1"
            )
        ]

    async def locale_of(self, platform, user_id):
        self.lookups += 1
        return None


def build(core, **kwargs) -> DiscordHarness:
    adapter = DiscordAdapter(
        core,
        default_locale="en",
        boards=quick_boards(),
        retry_pause=0,
        **kwargs,
    )
    adapter.buttons["T1"] = {RAISE.custom_id: RAISE}
    return DiscordHarness(adapter)


def seen_in(harness: DiscordHarness, interaction) -> list:
    return [d for d in harness.log.deliveries if d.interaction == interaction.id]


async def test_two_users_with_the_same_amount_modal_open_each_get_their_own():
    core = TurnCore()
    harness = build(core)
    ayse, zeynep = harness.user(AYSE, "Ayşe"), harness.user(ZEYNEP, "Zeynep")
    await harness.press(ayse, "t:T1:raise:n1:a", None)  # the player to act opens the modal
    await harness.press(zeynep, "t:T1:raise:n1:a", None)  # a spectator opens the same one
    ayses = await harness.submit_modal(ayse, "60")
    zeyneps = await harness.submit_modal(zeynep, "25")
    assert core.presses == [(str(AYSE), ("60",)), (str(ZEYNEP), ("25",))]
    [refusal] = seen_in(harness, zeyneps)
    assert (refusal.audience, refusal.target) == ("ephemeral", ZEYNEP)
    assert seen_in(harness, ayses) == []  # a silent update; the table says the rest
    assert harness.log.channel_texts(CHANNEL) == ["Ayşe raises to 60"]
    assert harness.unanswered() == []


async def test_nothing_is_looked_up_before_the_amount_modal():
    core = TurnCore()
    harness = build(core)
    ayse = harness.user(AYSE, "Ayşe")
    pressed = await harness.press(ayse, "t:T1:raise:n1:a", None, locale="tr")
    assert pressed.response.kind == "send_modal" and core.lookups == 0
    modal, _ = harness.modals[AYSE]
    label = modal.amount.to_component_dict()["label"]
    assert label == TEXTS["tr"]["amount_label"].format(min=20, max=90)  # Discord's locale


@pytest.mark.parametrize("fault", FAULTS, ids=FAULT_IDS)
async def test_a_network_fault_on_the_channel_still_answers_and_sends_the_rest(fault):
    class Core(TurnCore):
        async def handle(self, command):
            return [
                Outgoing(OutKind.EDIT_TABLE, "table T1", str(CHANNEL), None, "T1"),
                Outgoing(OutKind.PUBLIC, "Hand 3 starts.", str(CHANNEL), None, "T1"),
                Outgoing(OutKind.PRIVATE, "Mehmet's cards", user_id=str(MEHMET), table_id="T1"),
            ]

    harness = build(Core())
    ayse, _ = harness.user(AYSE, "Ayşe"), harness.user(MEHMET, "Mehmet")
    channel = harness.channel(CHANNEL)
    channel.faults = [fault] * 10  # Discord is unreachable from this channel for a while
    started = await harness.slash(ayse, "poker start", CHANNEL)
    [notice] = seen_in(harness, started)
    assert notice.audience == "ephemeral" and notice.target == AYSE
    assert notice.text == TEXTS["en"]["channel_failed"]
    assert harness.log.seen_by(MEHMET) == ["Mehmet's cards"]  # the DM went out all the same
    assert started.original_resolved  # "thinking..." was resolved
    assert harness.unanswered() == []


@pytest.mark.parametrize("fault", FAULTS, ids=FAULT_IDS)
async def test_a_lost_answer_or_acknowledgement_is_tried_once_more(fault):
    harness = build(TurnCore())
    ayse = harness.user(AYSE, "Ayşe")
    harness.client.faults = [fault]  # the deferral's connection is reset
    first = await harness.slash(ayse, "balance", CHANNEL)
    assert first.response.kind == "defer"
    assert [d.text for d in seen_in(harness, first)] == ["your balance: 100"]
    third = harness.interaction(ayse, CHANNEL)

    async def defer_then_fail(*args, **kwargs):  # then the answer's first try is lost
        done = await original(*args, **kwargs)
        harness.client.faults.append(fault)
        return done

    original = third.response.defer
    third.response.defer = defer_then_fail
    await harness.adapter.run_command(third, "balance", ())
    assert [d.text for d in seen_in(harness, third)] == ["your balance: 100"]


async def test_a_refused_channel_is_reported_to_the_sender_after_the_answer():
    harness = build(TurnCore())
    ayse = harness.user(AYSE, "Ayşe")
    harness.channel(CHANNEL).faults = [http_error(discord.Forbidden, 403, 50013)]
    asked = await harness.slash(ayse, "balance", CHANNEL)
    texts = [d.text for d in seen_in(harness, asked)]
    assert texts == ["your balance: 100", TEXTS["en"]["cannot_post"]]
    assert all(d.audience == "ephemeral" for d in seen_in(harness, asked))


@pytest.mark.parametrize(
    "data",
    [
        {"name": "poker", "type": 1, "options": [{"name": "sitout", "type": 1, "options": []}]},
        {"name": "casino", "type": 1, "options": []},
    ],
    ids=["renamed-subcommand", "left-over-command"],
)
async def test_a_command_this_build_lacks_is_answered_ephemerally(data):
    harness = build(TurnCore())
    ayse = harness.user(AYSE, "Ayşe")
    asked = await harness.dispatch_command(ayse, data, CHANNEL, locale="tr")
    [answer] = seen_in(harness, asked)
    assert (answer.audience, answer.target) == ("ephemeral", AYSE)
    assert answer.text == TEXTS["tr"]["unknown_command"]
    assert harness.unanswered() == []


async def test_a_known_command_still_runs_through_the_tree():
    harness = build(TurnCore())
    ayse = harness.user(AYSE, "Ayşe")
    asked = await harness.dispatch_command(ayse, {"name": "balance", "type": 1}, CHANNEL)
    assert [d.text for d in seen_in(harness, asked)] == ["your balance: 100"]


async def test_without_attach_files_the_table_and_public_pictures_come_as_text():
    class PictureCore(TurnCore):
        async def handle(self, command):
            return [
                Outgoing(OutKind.EDIT_TABLE, "table T1", str(CHANNEL), None, "T1", picture=b"1"),
                Outgoing(OutKind.PUBLIC, "Showdown", str(CHANNEL), None, "T1", picture=b"2"),
            ]

    harness = build(PictureCore())
    channel = harness.channel(CHANNEL)
    channel.refuse_files = True
    asked = await harness.slash(harness.user(AYSE, "Ayşe"), "poker start", CHANNEL)
    assert [m.content for m in channel.live()] == ["table T1", "Showdown"]
    assert all(m.files == [] for m in channel.live())
    assert seen_in(harness, asked) == []  # nothing to complain about: the table is there


async def test_nobody_is_pinged_by_a_nickname():
    class NickCore(TurnCore):
        async def handle(self, command):
            return [
                Outgoing(OutKind.EDIT_TABLE, "@everyone sits down", str(CHANNEL), None, "T1"),
                Outgoing(OutKind.PUBLIC, "@here wins 40", str(CHANNEL), None, "T1"),
            ]

    harness = build(NickCore())
    await harness.slash(harness.user(AYSE, "@everyone"), "poker start", CHANNEL)
    writes = [d for d in harness.log.deliveries if d.audience == "channel"]
    assert len(writes) == 2
    assert all(d.allowed_mentions.to_dict() == {"parse": []} for d in writes)
    client = DiscordBot(DiscordAdapter(TurnCore()), start_core=False)
    assert client.allowed_mentions is not None
    assert client.allowed_mentions.to_dict() == {"parse": []}
