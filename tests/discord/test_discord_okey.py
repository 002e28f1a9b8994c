"""An Okey match driven through the Discord adapter: take from the public table message, then
discard or finish with the tile buttons that come with the player's own rack (ephemeral reply,
or DM); `/okey discard` autocompletes from my rack only. Tile buttons never reach the channel."""

from __future__ import annotations

import pytest

from bot.core.registry import GAMES
from testkit.helpers import make_core
from tests.discord.test_discord_play import (
    CHANNEL,
    assert_private_items_stayed_private,
    build,
    session_of,
    turn_ids,
)

pytestmark = pytest.mark.skipif("okey" not in GAMES, reason="the core serves no Okey tables yet")

AYSE, MEHMET = 101, 102
MAX_PRESSES = 400


def tile_buttons(harness, user_id: int):
    """The newest private message to `user_id` with tile buttons: (message view, custom ids)."""
    for delivery in reversed(harness.log.deliveries):
        if delivery.target != user_id or delivery.audience not in ("ephemeral", "dm"):
            continue
        if delivery.view is not None:
            ids = [c.custom_id for c in delivery.view.children]
            if any(":d." in cid or ":f." in cid for cid in ids):
                return ids
    return []


async def test_an_okey_match_through_buttons(memory_store):
    store = memory_store
    harness, spy = build(make_core(store, seed="okey-discord"))
    ayse, mehmet = harness.user(AYSE, "Ayşe"), harness.user(MEHMET, "Mehmet", dms_open=False)
    users = {AYSE: ayse, MEHMET: mehmet}
    await harness.slash(ayse, "okey start", CHANNEL, rounds=1, stake=50)
    await harness.slash(mehmet, "okey join", CHANNEL, locale="tr")
    await harness.slash(ayse, "okey addbot", CHANNEL)
    await harness.slash(ayse, "okey begin", CHANNEL)
    first_round = session_of(spy).hand_no
    moves = 0
    while moves < MAX_PRESSES:
        session = session_of(spy)
        if session is None or session.hand_no != first_round or session.actor() is None:
            break
        seat = session.seats[session.actor()]
        user = users.get(int(seat.user_id)) if seat.user_id.isdigit() else None
        assert user is not None, "computer players act by themselves"
        ids = turn_ids(harness)
        message = harness.channel(CHANNEL).table_message()
        if "ts" in ids:
            await harness.press(user, ids["ts"], message)
        else:
            mine = tile_buttons(harness, user.id)
            if not mine:  # e.g. dealt 15 tiles while DMs are closed: the rack shows them
                hand = next(c for c in message.custom_ids() if c.startswith("h:"))
                await harness.press(user, hand, message)
                mine = tile_buttons(harness, user.id)
            finish = [cid for cid in mine if ":f." in cid]
            choice = finish[0] if finish else next(cid for cid in mine if ":d." in cid)
            await harness.press(user, choice, None)
        moves += 1
    assert moves > 4
    session = session_of(spy)
    assert session is None or session.hand_no != first_round or session.actor() is None
    ended = [t for t in harness.log.channel_texts(CHANNEL) if f"-{first_round} is over" in t]
    assert ended, "the round ended and its seed was shown"
    assert harness.unanswered() == []
    assert_private_items_stayed_private(harness, spy)
    for delivery in harness.log.deliveries:
        if delivery.audience == "channel" and delivery.view is not None:
            ids = [c.custom_id for c in delivery.view.children]
            assert not any(":d." in cid or ":f." in cid for cid in ids), ids
    assert await store.audit() == []


async def test_discard_autocomplete_offers_only_my_rack(memory_store):
    harness, spy = build(make_core(memory_store, seed="okey-auto"))
    ayse, mehmet = harness.user(AYSE, "Ayşe"), harness.user(MEHMET, "Mehmet")
    await harness.slash(ayse, "okey start", CHANNEL)
    await harness.slash(mehmet, "okey join", CHANNEL)
    await harness.slash(ayse, "okey begin", CHANNEL)
    session = session_of(spy)
    for user in (ayse, mehmet):
        choices = await harness.autocomplete(user, "okey discard", "tile", "", CHANNEL)
        index = session.staked.index(
            next(s.player_id for s in session.seats if s.user_id == str(user.id))
        )
        rack = set(session.round.view(index)["hand"])
        assert choices and {c.value for c in choices} == rack
        narrowed = await harness.autocomplete(user, "okey finish", "tile", "r", CHANNEL)
        assert all(c.value.startswith("R") for c in narrowed)
    outsider = harness.user(103, "Zeynep")
    assert await harness.autocomplete(outsider, "okey discard", "tile", "", CHANNEL) == []
