"""Closed tables are forgotten (issue 25): tables opened, dealt and reset in several channels
through the real core and the fake Discord client leave nothing in the adapter's maps after
`prune` (table boards, groups, buttons, parts kept for a player whose DMs are closed); a
refused DM is tried again after `DM_CLOSED_SECONDS`; per-user maps are bounded."""

from __future__ import annotations

import discord

from bot.adapters.discord import DiscordAdapter
from bot.adapters.discord.adapter import DM_CLOSED_SECONDS, MAX_USERS
from testkit.fakes.discord_fakes import DiscordHarness, HandClock, quick_boards
from testkit.helpers import make_core

CHANNELS = [500_000_000_000_000_100 + i for i in range(4)]
AYSE, MEHMET = 101, 102
MODERATOR = {"permissions": discord.Permissions(manage_guild=True)}


async def test_closed_tables_leave_nothing_behind(memory_store) -> None:
    core = make_core(memory_store, default_locale="en")
    clock = HandClock()
    harness = DiscordHarness(DiscordAdapter(core, boards=quick_boards(), clock=clock))
    adapter = harness.adapter
    ayse = harness.user(AYSE, "Ayşe")
    mehmet = harness.user(MEHMET, "Mehmet", dms_open=False)  # his cards wait in the inbox
    for channel in CHANNELS:
        await harness.slash(ayse, "poker open", channel, game="turkish", ante=10)
        await harness.slash(ayse, "poker join", channel, buy_in=200)
        await harness.slash(mehmet, "poker join", channel, buy_in=200)
        await harness.slash(ayse, "poker start", channel)
    assert len(adapter.groups) == len(CHANNELS) and str(MEHMET) in adapter.inbox
    assert str(MEHMET) in adapter.dm_closed
    assert adapter.prune() == 0  # every table still plays
    for channel in CHANNELS:
        await harness.slash(ayse, "table reset", channel, reason=None, _kw=MODERATOR)
    assert core.tables.tables == {}
    assert adapter.prune() == len(CHANNELS)
    assert adapter.groups == {} and adapter.buttons == {} and adapter.rooms_of == {}
    assert [t for t in adapter.boards.boards if not t.startswith("t")] == []
    assert str(MEHMET) not in adapter.inbox
    assert adapter.told == set()
    clock.now += DM_CLOSED_SECONDS
    assert str(MEHMET) not in adapter.dm_closed  # tried again: he may have opened his DMs
    assert len(adapter.dm_closed) == 0


async def test_per_user_maps_are_bounded(memory_store) -> None:
    clock = HandClock()
    adapter = DiscordAdapter(make_core(memory_store), boards=quick_boards(), clock=clock)
    for user in range(MAX_USERS + 10):
        adapter.dm_closed.add(str(user))
        adapter.locales[str(user)] = "en"
    assert len(adapter.dm_closed) == len(adapter.locales) == MAX_USERS
    assert "0" not in adapter.dm_closed and str(MAX_USERS + 9) in adapter.dm_closed
