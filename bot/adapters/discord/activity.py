"""The Discord Activity: the live web table (bot/adapters/web/) opened inside Discord.

Discord runs an Activity as a web page in an iframe of the channel, for everyone in it. Two ways
open ours:

- the table message's "Open the table" button (`OpenTableButton`, custom id `o:<table>`), which
  answers its press with the LAUNCH_ACTIVITY interaction response;
- the app's Entry Point command in the App Launcher (`ENTRY_POINT`, type PRIMARY_ENTRY_POINT with
  the DISCORD_LAUNCH_ACTIVITY handler: Discord opens the Activity itself), registered with the
  global command sync by `ActivityTree`.

Both need the app's OAuth2 client (`DISCORD_CLIENT_ID`, `DISCORD_CLIENT_SECRET`): without them the
button is not shown, the Entry Point command is not synced and everything else works as before.
Who is looking, and in which channel, the web server learns from Discord itself
(bot/adapters/web/discord_auth.py), and opens that channel's table. A channel may also hold
shared rooms (`<channel>#<label>`: tournament tables without a thread of their own), each with
its own table message and button: a press on one is kept as the presser's choice for that
channel in the store, for an hour (`CoreApi.choose_room`), where the web server's sign-in finds
it (`chosen_room`) on whichever process it lands, before the channel's own table.
The custom id names the table only, never a person; a press whose table is not open in the
pressed channel (a stale or forged id) is refused to the presser alone and changes nothing.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands

from bot.adapters.discord.components import DYNAMIC_ITEMS, MAX_LABEL, HandButton
from bot.adapters.discord.outbox import TRANSPORT_ERRORS, answer_privately
from bot.adapters.discord.texts import locale_of, text
from bot.core.table.rooms import parent_of
from bot.logs import kv

log = logging.getLogger("bot.discord")

PLATFORM = "discord"
OPEN_TEMPLATE = r"o:(?P<table>[^:]{1,40})"
PRIMARY_ENTRY_POINT = 4  # application command type (discord.py 2.7 has no enum member for it)
DISCORD_LAUNCH_ACTIVITY = 2  # Entry Point handler: Discord launches the Activity itself
GUILD_INSTALL, GUILD_CONTEXT = 0, 0  # tables live in server channels

# The Entry Point command: named like the one Discord creates when Activities are enabled
# ("Launch"), so a global sync updates it in place instead of replacing it.
ENTRY_POINT: dict[str, Any] = {
    "name": "launch",
    "description": "Open the live card table of this channel",
    "description_localizations": {"tr": "Bu kanalın canlı kart masasını aç"},
    "type": PRIMARY_ENTRY_POINT,
    "handler": DISCORD_LAUNCH_ACTIVITY,
    "integration_types": [GUILD_INSTALL],
    "contexts": [GUILD_CONTEXT],
}


class EntryPoint:
    """The Entry Point command as the command tree's sync sends it (it has no callback: with the
    DISCORD_LAUNCH_ACTIVITY handler Discord answers it, the bot never sees the interaction)."""

    name = ENTRY_POINT["name"]

    def to_dict(self, tree: Any) -> dict[str, Any]:
        """The command's payload."""
        return dict(ENTRY_POINT)

    async def get_translated_payload(self, tree: Any, translator: Any) -> dict[str, Any]:
        """The payload with its Turkish description (already in `ENTRY_POINT`)."""
        return self.to_dict(tree)


class ActivityTree(app_commands.CommandTree):
    """The slash command tree; with `entry_point`, the global sync also sends the Activity's
    Entry Point command. Discord refuses a global bulk overwrite that would drop an existing
    Entry Point command, so it must ride along with every global sync once Activities are on.
    A sync to one guild (`DISCORD_GUILD_ID`) leaves it out: Entry Point commands are global."""

    def __init__(self, client: discord.Client, *, entry_point: bool = False) -> None:
        super().__init__(client)
        self.entry_point = entry_point

    async def sync(self, *, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        """Sync as discord.py does; when Discord refuses the global sync with the Entry Point
        command in it (Activities not enabled for the app in the Developer Portal), the slash
        commands are synced without it, so the bot keeps its commands (logged)."""
        try:
            return await super().sync(guild=guild)
        except discord.HTTPException as exc:
            if guild is not None or not self.entry_point or exc.status != 400:
                raise
            log.warning(kv(event="entry_point_refused", code=exc.code, text=exc.text[:200]))
            self.entry_point = False
            return await super().sync(guild=guild)

    def _get_all_commands(self, *, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        commands: list[Any] = list(super()._get_all_commands(guild=guild))
        if guild is None and self.entry_point:
            commands.append(EntryPoint())
        return commands


class OpenTableButton(discord.ui.DynamicItem[discord.ui.Button], template=OPEN_TEMPLATE):
    """The "Open the table" button: launches the Activity in the channel of its table message."""

    def __init__(self, table_id: str, label: str = "Open the table") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:MAX_LABEL],
                style=discord.ButtonStyle.primary,
                emoji="🖥️",
                custom_id=f"o:{table_id}",
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OpenTableButton:
        """Rebuild the button from a pressed custom id."""
        return cls(match["table"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Launch the Activity (see `launch`)."""
        await launch(interaction, self.table_id)


def launch_target(adapter: Any, channel_id: str, table_id: str) -> str | None:
    """Where a press in `channel_id` on `table_id`'s button opens the Activity: the table's
    shared room, or the channel itself for the channel's own table; None when `table_id` is no
    open table of this channel (closed since, or a forged id). From memory only."""
    if adapter.core.table_info(table_id) is None:
        return None
    room: str | None = adapter.rooms_of.get(table_id)
    if room is not None:
        return room if parent_of(room) == channel_id else None
    shown_in = adapter.boards.channel_id(table_id)
    return channel_id if shown_in is None or str(shown_in) == channel_id else None


def activity_on(interaction: Any) -> bool:
    """Whether the client serving the interaction has the Activity configured."""
    adapter = getattr(interaction.client, "adapter", None)
    return bool(getattr(adapter, "activity", False))


def _locale(interaction: Any, table_id: str) -> str:
    adapter = getattr(interaction.client, "adapter", None)
    if adapter is not None and hasattr(adapter, "_speaks_now"):
        locale: str = adapter._speaks_now(interaction, table_id)
        return locale
    return locale_of(getattr(interaction, "locale", None)) or "tr"


async def launch(interaction: Any, table_id: str) -> None:
    """Answer the press with LAUNCH_ACTIVITY (the first and only answer, within Discord's three
    seconds: only memory is read before it), then keep a shared room's table as the presser's
    choice in this channel (in the store, `CoreApi.choose_room`; a press on the channel's own
    table forgets an earlier choice). Without the Activity configured (an old message after the settings
    were removed), for a table not open in this channel (`launch_target`), or when Discord
    refuses (Activities not enabled for the app, a channel where they cannot run), the presser
    alone is told why, in their language, and nothing changes."""
    if not activity_on(interaction):
        await _tell(interaction, text(_locale(interaction, table_id), "activity_off"))
        return
    adapter = interaction.client.adapter
    channel = str(interaction.channel_id)
    target = launch_target(adapter, channel, table_id)
    if target is None:
        log.info(kv(event="activity_refused", table=table_id, reason="not_open_here"))
        await _tell(interaction, text(_locale(interaction, table_id), "activity_stale"))
        return
    try:
        await interaction.response.launch_activity()
    except discord.NotFound:
        log.warning(kv(event="interaction_expired", user=interaction.user.id))
        return
    except TRANSPORT_ERRORS as exc:
        log.warning(
            kv(event="activity_refused", table=table_id, status=getattr(exc, "status", "network"))
        )
        await _tell(interaction, text(_locale(interaction, table_id), "activity_failed"))
        return
    user = str(interaction.user.id)
    await adapter.core.choose_room(PLATFORM, user, channel, None if target == channel else target)
    log.info(kv(event="activity_launched", table=table_id, channel=interaction.channel_id))


async def _tell(interaction: Any, words: str) -> None:
    await answer_privately(interaction, words, "activity_answer_failed")


def add_open_button(view: discord.ui.View, table_id: str, label: str) -> None:
    """Put "Open the table" on a table message's view, beside "Show my hand"."""
    rows = [item.row for item in view.children if isinstance(item, HandButton)]
    button = OpenTableButton(table_id, label)
    button.row = rows[-1] if rows and rows[-1] is not None else None
    try:
        view.add_item(button)
    except ValueError:  # the row is full: the button finds a place of its own
        button.row = None
        view.add_item(button)


# Every component class the client registers (`client.add_dynamic_items`): the table messages'
# (components.py) and "Open the table".
REGISTERED_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (*DYNAMIC_ITEMS, OpenTableButton)
