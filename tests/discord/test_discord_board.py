"""The table message: rapid updates are coalesced into one write, an old or deleted message is
replaced by a new one at the bottom, failures never raise into the game (network faults are
tried again, refusals reported), a channel without Attach Files gets the table as text, and no
table text pings anyone."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from bot.adapters.discord.board import FAULT, MAX_CONTENT, REFUSED, Boards, Render, clip
from testkit.fakes.discord_fakes import FakeClient, HandClock, Log, http_error

CHANNEL = 600_000_000_000_000_001


def make(**kwargs) -> tuple[Boards, FakeClient, HandClock]:
    client = FakeClient(Log())
    clock = HandClock()
    boards = Boards(client.get_partial_messageable, clock=clock, sleep=clock.sleep, **kwargs)
    return boards, client, clock


async def show(boards: Boards, *args, **kwargs) -> None:
    """Show an update and let it be written."""
    boards.show(*args, **kwargs)
    await boards.settle()


def render(text: str) -> Render:
    return Render(text, discord.ui.View(timeout=None))


async def test_a_burst_of_updates_costs_one_write():
    boards, client, clock = make(min_interval=1.0)
    for n in range(5):
        boards.show("7", CHANNEL, render(f"state {n}"))
    await boards.settle()
    channel = client.channels[CHANNEL]
    assert (channel.posts, channel.edits) == (1, 0)
    [message] = channel.live()
    assert message.content == "state 4"
    for n in range(5, 10):  # right after a write: wait, then write only the newest state
        boards.show("7", CHANNEL, render(f"state {n}"))
    await boards.settle()
    assert (channel.posts, channel.edits) == (1, 1)
    assert message.content == "state 9"
    assert clock.slept == [1.0]


async def test_updates_spaced_out_are_each_written_at_once():
    boards, client, clock = make(min_interval=1.0)
    for n in range(3):
        boards.show("7", CHANNEL, render(f"state {n}"))
        await boards.settle()
        clock.now += 2
    channel = client.channels[CHANNEL]
    assert (channel.posts, channel.edits) == (1, 2)
    assert clock.slept == []


async def test_an_old_message_is_reposted_and_the_old_one_deleted():
    boards, client, clock = make(min_interval=0, repost_after=600)
    await show(boards, "7", CHANNEL, render("first"))
    clock.now += 601
    await show(boards, "7", CHANNEL, render("second"))
    channel = client.channels[CHANNEL]
    assert channel.posts == 2 and channel.edits == 0
    assert [m.content for m in channel.live()] == ["second"]


async def test_fresh_posts_at_the_bottom():
    boards, client, _ = make(min_interval=0)
    await show(boards, "7", CHANNEL, render("first"))
    await show(boards, "7", CHANNEL, render("again"), fresh=True)
    channel = client.channels[CHANNEL]
    assert channel.posts == 2 and [m.content for m in channel.live()] == ["again"]


async def test_a_deleted_message_is_posted_again():
    boards, client, _ = make(min_interval=0)
    await show(boards, "7", CHANNEL, render("first"))
    channel = client.channels[CHANNEL]
    for message in channel.live():
        message.deleted = True  # a moderator removed it
    await show(boards, "7", CHANNEL, render("second"))
    assert [m.content for m in channel.live()] == ["second"]


async def test_tables_in_two_channels_do_not_mix():
    boards, client, _ = make(min_interval=0)
    await show(boards, "7", CHANNEL, render("seven"))
    await show(boards, "8", CHANNEL + 1, render("eight"))
    await show(boards, "7", CHANNEL, render("seven again"))
    assert [m.content for m in client.channels[CHANNEL].live()] == ["seven again"]
    assert [m.content for m in client.channels[CHANNEL + 1].live()] == ["eight"]
    assert boards.channel_id("8") == CHANNEL + 1 and boards.channel_id("9") is None


async def test_a_failing_channel_is_logged_not_raised(caplog):
    boards, client, _ = make(min_interval=0)
    channel = client.get_partial_messageable(CHANNEL)

    async def refuse(*args, **kwargs):
        raise http_error(discord.Forbidden, 403, 50013)

    channel.send = refuse
    await show(boards, "7", CHANNEL, render("hidden"))
    assert channel.live() == []
    assert "table_write_failed" in caplog.text


def test_long_text_is_clipped_to_discord_limit():
    assert len(clip("x" * 5000)) == MAX_CONTENT
    assert clip("short") == "short"


async def test_the_picture_goes_with_the_post_and_each_edit():
    boards, client, _ = make(min_interval=0)
    png = b"\x89PNG fake bytes"
    await show(boards, "7", CHANNEL, Render("with picture", None, png))
    channel = client.channels[CHANNEL]
    [message] = channel.live()
    [attached] = message.files
    assert attached.filename == "table.png" and attached.fp.read() == png
    edits: list[dict] = []
    partial = channel.get_partial_message(message.id)
    original_edit = partial.edit

    async def record(**kwargs):
        edits.append(kwargs)
        await original_edit(**kwargs)

    channel.get_partial_message = lambda message_id: type(
        "P", (), {"edit": staticmethod(record), "delete": partial.delete}
    )()
    await show(boards, "7", CHANNEL, Render("still", None, png))
    [edit] = edits
    assert edit["content"] == "still" and edit["attachments"][0].fp.read() == png


@pytest.mark.parametrize(
    "fault",
    [
        ConnectionResetError(104, "Connection reset by peer"),
        aiohttp.ServerDisconnectedError(),
        TimeoutError(),
    ],
    ids=["reset", "disconnected", "timeout"],
)
async def test_a_network_fault_is_tried_again_with_the_newest_state(fault):
    boards, client, clock = make(min_interval=0, retry_after=2.0)
    channel = client.get_partial_messageable(CHANNEL)
    channel.faults = [fault]
    told: list[str] = []

    async def failed(reason: str) -> None:
        told.append(reason)

    boards.show("7", CHANNEL, render("first"), on_failed=failed)
    await boards.settle()
    assert [m.content for m in channel.live()] == ["first"]
    assert clock.slept == [2.0] and told == []


async def test_a_channel_that_keeps_failing_is_given_up_and_reported():
    boards, client, _ = make(min_interval=0, max_faults=3)
    channel = client.get_partial_messageable(CHANNEL)
    channel.faults = [ConnectionResetError(104, "reset")] * 3
    told: list[str] = []

    async def failed(reason: str) -> None:
        told.append(reason)

    boards.show("7", CHANNEL, render("lost"), on_failed=failed)
    await boards.settle()
    assert channel.live() == [] and told == [FAULT]
    await show(boards, "7", CHANNEL, render("back"))  # the network is back: the next one shows
    assert [m.content for m in channel.live()] == ["back"]


async def test_a_refusal_is_reported_at_once():
    boards, client, clock = make(min_interval=0)
    channel = client.get_partial_messageable(CHANNEL)
    channel.faults = [http_error(discord.Forbidden, 403, 50013)]
    told: list[str] = []

    async def failed(reason: str) -> None:
        told.append(reason)

    boards.show("7", CHANNEL, render("no"), on_failed=failed)
    await boards.settle()
    assert told == [REFUSED] and clock.slept == []


async def test_without_attach_files_the_table_is_posted_and_edited_as_text():
    boards, client, clock = make(min_interval=0, text_only_for=600)
    channel = client.get_partial_messageable(CHANNEL)
    channel.refuse_files = True
    png = b"\x89PNG fake bytes"
    await show(boards, "7", CHANNEL, Render("table one", None, png))
    [message] = channel.live()
    assert message.content == "table one" and message.files == []
    await show(boards, "7", CHANNEL, Render("table two", None, png))
    assert message.content == "table two"
    clock.now += 601  # the permission may have been given since: pictures are tried again
    channel.refuse_files = False
    await show(boards, "7", CHANNEL, Render("table three", None, png))
    [edit] = [d for d in client.log.deliveries if d.text == "table three"]
    assert edit.how == "edit"
    assert channel.messages[message.id].content == "table three"


async def test_a_refused_picture_on_an_edit_falls_back_to_text():
    boards, client, _ = make(min_interval=0)
    channel = client.get_partial_messageable(CHANNEL)
    await show(boards, "7", CHANNEL, Render("with picture", None, b"png"))
    channel.refuse_files = True  # the permission was taken away meanwhile
    await show(boards, "7", CHANNEL, Render("text now", None, b"png"))
    assert [m.content for m in channel.live()] == ["text now"]


async def test_table_texts_ping_nobody():
    boards, client, _ = make(min_interval=0)
    await show(boards, "7", CHANNEL, render("@everyone sits down"))
    await show(boards, "7", CHANNEL, render("@everyone checks"))
    writes = client.log.deliveries
    assert [d.how for d in writes] == ["send", "edit"]
    for delivery in writes:
        mentions = delivery.allowed_mentions
        assert mentions is not None
        assert mentions.to_dict() == {"parse": []}
