"""Tournament rooms on Discord (issue 19): a table's thread is opened under the tournament's
channel through discord.py's real `TextChannel.create_thread` against an in-memory REST API, or
refused (no permission, a channel that holds no threads); it is archived and locked after the
table's last lines; and a table in a shared room (`"<channel>#<label>"`) is shown in its parent
channel with a table message of its own, its traffic paced as that channel's."""

from __future__ import annotations

import asyncio
import logging

from bot.adapters.discord import DiscordAdapter, DiscordBot
from bot.adapters.discord.board import Boards
from bot.adapters.discord.rooms import thread_name
from bot.adapters.rooms import LateRooms
from bot.core.messages import Button, Outgoing, OutKind
from bot.core.table.rooms import shared_room
from testkit.fakes.core import NarrowCore
from testkit.fakes.discord_fakes import DiscordHarness, HandClock, quick_boards
from testkit.fakes.discord_rest import FORUM, PUBLIC_THREAD, VOICE, FakeRest
from testkit.helpers import make_core

GUILD = 123456 << 22
CHANNEL = 700_000_000_000_000_101
AYSE, MEHMET = 601, 602


class Quiet(NarrowCore):
    """A core that is never asked anything here."""

    async def handle(self, command):
        return []

    async def press(self, press):
        return []


class Gate:
    """An injected sleep that returns only once the test opens it."""

    def __init__(self) -> None:
        self.delays: list[float] = []
        self.open = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)
        await self.open.wait()


def online(core=None) -> tuple[DiscordBot, DiscordAdapter, FakeRest]:
    """The real gateway client, its REST calls answered by a `FakeRest` holding one text
    channel `CHANNEL`."""
    adapter = DiscordAdapter(core or Quiet(), default_locale="en", boards=quick_boards())
    client = DiscordBot(adapter, timers=False)
    rest = FakeRest().install(client)
    rest.add_channel(CHANNEL, GUILD)
    return client, adapter, rest


def table(text: str, channel: str, table_id: str, nonce: str = "n1", **kw) -> Outgoing:
    button = Button("Take", table_id, "ts", nonce)
    return Outgoing(OutKind.EDIT_TABLE, text, channel, None, table_id, buttons=((button,),), **kw)


def public(text: str, channel: str, table_id: str) -> Outgoing:
    return Outgoing(OutKind.PUBLIC, text, channel, None, table_id)


# --- opening ------------------------------------------------------------------------------------


async def test_a_room_is_a_public_thread_under_the_channel_and_the_table_plays_in_it():
    _client, adapter, rest = online()
    room = await adapter.rooms.open_room("discord", str(CHANNEL), "Okey night · table 2")
    assert room is not None and room.isdigit()
    [(path, body)] = [(c.path, c.body) for c in rest.calls if c.path.endswith("/threads")]
    assert path == f"/channels/{CHANNEL}/threads"
    assert body["name"] == "Okey night · table 2"
    assert body["type"] == PUBLIC_THREAD  # discord.py's default would be a private thread
    assert body["auto_archive_duration"] == 1440
    await adapter.deliver_unasked(
        [public("Round 1 starts.", room, "T2"), table("table 2: Ayşe to act", room, "T2")]
    )
    await adapter.flush(5)
    assert rest.texts_in(int(room)) == ["Round 1 starts.", "table 2: Ayşe to act"]
    assert rest.texts_in(CHANNEL) == []


async def test_a_channel_without_create_public_threads_gets_no_room_and_is_logged_once(caplog):
    _client, adapter, rest = online()
    rest.no_threads.add(CHANNEL)
    with caplog.at_level(logging.INFO, logger="bot.discord.rooms"):
        assert await adapter.rooms.open_room("discord", str(CHANNEL), "table 1") is None
        assert await adapter.rooms.open_room("discord", str(CHANNEL), "table 2") is None
    said = [r.getMessage() for r in caplog.records if "rooms_unavailable" in r.getMessage()]
    assert said == [f"event=rooms_unavailable channel={CHANNEL} reason=no_thread_permission"]
    assert rest.threads == {}


async def test_channels_that_hold_no_threads_get_no_room():
    _client, adapter, rest = online()
    forum, voice = CHANNEL + 1, CHANNEL + 2
    rest.add_channel(forum, GUILD, FORUM)
    rest.add_channel(voice, GUILD, VOICE)
    thread = await adapter.rooms.open_room("discord", str(CHANNEL), "table 1")
    assert thread is not None
    for parent in (forum, voice, int(thread), CHANNEL + 99):  # the last one does not exist
        assert await adapter.rooms.open_room("discord", str(parent), "table") is None
    assert len(rest.threads) == 1  # only the first one was ever asked for
    assert await adapter.rooms.open_room("telegram", str(CHANNEL), "table") is None


async def test_a_shared_room_parent_opens_its_thread_under_the_real_channel():
    _client, adapter, rest = online()
    room = await adapter.rooms.open_room("discord", shared_room(str(CHANNEL), "t1"), "table 1")
    assert room is not None
    assert rest.threads[int(room)]["parent_id"] == str(CHANNEL)


def test_thread_names_fit_discord():
    assert thread_name("  Okey   night ") == "Okey night"
    assert len(thread_name("x" * 300)) == 100
    assert thread_name("") == "table"


async def test_late_rooms_forward_to_the_adapter_once_plugged_in():
    _client, adapter, _rest = online()
    late = LateRooms()
    assert await late.open_room("discord", str(CHANNEL), "table 1") is None
    late.use(adapter.rooms)
    assert await late.open_room("discord", str(CHANNEL), "table 1") is not None


# --- closing ------------------------------------------------------------------------------------


async def test_a_room_is_archived_and_locked_after_the_tables_last_lines():
    _client, adapter, rest = online()
    gate = Gate()
    adapter.rooms.sleep = gate
    room = await adapter.rooms.open_room("discord", str(CHANNEL), "table 1")
    assert room is not None
    await adapter.rooms.close_room("discord", room)
    # the core answers its last items after it asked for the close
    await adapter.deliver_unasked([public("Ayşe wins the table.", room, "T1")])
    await adapter.boards.settle()
    assert rest.threads[int(room)]["archived"] is False
    gate.open.set()
    await asyncio.sleep(0)
    await adapter.boards.settle()
    assert gate.delays == [30.0]
    assert rest.texts_in(int(room)) == ["Ayşe wins the table."]
    assert rest.threads[int(room)]["archived"] is True
    assert rest.threads[int(room)]["locked"] is True


async def test_without_manage_threads_the_room_is_archived_only():
    _client, adapter, rest = online()
    rest.no_manage_threads.add(CHANNEL)
    room = await adapter.rooms.open_room("discord", str(CHANNEL), "table 1")
    assert room is not None
    adapter.rooms.sleep = Gate()  # never opens: the shutdown flush closes it
    await adapter.rooms.close_room("discord", room)
    await adapter.rooms.close_room("discord", room)  # asked twice: closed once
    await adapter.flush(5)
    assert rest.threads[int(room)] | {"archived": True, "locked": False} == rest.threads[int(room)]
    patches = [c for c in rest.calls if c.method == "PATCH"]
    assert [sorted(c.body) for c in patches] == [["archived", "locked"], ["archived"]]


async def test_closing_a_shared_room_or_a_gone_thread_changes_nothing(caplog):
    _client, adapter, rest = online()
    await adapter.rooms.close_room("discord", shared_room(str(CHANNEL), "t1"))
    await adapter.rooms.close_room("discord", str(CHANNEL + 99))  # deleted meanwhile
    with caplog.at_level(logging.INFO, logger="bot.discord.rooms"):
        await adapter.flush(5)
    assert [c for c in rest.calls if c.method == "PATCH"] == []
    assert any("room_not_closed" in r.getMessage() for r in caplog.records)


# --- shared rooms -------------------------------------------------------------------------------


async def test_shared_rooms_post_in_the_parent_channel_each_with_its_own_table_message():
    _client, adapter, rest = online()
    first, second = shared_room(str(CHANNEL), "t1"), shared_room(str(CHANNEL), "t2")
    await adapter.deliver_unasked(
        [
            table("table 1: Ayşe to act", first, "T1"),
            table("table 2: Mehmet to act", second, "T2"),
            public("Table 1: round 1 starts.", first, "T1"),
        ]
    )
    await adapter.flush(5)
    await adapter.deliver_unasked([table("table 1: Zeynep to act", first, "T1", nonce="n2")])
    await adapter.flush(5)
    assert rest.texts_in(CHANNEL) == [
        "table 1: Zeynep to act",  # edited in place
        "table 2: Mehmet to act",  # untouched by table 1's edit
        "Table 1: round 1 starts.",
    ]


async def test_show_my_hand_in_a_shared_room_asks_about_that_rooms_table():
    asked = []

    class Recording(Quiet):
        async def handle(self, command):
            asked.append(command.channel_id)
            return []

    harness = DiscordHarness(
        DiscordAdapter(Recording(), default_locale="en", boards=quick_boards())
    )
    room = shared_room(str(CHANNEL), "t2")
    await harness.adapter.deliver([table("table 2", room, "T2")])
    await harness.settle()
    ayse = harness.user(AYSE, "Ayşe")
    message = harness.channel(CHANNEL).table_message()
    await harness.press(ayse, "h:T2:okey", message)
    await harness.press(ayse, "h:T9:okey", message)  # a table the adapter never showed
    assert asked == [room, str(CHANNEL)]


async def test_shared_rooms_count_against_their_parent_channels_post_limit():
    async def post_times(channels: list[str]) -> list[float]:
        clock = HandClock()
        boards = Boards(min_interval=0, retry_after=0, clock=clock, sleep=clock.sleep)
        adapter = DiscordAdapter(Quiet(), boards=boards, clock=clock, sleep=clock.sleep)
        harness = DiscordHarness(adapter)
        times: list[float] = []
        for channel in {int(c.partition("#")[0]) for c in channels}:
            fake = harness.channel(channel)
            send = fake.send

            async def timed(*args, _send=send, **kwargs):
                times.append(clock.now)
                return await _send(*args, **kwargs)

            fake.send = timed
        items = [public(f"line {n}", channels[n % len(channels)], None) for n in range(12)]
        await adapter.deliver_unasked(items)
        await adapter.flush(60)
        assert len(times) == 12
        return times

    rooms = [shared_room(str(CHANNEL), label) for label in ("t1", "t2", "t3")]
    shared = await post_times(rooms)
    for start in shared:  # one channel for Discord: at most 5 posts in any 5 seconds
        assert len([t for t in shared if start <= t < start + 5.0]) <= 5
    apart = await post_times([str(CHANNEL + n) for n in (1, 2, 3)])
    assert max(apart) == min(apart)  # three real channels: 4 posts each, nothing waits


# --- a thread is a channel like any other ------------------------------------------------------


async def test_a_whole_table_in_a_thread_works_as_in_a_channel(memory_store):
    thread = 700_000_000_000_000_555
    core = make_core(memory_store, seed="thread")
    harness = DiscordHarness(
        DiscordAdapter(core, default_locale="en", boards=quick_boards(), dm_fallback=False)
    )
    ayse, mehmet = harness.user(AYSE, "Ayşe"), harness.user(MEHMET, "Mehmet")
    await harness.slash(ayse, "poker open", thread, game="turkish", ante=10)
    await harness.slash(ayse, "poker join", thread, buy_in=200)
    await harness.slash(mehmet, "poker join", thread, buy_in=200)
    start = await harness.slash(mehmet, "poker start", thread)
    message = harness.channel(thread).table_message()
    assert message is not None  # the living table message is in the thread
    live = core.tables.in_channel("discord", str(thread))
    assert live is not None and live.session.hand_no >= 1
    mine = [d for d in harness.log.deliveries if d.interaction == start.id]
    assert mine and all(d.audience == "ephemeral" and d.target == MEHMET for d in mine)
    shown = await harness.press(ayse, f"h:{live.id}:poker", message)
    [cards] = [d for d in harness.log.deliveries if d.interaction == shown.id]
    assert cards.audience == "ephemeral" and cards.target == AYSE
    assert cards.text not in "\n".join(harness.log.channel_texts(thread))
    assert harness.unanswered() == []
    assert set(harness.client.channels) == {thread}  # nothing went anywhere else
