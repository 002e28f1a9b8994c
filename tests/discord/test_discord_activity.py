"""The Discord Activity's launch: the table message offers "Open the table" only with
DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET set, a press is answered with LAUNCH_ACTIVITY (or,
when Discord refuses or the Activity is off, with a reason to the presser alone), and the global
command sync carries the Entry Point command."""

from __future__ import annotations

import discord
import pytest

from bot.adapters.discord import DiscordAdapter, DiscordBot, build_client
from bot.adapters.discord.activity import ENTRY_POINT, OpenTableButton
from bot.adapters.discord.components import DYNAMIC_ITEMS
from bot.settings import load_settings
from testkit.fakes.core import NarrowCore
from testkit.fakes.discord_fakes import DiscordHarness, http_error, quick_boards
from testkit.helpers import make_core

CHANNEL = 500_000_000_000_000_011
AYSE, MEHMET = 101, 102


def build(core, *, activity: bool) -> DiscordHarness:
    adapter = DiscordAdapter(core, default_locale="en", boards=quick_boards(), activity=activity)
    return DiscordHarness(adapter)


async def open_table(harness: DiscordHarness) -> None:
    ayse = harness.user(AYSE, "Ayşe")
    await harness.slash(ayse, "poker open", CHANNEL, game="turkish", ante=10)
    await harness.slash(ayse, "poker join", CHANNEL, buy_in=200)


async def test_without_the_settings_the_table_message_has_no_open_button(memory_store):
    harness = build(make_core(memory_store), activity=False)
    await open_table(harness)
    message = harness.channel(CHANNEL).table_message()
    assert message is not None
    assert not [c for c in message.custom_ids() if c.startswith("o:")]
    assert any(c.startswith("h:") for c in message.custom_ids())  # the rest is as before


async def test_with_the_settings_the_button_launches_the_activity(memory_store):
    harness = build(make_core(memory_store), activity=True)
    await open_table(harness)
    message = harness.channel(CHANNEL).table_message()
    assert message is not None
    [open_id] = [c for c in message.custom_ids() if c.startswith("o:")]
    assert message.labels()[open_id] == "Open the table"
    hand_row = [i.row for i in message.view.children if i.custom_id.startswith("h:")]
    open_row = [i.row for i in message.view.children if i.custom_id == open_id]
    assert hand_row == open_row  # beside "Show my hand"
    mehmet = harness.user(MEHMET, "Mehmet")  # anyone in the channel may open it
    before = len(harness.log.deliveries)
    pressed = await harness.press(mehmet, open_id, message)
    assert harness.log.acks[pressed.id] == ["launch_activity"]
    assert len(harness.log.deliveries) == before  # nothing said anywhere
    assert harness.unanswered() == []


async def test_the_button_speaks_the_table_language(memory_store):
    harness = build(make_core(memory_store, default_locale="tr"), activity=True)
    ayse = harness.user(AYSE, "Ayşe")
    await harness.slash(ayse, "poker open", CHANNEL, locale="tr", game="turkish", ante=10)
    message = harness.channel(CHANNEL).table_message()
    assert message is not None
    labels = message.labels()
    assert [labels[c] for c in message.custom_ids() if c.startswith("o:")] == ["Masayı aç"]


async def test_a_refused_launch_is_explained_to_the_presser_alone(memory_store):
    harness = build(make_core(memory_store), activity=True)
    await open_table(harness)
    message = harness.channel(CHANNEL).table_message()
    [open_id] = [c for c in message.custom_ids() if c.startswith("o:")]
    harness.client.activity_refusal = http_error(discord.HTTPException, 400, 50035)
    mehmet = harness.user(MEHMET, "Mehmet")
    pressed = await harness.press(mehmet, open_id, message, locale="tr")
    [said] = [d for d in harness.log.deliveries if d.interaction == pressed.id]
    assert said.audience == "ephemeral" and said.target == MEHMET
    assert "canlı masayı" in said.text


async def test_an_old_button_with_the_activity_off_says_so(memory_store):
    harness = build(make_core(memory_store), activity=False)
    await open_table(harness)
    message = harness.channel(CHANNEL).table_message()
    mehmet = harness.user(MEHMET, "Mehmet")
    pressed = await harness.press(mehmet, "o:1", message)
    [said] = [d for d in harness.log.deliveries if d.interaction == pressed.id]
    assert said.audience == "ephemeral" and "turned off" in said.text


class Quiet(NarrowCore):
    async def start(self):
        return []


def entry_points(payload: list[dict]) -> list[dict]:
    return [c for c in payload if c.get("type") == 4]


@pytest.mark.parametrize("activity", [False, True])
async def test_the_global_sync_carries_the_entry_point_only_with_the_settings(activity):
    client = DiscordBot(DiscordAdapter(Quiet()), start_core=False, activity=activity)
    sent: list[list[dict]] = []

    async def upsert(application_id, payload):
        sent.append(payload)
        # Discord answers with the stored commands (the Entry Point's type 4 included)
        return [
            {**c, "id": str(1000 + n), "application_id": "99", "version": "1"}
            for n, c in enumerate(payload)
        ]

    client._connection.application_id = 99
    client.tree._http.bulk_upsert_global_commands = upsert
    synced = await client.tree.sync()
    [payload] = sent
    assert len(synced) == len(payload)
    assert {"poker", "okey"} <= {c["name"] for c in payload}
    assert entry_points(payload) == ([ENTRY_POINT] if activity else [])
    stored: dict = {}
    client._connection._view_store._dynamic_items = stored
    client.tree.sync = _no_sync  # type: ignore[method-assign]
    await client.setup_hook()
    assert set(stored.values()) == {*DYNAMIC_ITEMS, OpenTableButton}


async def _no_sync(*, guild=None):
    return []


def test_build_client_turns_the_activity_on_from_the_settings():
    off = load_settings(discord_token="x" * 60, _env_file=None)
    on = load_settings(
        discord_token="x" * 60,
        discord_client_id="1215413995645968394",
        discord_client_secret="s" * 32,
        _env_file=None,
    )
    assert not off.discord_activity and on.discord_activity
    assert not build_client(off, DiscordAdapter(Quiet())).tree.entry_point
    assert build_client(on, DiscordAdapter(Quiet())).tree.entry_point


def test_the_client_secret_is_masked_and_blank_settings_are_unset():
    from bot.__main__ import secrets_of
    from bot.settings import SettingsError

    secret = "client-secret-" + "s" * 20
    on = load_settings(
        discord_token="x" * 60,
        discord_client_id="1215413995645968394",
        discord_client_secret=secret,
        _env_file=None,
    )
    assert secret in secrets_of(on)
    blank = load_settings(discord_client_id=" ", discord_client_secret="", _env_file=None)
    assert blank.discord_client_id is None and blank.discord_client_secret is None
    assert not blank.discord_activity
    with pytest.raises(SettingsError, match="DISCORD_API_BASE_URL"):
        load_settings(discord_api_base_url="discord.com/api", _env_file=None)


class OpenTables(Quiet):
    """A core whose open tables are `open` (the rest closed or never there)."""

    def __init__(self, *open_ids: str) -> None:
        self.open = set(open_ids)

    def table_info(self, table_id):
        from bot.core.api import TableInfo

        if table_id not in self.open:
            return None
        return TableInfo(table_id, "discord", "turkish", "poker", "tr", "n1")


ROOM = f"{CHANNEL}#masa-1"


async def shared_and_own(core) -> DiscordHarness:
    """Table 7 in a shared room of CHANNEL, table 8 in CHANNEL + 1 (its own channel)."""
    from bot.core.messages import Outgoing, OutKind

    harness = build(core, activity=True)
    for table, where in (("7", ROOM), ("8", str(CHANNEL + 1))):
        item = Outgoing(OutKind.EDIT_TABLE, "table", where, table_id=table, version=1)
        await harness.adapter.deliver([item])
    await harness.settle()
    return harness


async def test_a_shared_room_table_opens_the_activity_on_that_table():
    """A table playing in a shared room (`<channel>#<label>`) has the button too; a press
    launches the Activity and makes that room the presser's choice in the channel, which the
    web table's sign-in asks before the channel's own table. The custom id names the table."""
    harness = await shared_and_own(OpenTables("7", "8"))
    room = harness.channel(CHANNEL).table_message()
    own = harness.channel(CHANNEL + 1).table_message()
    assert room is not None and own is not None
    assert [c for c in room.custom_ids() if c.startswith("o:")] == ["o:7"]
    assert [c for c in own.custom_ids() if c.startswith("o:")] == ["o:8"]
    mehmet = harness.user(MEHMET, "Mehmet")
    pressed = await harness.press(mehmet, "o:7", room)
    assert harness.log.acks[pressed.id] == ["launch_activity"]
    launches = harness.adapter.launches
    assert launches.room_of(str(MEHMET), str(CHANNEL)) == ROOM
    assert launches.room_of(str(AYSE), str(CHANNEL)) is None  # a choice is the presser's own
    await harness.press(mehmet, "o:8", own)  # the channel's own table: nothing to remember
    assert launches.room_of(str(MEHMET), str(CHANNEL + 1)) is None
    assert launches.room_of(str(MEHMET), str(CHANNEL)) == ROOM


def test_a_choice_lasts_its_hour_only():
    from bot.adapters.discord.activity import LaunchChoices

    now = [0.0]
    choices = LaunchChoices(lambda: now[0], seconds=60)
    choices.choose("1", "5", "5#a")
    now[0] = 59.0
    assert choices.room_of("1", "5") == "5#a"
    choices.choose("1", "5", None)  # the channel's own table
    assert choices.room_of("1", "5") is None
    choices.choose("1", "5", "5#b")
    now[0] = 119.0
    assert choices.room_of("1", "5") is None


@pytest.mark.parametrize(
    ("custom_id", "pressed_in"),
    [
        ("o:99", CHANNEL),  # forged: no such open table
        ("o:8", CHANNEL),  # table 8 is open, but in another channel
        ("o:7", CHANNEL + 1),  # the shared room is CHANNEL's, not this channel's
        ("o:6", CHANNEL),  # closed since its message was posted (stale)
    ],
)
async def test_a_stale_or_forged_open_button_is_refused_and_changes_nothing(custom_id, pressed_in):
    from bot.core.messages import Outgoing, OutKind

    core = OpenTables("6", "7", "8")
    harness = await shared_and_own(core)
    shown = Outgoing(OutKind.EDIT_TABLE, "table", f"{CHANNEL}#masa-2", table_id="6", version=1)
    await harness.adapter.deliver([shown])
    await harness.settle()
    core.open.discard("6")
    mehmet = harness.user(MEHMET, "Mehmet")
    room = harness.channel(CHANNEL).table_message()
    await harness.press(mehmet, "o:7", room)  # an earlier, good choice
    message = harness.channel(pressed_in).table_message()
    pressed = await harness.press(mehmet, custom_id, message, locale="tr")
    assert "launch_activity" not in harness.log.acks.get(pressed.id, [])
    [said] = [d for d in harness.log.deliveries if d.interaction == pressed.id]
    assert said.audience == "ephemeral" and said.target == MEHMET
    assert said.text.startswith("Bu düğmenin masası bu kanalda açık değil")
    launches = harness.adapter.launches
    assert launches.room_of(str(MEHMET), str(CHANNEL)) == ROOM  # unchanged
    assert launches.room_of(str(MEHMET), str(CHANNEL + 1)) is None


async def test_a_refused_entry_point_leaves_the_slash_commands_synced(caplog):
    """Activities not enabled in the Developer Portal: Discord refuses the Entry Point command;
    the slash commands are synced without it."""
    client = DiscordBot(DiscordAdapter(Quiet()), start_core=False, activity=True)
    sent: list[list[dict]] = []

    async def upsert(application_id, payload):
        sent.append(payload)
        if entry_points(payload):
            raise http_error(discord.HTTPException, 400, 50035)
        return [{**c, "id": str(1000 + n), "application_id": "99"} for n, c in enumerate(payload)]

    client._connection.application_id = 99
    client.tree._http.bulk_upsert_global_commands = upsert
    synced = await client.tree.sync()
    assert len(sent) == 2 and entry_points(sent[0]) and not entry_points(sent[1])
    assert len(synced) == len(sent[1]) > 0
    assert "entry_point_refused" in caplog.text
