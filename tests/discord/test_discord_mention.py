"""A relaxed table's call (issue 37): the core's PUBLIC item with a `Mention` becomes a channel
message that starts with `<@id>` and pings that user only; other announcements ping nobody."""

from __future__ import annotations

import discord

from bot.core.messages import Mention, Outgoing, OutKind
from tests.discord.test_discord_quiet import AYSE, CHANNEL, MEHMET, Scripted, build, table


async def test_a_call_pings_only_the_player_to_act():
    batch = [
        Outgoing(OutKind.PUBLIC, "Hand 7 starts.", str(CHANNEL), None, "T1"),
        Outgoing(
            OutKind.PUBLIC,
            "Mehmet, your turn at table 1 runs out in 60 minutes.",
            str(CHANNEL),
            None,
            "T1",
            mention=Mention(str(MEHMET), "Mehmet"),
        ),
        table("table"),
    ]
    harness = build(Scripted(batch))
    ayse, _ = harness.user(AYSE, "Ayşe"), harness.user(MEHMET, "Mehmet")
    await harness.slash(ayse, "poker start", CHANNEL)
    live = harness.channel(CHANNEL).live()
    [call] = [m for m in live if f"<@{MEHMET}>" in m.content]
    assert call.content == f"<@{MEHMET}>, your turn at table 1 runs out in 60 minutes."
    mentions = call.allowed_mentions
    assert isinstance(mentions, discord.AllowedMentions)
    assert mentions.everyone is False and mentions.roles is False
    assert [u.id for u in mentions.users] == [MEHMET]
    [start] = [m for m in live if m.content == "Hand 7 starts."]
    assert start.allowed_mentions.to_dict() == {"parse": []}  # announcements ping nobody
