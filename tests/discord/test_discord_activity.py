"""The Discord Activity's launch: the table message offers "Open the table" only with
DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET set, a press is answered with LAUNCH_ACTIVITY (or,
when Discord refuses or the Activity is off, with a reason to the presser alone), and the global
command sync carries the Entry Point command."""

from __future__ import annotations

from dataclasses import replace

import discord
import pytest

from bot.adapters.discord import DiscordAdapter, DiscordBot, build_client
from bot.adapters.discord.activity import ENTRY_POINT, OpenTableButton
from bot.adapters.discord.components import DYNAMIC_ITEMS
from bot.settings import load_settings
from testkit.fakes.core import NarrowCore
from testkit.fakes.discord_fakes import DiscordHarness, http_error, quick_boards
from testkit.helpers import cmd, make_core

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


ROOM, OTHER_ROOM = f"{CHANNEL}#masa-1", f"{CHANNEL}#masa-2"


async def open_in(core, harness: DiscordHarness, where: str) -> str:
    """Open a table in `where` (a channel or a shared room), its message posted; its id."""
    opened = replace(cmd("ayse", "/poker open turkish 10", channel=where), platform="discord")
    await harness.adapter.deliver(await core.handle(opened))
    await harness.settle()
    table = await core.table_in_channel("discord", where)
    assert table is not None
    return table


def message_of(harness: DiscordHarness, channel: int, table: str):
    """The live message of `channel` that carries `table`'s "Open the table" button."""
    [message] = [m for m in harness.channel(channel).live() if f"o:{table}" in m.custom_ids()]
    return message


async def test_a_shared_room_table_opens_the_activity_on_that_table(memory_store):
    """A table playing in a shared room (`<channel>#<label>`) has the button too; a press
    launches the Activity and keeps that room as the presser's choice in the channel (in the
    store), which the web table's sign-in asks before the channel's own table; a press on the
    channel's own table forgets it. The custom id names the table, never the presser."""
    core = make_core(memory_store)
    harness = build(core, activity=True)
    in_room = await open_in(core, harness, ROOM)
    own = await open_in(core, harness, str(CHANNEL))
    mehmet = harness.user(MEHMET, "Mehmet")
    pressed = await harness.press(mehmet, f"o:{in_room}", message_of(harness, CHANNEL, in_room))
    assert harness.log.acks[pressed.id] == ["launch_activity"]
    assert await core.chosen_room("discord", str(MEHMET), str(CHANNEL)) == ROOM
    assert await core.chosen_room("discord", str(AYSE), str(CHANNEL)) is None  # the presser's
    assert await core.chosen_room("discord", str(MEHMET), str(CHANNEL + 1)) is None
    await harness.press(mehmet, f"o:{own}", message_of(harness, CHANNEL, own))
    assert await core.chosen_room("discord", str(MEHMET), str(CHANNEL)) is None


async def test_a_store_that_fails_still_launches_and_chooses_nothing(memory_store, caplog):
    """The launch is answered before the choice is written: a database that cannot be reached
    is logged, the Activity still opens (on the channel's own table) and no error is shown."""
    core = make_core(memory_store)
    harness = build(core, activity=True)
    in_room = await open_in(core, harness, ROOM)
    message = message_of(harness, CHANNEL, in_room)
    await memory_store.close()  # the in-memory database is gone: every call fails
    mehmet = harness.user(MEHMET, "Mehmet")
    pressed = await harness.press(mehmet, f"o:{in_room}", message)
    assert harness.log.acks[pressed.id] == ["launch_activity"]
    assert not [d for d in harness.log.deliveries if d.interaction == pressed.id]
    assert "room_choice_failed" in caplog.text
    assert await core.chosen_room("discord", str(MEHMET), str(CHANNEL)) is None
    assert "room_choice_unread" in caplog.text


@pytest.mark.parametrize(
    ("pressed", "pressed_in"),
    [
        ("forged", CHANNEL),  # no such open table
        ("own", CHANNEL),  # open, but in another channel
        ("room", CHANNEL + 1),  # the shared room is CHANNEL's, not this channel's
        ("closed", CHANNEL),  # closed since its message was posted (stale)
    ],
)
async def test_a_stale_or_forged_open_button_is_refused_and_changes_nothing(
    memory_store, pressed, pressed_in
):
    core = make_core(memory_store)
    harness = build(core, activity=True)
    tables = {
        "room": await open_in(core, harness, ROOM),
        "own": await open_in(core, harness, str(CHANNEL + 1)),
        "closed": await open_in(core, harness, OTHER_ROOM),
        "forged": "99",
    }
    reset = replace(cmd("mod", "/table reset", channel=OTHER_ROOM, mod=True), platform="discord")
    await core.handle(reset)
    assert core.table_info(tables["closed"]) is None
    mehmet = harness.user(MEHMET, "Mehmet")
    room = message_of(harness, CHANNEL, tables["room"])
    await harness.press(mehmet, f"o:{tables['room']}", room)  # an earlier, good choice
    message = harness.channel(pressed_in).table_message() or room
    press = await harness.press(mehmet, f"o:{tables[pressed]}", message, locale="tr")
    assert "launch_activity" not in harness.log.acks.get(press.id, [])
    [said] = [d for d in harness.log.deliveries if d.interaction == press.id]
    assert said.audience == "ephemeral" and said.target == MEHMET
    assert said.text.startswith("Bu düğmenin masası bu kanalda açık değil")
    assert await core.chosen_room("discord", str(MEHMET), str(CHANNEL)) == ROOM  # unchanged
    assert await core.chosen_room("discord", str(MEHMET), str(CHANNEL + 1)) is None


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
