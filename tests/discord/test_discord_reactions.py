"""Reactions through Discord (issue 37): the table message's `😀` opens the reactions as an
ephemeral reply only the presser sees; a reaction pressed there is acknowledged and costs the
channel nothing until the table message's next edit, which shows it in the last moves. Someone
not seated is refused privately."""

from __future__ import annotations

from bot.core.reactions import REACTIONS
from testkit.helpers import make_core
from tests.discord.test_discord_play import (
    AYSE,
    CHANNEL,
    MEHMET,
    ZEYNEP,
    build,
    seat_two,
    session_of,
    turn_ids,
)


async def test_the_ephemeral_picker_and_a_reaction_folded_into_the_next_edit(memory_store):
    core = make_core(memory_store, seed="discord-reactions")
    harness, spy = build(core)
    ayse, mehmet = harness.user(AYSE, "Ayşe"), harness.user(MEHMET, "Mehmet")
    zeynep = harness.user(ZEYNEP, "Zeynep")
    await seat_two(harness, ayse, mehmet)
    await harness.slash(ayse, "poker start", CHANNEL)
    message = harness.channel(CHANNEL).table_message()
    ids = turn_ids(harness)
    assert message.labels()[ids["r"]] == "😀"
    channel_before = len(harness.log.channel_texts(CHANNEL))
    live = spy.core.tables.in_channel("discord", str(CHANNEL))
    version = live.version

    picker = await harness.press(mehmet, ids["r"], message)
    [shown] = [d for d in harness.log.deliveries if d.interaction == picker.id]
    assert shown.audience == "ephemeral" and shown.target == MEHMET and shown.view
    reaction_ids = [c.custom_id for c in shown.view.children]
    assert [cid.split(":")[2] for cid in reaction_ids] == [f"r.{r.value}" for r in REACTIONS]
    clap = next(cid for cid in reaction_ids if cid.split(":")[2] == "r.clap")
    pressed = await harness.press(mehmet, clap, picker.original)
    assert harness.unanswered() == []
    assert not [d for d in harness.log.deliveries if d.interaction == pressed.id and d.text]
    assert len(harness.log.channel_texts(CHANNEL)) == channel_before
    assert live.version == version

    refused = await harness.press(zeynep, ids["r"], message)
    [told] = [d for d in harness.log.deliveries if d.interaction == refused.id]
    assert told.audience == "ephemeral" and told.target == ZEYNEP
    assert "Only the players sitting at this table" in told.text
    assert len(harness.log.channel_texts(CHANNEL)) == channel_before

    session = session_of(spy)
    user = ayse if session.seats[session.actor()].user_id == str(AYSE) else mehmet
    move = next(a for a in ("pass", "check", "call") if a in ids)
    await harness.press(user, ids[move], message)
    assert any("Mehmet: 👏" in text for text in harness.log.channel_texts(CHANNEL)[channel_before:])
