"""A quiet adapter in a busy channel (issue 14): the sender is answered before any channel
traffic, channel posts and table writes queue per channel (paced within Discord's limit, never
holding up an answer or another channel), a slotted private message is edited instead of piling
up, old private turn buttons go once the turn moved on, refusals reach only the sender, and
`flush` settles what is queued."""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.adapters.discord import DiscordAdapter
from bot.adapters.discord.board import Boards
from bot.adapters.discord.outbox import Lanes
from bot.core.messages import Button, Outgoing, OutKind
from testkit.fakes.core import NarrowCore
from testkit.fakes.discord_fakes import DiscordHarness, HandClock

CHANNEL = 500_000_000_000_000_021
OTHER_CHANNEL = 500_000_000_000_000_022
AYSE, MEHMET = 401, 402


class Scripted(NarrowCore):
    """A core answering each command or press with the next scripted batch."""

    def __init__(self, *batches: list[Outgoing]) -> None:
        self.batches = list(batches)

    async def handle(self, command):
        return self.batches.pop(0)

    async def press(self, press):
        return self.batches.pop(0)


def build(core, clock: HandClock | None = None, **kwargs) -> DiscordHarness:
    clock = clock or HandClock()
    boards = Boards(min_interval=0, retry_after=0, clock=clock, sleep=clock.sleep)
    adapter = DiscordAdapter(
        core, default_locale="en", boards=boards, clock=clock, sleep=clock.sleep, **kwargs
    )
    return DiscordHarness(adapter)


def table(text: str, nonce: str = "n1", channel: int = CHANNEL, **kw) -> Outgoing:
    button = Button("Take", "T1", "ts", nonce)
    return Outgoing(OutKind.EDIT_TABLE, text, str(channel), None, "T1", buttons=((button,),), **kw)


def rack(user: int, text: str, nonce: str, slot: str | None = "T1:7") -> Outgoing:
    tiles = ((Button("R5", "T1", "d.R5", nonce), Button("K13", "T1", "d.K13", nonce)),)
    return Outgoing(
        OutKind.PRIVATE, text, user_id=str(user), table_id="T1", buttons=tiles, slot=slot
    )


async def test_the_sender_is_answered_while_the_channel_is_still_busy():
    batch = [
        table("table: Ayşe bets 20"),
        Outgoing(OutKind.PUBLIC, "Hand 7 starts.", str(CHANNEL), None, "T1"),
        Outgoing(OutKind.PRIVATE, "your cards: Ah Kd", user_id=str(AYSE), table_id="T1"),
        Outgoing(OutKind.PRIVATE, "Mehmet's cards", user_id=str(MEHMET), table_id="T1"),
    ]
    harness = build(Scripted(batch))
    harness.auto_settle = False
    ayse, _ = harness.user(AYSE, "Ayşe"), harness.user(MEHMET, "Mehmet")
    channel = harness.channel(CHANNEL)
    channel.gate = asyncio.Event()  # Discord makes this channel wait (a rate limit, say)
    asked = await harness.slash(ayse, "poker start", CHANNEL)
    assert [d.text for d in harness.log.deliveries if d.interaction == asked.id] == [
        "your cards: Ah Kd"
    ]
    await asyncio.sleep(0)
    assert harness.log.seen_by(MEHMET) == ["Mehmet's cards"]  # not held up by the channel
    assert channel.posts == 0
    channel.gate.set()
    await harness.settle()
    assert [m.content for m in channel.live()] == ["table: Ayşe bets 20", "Hand 7 starts."]
    first_channel = next(i for i, d in enumerate(harness.log.deliveries) if d.audience == "channel")
    answer = next(i for i, d in enumerate(harness.log.deliveries) if d.interaction == asked.id)
    assert answer < first_channel


async def test_a_stuck_channel_does_not_hold_up_another_channel():
    harness = build(
        Scripted(
            [Outgoing(OutKind.PUBLIC, "stuck", str(CHANNEL))],
            [Outgoing(OutKind.PUBLIC, "flows", str(OTHER_CHANNEL))],
        )
    )
    harness.auto_settle = False
    ayse = harness.user(AYSE, "Ayşe")
    harness.channel(CHANNEL).gate = asyncio.Event()
    await harness.slash(ayse, "help", CHANNEL)
    await harness.slash(ayse, "help", OTHER_CHANNEL)
    for _ in range(5):
        await asyncio.sleep(0)
    assert harness.log.channel_texts(OTHER_CHANNEL) == ["flows"]
    assert harness.log.channel_texts(CHANNEL) == []
    await harness.adapter.flush(0.05)  # shutdown with a channel that never answers: gives up
    assert harness.adapter.lanes.busy() == 0


async def test_new_posts_are_paced_to_five_per_five_seconds():
    clock = HandClock()
    lanes = Lanes(clock=clock, sleep=clock.sleep)
    posted: list[float] = []

    async def post() -> None:
        await lanes.pace("c")
        posted.append(clock.now)

    for _ in range(12):
        lanes.put("c", post)
    await lanes.settle()
    assert len(posted) == 12
    for start in posted:
        assert len([t for t in posted if start <= t < start + 5.0]) <= 5


async def test_flush_writes_what_is_queued():
    harness = build(Scripted([table("final state"), Outgoing(OutKind.PUBLIC, "bye", str(CHANNEL))]))
    harness.auto_settle = False
    await harness.slash(harness.user(AYSE, "Ayşe"), "poker leave", CHANNEL)
    assert harness.channel(CHANNEL).posts == 0
    await harness.adapter.flush(5)
    assert [m.content for m in harness.channel(CHANNEL).live()] == ["final state", "bye"]


async def test_a_slotted_direct_message_is_edited_not_sent_again():
    harness = build(
        Scripted(
            [rack(MEHMET, "Mehmet's rack, 14 tiles", "n1")],
            [rack(MEHMET, "Mehmet's rack, 15 tiles", "n2")],
            [rack(MEHMET, "Mehmet's next hand", "n3", slot="T1:8")],
        )
    )
    ayse, _ = harness.user(AYSE, "Ayşe"), harness.user(MEHMET, "Mehmet")
    for _ in range(3):
        await harness.slash(ayse, "okey table", CHANNEL)
    dms = [d for d in harness.log.deliveries if d.target == MEHMET]
    assert [(d.how, d.text) for d in dms] == [
        ("dm", "Mehmet's rack, 14 tiles"),
        ("edit_private", "Mehmet's rack, 15 tiles"),
        ("dm", "Mehmet's next hand"),  # another hand: another slot, a new message
        ("edit_private", "Mehmet's rack, 15 tiles"),  # whose buttons are now stale: taken off
    ]
    assert dms[-1].view is None


async def test_a_slotted_ephemeral_reply_is_edited_only_while_the_player_sees_it():
    """An ephemeral reply is in sight only in its own interaction (or when its own button is
    pressed): a newer text of its slot edits it then, else comes as a new reply, so the current
    rack is always where the player looks; the older reply only loses its buttons."""
    clock = HandClock()
    harness = build(
        Scripted(
            [rack(AYSE, "rack one", "n1")],
            [rack(AYSE, "rack two", "n1")],
            [rack(AYSE, "rack three", "n2")],
            [rack(AYSE, "rack four", "n2")],
        ),
        clock,
    )
    ayse = harness.user(AYSE, "Ayşe")
    first = await harness.press(ayse, "t:T1:ts:n1:-", None)  # from the table message
    [shown] = first.sent
    await harness.press(ayse, "t:T1:d.R5:n1:-", shown)  # a tile on that very reply: edited
    steps = [(d.how, d.text, d.interaction, d.seen) for d in harness.log.deliveries]
    assert steps == [
        ("followup", "rack one", first.id, True),
        ("edit_private", "rack two", first.id, True),
    ]
    before = len(harness.log.deliveries)
    third = await harness.press(ayse, "t:T1:ts:n2:-", None)  # the table again: out of sight
    steps = [(d.how, d.text, d.interaction, d.view) for d in harness.log.deliveries[before:]]
    assert steps[0][:3] == ("followup", "rack three", third.id)
    assert steps[1:] == [("edit_private", "rack two", first.id, None)]  # its buttons go
    clock.now += 15 * 60  # the third reply's token is gone: a new message instead
    fourth = await harness.press(ayse, "t:T1:d.K13:n2:-", third.sent[0])
    last = harness.log.deliveries[-1]
    assert (last.how, last.text, last.interaction) == ("followup", "rack four", fourth.id)
    assert harness.unanswered() == []


async def test_another_players_move_never_edits_an_ephemeral_reply():
    """A slotted text caused by someone else's move goes by DM: the player's ephemeral reply of
    that slot belongs to an interaction they are no longer in."""
    harness = build(
        Scripted(
            [rack(AYSE, "Ayşe's rack, 15 tiles", "n1")],
            [table("Mehmet discards", "n2"), rack(AYSE, "Ayşe's rack, 14 tiles", "n2")],
        )
    )
    ayse, mehmet = harness.user(AYSE, "Ayşe"), harness.user(MEHMET, "Mehmet")
    await harness.press(ayse, "t:T1:ts:n1:-", None)
    await harness.press(mehmet, "t:T1:d.R5:n1:-", None)
    mine = [(d.audience, d.how, d.text) for d in harness.log.deliveries if d.target == AYSE]
    assert mine[:2] == [
        ("ephemeral", "followup", "Ayşe's rack, 15 tiles"),
        ("dm", "dm", "Ayşe's rack, 14 tiles"),
    ]
    assert all(d.seen for d in harness.log.deliveries if "14 tiles" in d.text)


async def test_old_private_turn_buttons_go_once_the_turn_moved_on():
    harness = build(
        Scripted(
            [table("Ayşe takes", "n1"), rack(AYSE, "your rack", "n1", slot=None)],
            [table("Ayşe discards R5; Mehmet to play", "n2")],
        )
    )
    ayse = harness.user(AYSE, "Ayşe")
    await harness.press(ayse, "t:T1:ts:n0:-", None)
    [offer] = [d for d in harness.log.deliveries if d.target == AYSE]
    assert offer.view is not None and len(offer.view.children) == 2
    await harness.press(ayse, "t:T1:d.R5:n1:-", None)
    stripped = [d for d in harness.log.deliveries if d.how == "edit_private"]
    assert [(d.target, d.text, d.view) for d in stripped] == [(AYSE, "your rack", None)]


@pytest.mark.parametrize("how", ["slash", "press", "modal", "hand", "draw"])
async def test_refusals_reach_only_the_sender(how):
    class Refuses(NarrowCore):
        async def handle(self, command):
            return [
                Outgoing(OutKind.ERROR, "You are not at this table.", user_id=command.user_id),
                Outgoing(OutKind.ERROR, "someone else's refusal", user_id=str(MEHMET)),
            ]

        async def press(self, press):
            return await self.handle(press)

        async def act(self, table_id, who, nonce, move):
            return await self.handle(who)

    harness = build(Refuses(), dm_fallback=True)
    ayse, _ = harness.user(AYSE, "Ayşe"), harness.user(MEHMET, "Mehmet")
    if how == "slash":
        await harness.slash(ayse, "poker join", CHANNEL)
    elif how == "press":
        await harness.press(ayse, "t:T1:call:n1:-", None)
    elif how == "modal":
        await harness.press(ayse, "t:T1:raise:n1:a", None)
        await harness.submit_modal(ayse, "50")
    elif how == "hand":
        await harness.press(ayse, "h:T1:poker", None)
    else:
        await harness.press(ayse, "t:T1:draw:n1:c3", None)
    assert harness.log.deliveries, "the sender was answered"
    for delivery in harness.log.deliveries:
        assert (delivery.audience, delivery.target) == ("ephemeral", AYSE)
        assert delivery.text == "You are not at this table."
    assert harness.unanswered() == []


async def test_a_closed_dm_notice_carries_no_card_and_pings_only_its_player():
    batch = [
        table("table"),
        Outgoing(OutKind.PRIVATE, "your cards: Ah Kd", user_id=str(MEHMET), table_id="T1"),
    ]
    harness = build(Scripted(batch))
    ayse, _ = harness.user(AYSE, "Ayşe"), harness.user(MEHMET, "Mehmet", dms_open=False)
    await harness.slash(ayse, "poker start", CHANNEL)
    [notice] = [m for m in harness.channel(CHANNEL).live() if f"<@{MEHMET}>" in m.content]
    assert "Ah" not in notice.content and "Kd" not in notice.content
    mentions = notice.allowed_mentions
    assert isinstance(mentions, discord.AllowedMentions)
    assert mentions.everyone is False and mentions.roles is False
    assert [u.id for u in mentions.users] == [MEHMET]
