"""The table message: rapid updates are coalesced into one edit, an old or deleted message is
replaced by a new one at the bottom, and failures never raise into the game."""

from __future__ import annotations

import discord

from bot.adapters.discord.board import MAX_CONTENT, Boards, Render, clip
from tests.fakes.discord_fakes import FakeClient, Log, http_error

CHANNEL = 600_000_000_000_000_001


class HandClock:
    """Seconds the test moves by hand; `sleep` moves it instead of waiting."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def make(**kwargs) -> tuple[Boards, FakeClient, HandClock]:
    client = FakeClient(Log())
    clock = HandClock()
    boards = Boards(client.get_partial_messageable, clock=clock, sleep=clock.sleep, **kwargs)
    return boards, client, clock


def render(text: str) -> Render:
    return Render(text, discord.ui.View(timeout=None))


async def test_a_burst_of_updates_costs_one_post_and_one_edit():
    boards, client, clock = make(min_interval=1.0)
    for n in range(5):
        await boards.show("7", CHANNEL, render(f"state {n}"))
    await boards.settle()
    channel = client.channels[CHANNEL]
    assert (channel.posts, channel.edits) == (1, 1)
    [message] = channel.live()
    assert message.content == "state 4"
    assert clock.slept == [1.0]


async def test_updates_spaced_out_are_each_written_at_once():
    boards, client, clock = make(min_interval=1.0)
    for n in range(3):
        await boards.show("7", CHANNEL, render(f"state {n}"))
        clock.now += 2
    channel = client.channels[CHANNEL]
    assert (channel.posts, channel.edits) == (1, 2)
    assert clock.slept == []


async def test_an_old_message_is_reposted_and_the_old_one_deleted():
    boards, client, clock = make(min_interval=0, repost_after=600)
    await boards.show("7", CHANNEL, render("first"))
    clock.now += 601
    await boards.show("7", CHANNEL, render("second"))
    channel = client.channels[CHANNEL]
    assert channel.posts == 2 and channel.edits == 0
    assert [m.content for m in channel.live()] == ["second"]


async def test_fresh_posts_at_the_bottom():
    boards, client, _ = make(min_interval=0)
    await boards.show("7", CHANNEL, render("first"))
    await boards.show("7", CHANNEL, render("again"), fresh=True)
    channel = client.channels[CHANNEL]
    assert channel.posts == 2 and [m.content for m in channel.live()] == ["again"]


async def test_a_deleted_message_is_posted_again():
    boards, client, _ = make(min_interval=0)
    await boards.show("7", CHANNEL, render("first"))
    channel = client.channels[CHANNEL]
    for message in channel.live():
        message.deleted = True  # a moderator removed it
    await boards.show("7", CHANNEL, render("second"))
    assert [m.content for m in channel.live()] == ["second"]


async def test_tables_in_two_channels_do_not_mix():
    boards, client, _ = make(min_interval=0)
    await boards.show("7", CHANNEL, render("seven"))
    await boards.show("8", CHANNEL + 1, render("eight"))
    await boards.show("7", CHANNEL, render("seven again"))
    assert [m.content for m in client.channels[CHANNEL].live()] == ["seven again"]
    assert [m.content for m in client.channels[CHANNEL + 1].live()] == ["eight"]
    assert boards.channel_id("8") == CHANNEL + 1 and boards.channel_id("9") is None


async def test_a_failing_channel_is_logged_not_raised(caplog):
    boards, client, _ = make(min_interval=0)
    channel = client.get_partial_messageable(CHANNEL)

    async def refuse(*args, **kwargs):
        raise http_error(discord.Forbidden, 403, 50013)

    channel.send = refuse
    await boards.show("7", CHANNEL, render("hidden"))
    assert channel.live() == []
    assert "table_post_failed" in caplog.text


def test_long_text_is_clipped_to_discord_limit():
    assert len(clip("x" * 5000)) == MAX_CONTENT
    assert clip("short") == "short"


async def test_the_picture_goes_with_the_post_and_each_edit():
    boards, client, _ = make(min_interval=0)
    png = b"\x89PNG fake bytes"
    await boards.show("7", CHANNEL, Render("with picture", None, png))
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
    await boards.show("7", CHANNEL, Render("still", None, png))
    [edit] = edits
    assert edit["content"] == "still" and edit["attachments"][0].fp.read() == png
