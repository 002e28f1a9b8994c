"""Several Discord processes share each table's one message through the store: the next update
written by another process edits the message the first one posted, a fresh post retires the other
process's message, an older state never replaces a newer one, a restart posts the table again
(deleting the stored old one), and one process alone reads the store only on a miss."""

from __future__ import annotations

from typing import Any

import discord

from bot.adapters.discord.adapter import DiscordAdapter
from bot.adapters.discord.board import Boards, Render
from bot.adapters.surfaces import SharedMessages
from bot.core.messages import Outgoing, OutKind
from storage import Store
from testkit.fakes.core import NarrowCore
from testkit.fakes.discord_fakes import FakeChannel, FakeClient, HandClock, Log, quick_boards
from testkit.shared_store import BrokenStore, CountingStore

CHANNEL = 600_000_000_000_000_001
TABLE = "7"


def process(client: FakeClient, store: Any) -> Boards:
    """One bot process's table boards (its own memory) on the shared fake Discord and store."""
    clock = HandClock()
    return Boards(
        client.get_partial_messageable,
        min_interval=0,
        clock=clock,
        sleep=clock.sleep,
        shared=SharedMessages(store, "discord"),
    )


async def show(boards: Boards, version: int, *, fresh: bool = False, text: str = "") -> None:
    boards.show(TABLE, CHANNEL, render(version, text), fresh=fresh)
    await boards.settle()


def render(version: int, text: str = "") -> Render:
    return Render(text or f"table at v{version}", discord.ui.View(timeout=None), version=version)


def channel_of(client: FakeClient) -> FakeChannel:
    return client.channels[CHANNEL]


async def test_the_next_update_written_by_another_process_edits_the_same_message(
    memory_store: Store,
) -> None:
    client = FakeClient(Log())
    a, b = process(client, memory_store), process(client, memory_store)
    await show(a, 1)
    await show(b, 2)
    channel = channel_of(client)
    assert (channel.posts, channel.edits) == (1, 1)
    assert [m.content for m in channel.live()] == ["table at v2"]
    await show(a, 3)
    assert (channel.posts, channel.edits) == (1, 2)


async def test_one_process_reads_the_store_only_on_a_miss(memory_store: Store) -> None:
    counting = CountingStore(memory_store)
    client = FakeClient(Log())
    a = process(client, counting)
    await show(a, 1)
    assert counting.calls == ["read", "write"]
    for version in range(2, 7):
        await show(a, version)
    assert counting.calls == ["read", "write"]  # moves cost no store call
    await show(a, 7, fresh=True)
    assert counting.calls == ["read", "write", "write"]
    [newest] = channel_of(client).live()
    stored = await memory_store.table_message("discord", TABLE)
    assert stored is not None and (stored.message_id, stored.version) == (str(newest.id), 7)


async def test_a_fresh_post_by_another_process_retires_the_old_message(
    memory_store: Store,
) -> None:
    client = FakeClient(Log())
    a, b = process(client, memory_store), process(client, memory_store)
    await show(a, 1)
    await show(b, 2, fresh=True)
    channel = channel_of(client)
    [second] = channel.live()
    assert second.content == "table at v2" and channel.posts == 2
    await show(a, 3)  # A's message is gone: A reads the store and edits B's
    assert [m.id for m in channel.live()] == [second.id]
    assert second.content == "table at v3" and channel.posts == 2


async def test_an_older_state_never_replaces_a_newer_one(memory_store: Store) -> None:
    client = FakeClient(Log())
    a, b = process(client, memory_store), process(client, memory_store)
    await show(a, 5, fresh=True)
    channel = channel_of(client)
    [newer] = channel.live()
    await show(b, 4, fresh=True)  # late: B posts, loses the compare-and-set, deletes its own
    assert [m.id for m in channel.live()] == [newer.id]
    assert newer.content == "table at v5"
    await show(b, 6)
    assert [m.content for m in channel.live()] == ["table at v6"]


async def test_a_restarted_process_posts_the_table_again_and_deletes_the_old_one(
    memory_store: Store,
) -> None:
    client = FakeClient(Log())
    before, after = process(client, memory_store), process(client, memory_store)
    await show(before, 3)
    await show(after, 3, fresh=True, text="table at v3\nThe table is back")
    [again] = channel_of(client).live()
    assert again.content.endswith("The table is back")
    stored = await memory_store.table_message("discord", TABLE)
    assert stored is not None and stored.message_id == str(again.id)


async def test_a_failing_store_never_stops_the_table() -> None:
    client = FakeClient(Log())
    a = process(client, BrokenStore())
    await show(a, 1)
    await show(a, 2)
    channel = channel_of(client)
    assert (channel.posts, channel.edits) == (1, 1)


async def test_the_adapter_hands_the_version_and_the_store_to_its_boards(
    memory_store: Store,
) -> None:
    client = FakeClient(Log())
    adapters = []
    for _ in range(2):
        adapter = DiscordAdapter(NarrowCore(), boards=quick_boards(), table_messages=memory_store)
        adapter.attach(client)
        adapters.append(adapter)
    for version, adapter in enumerate(adapters, start=1):
        item = Outgoing(
            OutKind.EDIT_TABLE, f"v{version}", str(CHANNEL), table_id=TABLE, version=version
        )
        await adapter.deliver([item])
        await adapter.boards.settle()
    channel = channel_of(client)
    assert (channel.posts, channel.edits) == (1, 1)
    stored = await memory_store.table_message("discord", TABLE)
    assert stored is not None and stored.version == 1  # edits are not written
