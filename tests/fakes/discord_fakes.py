"""Fake Discord objects for driving the Discord adapter without the network.

The fakes record every call the adapter makes (`response.defer`, `send_message`, `send_modal`,
`edit_message`, `followup.send`, `edit_original_response`, channel sends and edits, direct
messages) as `Delivery` rows that say who can see the text: one user's ephemeral reply or DM, or
a whole channel. They follow Discord's rules where the adapter could get them wrong: an
interaction may be acknowledged once; follow-ups need an acknowledgement first; the first
follow-up after a "thinking" deferral replaces it and keeps the deferral's visibility; a user
with closed DMs raises `discord.Forbidden`; editing a deleted message raises `discord.NotFound`.

`DiscordHarness` runs slash commands through the real command tree callbacks and component
presses through the real `DynamicItem` templates and `from_custom_id`, as discord.py would.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
from discord import app_commands

_ids = itertools.count(1_000_000_000_000_000_000)


def next_id() -> int:
    """A fresh snowflake-sized id."""
    return next(_ids)


def http_error(kind: type[discord.HTTPException], status: int, code: int) -> Exception:
    """A discord.py HTTP error as the library raises it."""
    response = SimpleNamespace(status=status, reason=kind.__name__)
    return kind(response, {"code": code, "message": kind.__name__})  # type: ignore[arg-type]


@dataclass
class Delivery:
    """Something that reached Discord: who can see it (`ephemeral`/`dm` to a user, or a
    `channel`), the text, and the view or modal it carried."""

    audience: str  # "ephemeral" | "dm" | "channel"
    target: int  # user id or channel id
    text: str
    how: str  # the call that sent it
    view: Any = None
    interaction: int | None = None
    file: Any = None


class Log:
    """Every delivery and every acknowledgement, in order."""

    def __init__(self) -> None:
        self.deliveries: list[Delivery] = []
        self.acks: dict[int, list[str]] = {}

    def seen_by(self, user_id: int) -> list[str]:
        """Texts shown only to `user_id` (ephemeral replies and DMs)."""
        return [
            d.text
            for d in self.deliveries
            if d.audience in ("ephemeral", "dm") and d.target == user_id
        ]

    def channel_texts(self, channel_id: int) -> list[str]:
        """Texts everyone in the channel can see (messages and their edits)."""
        return [
            d.text for d in self.deliveries if d.audience == "channel" and d.target == channel_id
        ]


@dataclass
class FakeMessage:
    """A message in a channel (or an ephemeral one), with its components."""

    id: int
    channel: FakeChannel | None
    content: str
    view: Any = None
    ephemeral_to: int | None = None
    deleted: bool = False
    files: list[Any] = field(default_factory=list)

    def custom_ids(self) -> list[str]:
        """Custom ids of the message's components, in order."""
        if self.view is None:
            return []
        return [c.custom_id for c in self.view.children if getattr(c, "custom_id", None)]

    def labels(self) -> dict[str, str]:
        """Custom id -> label of the message's buttons."""
        if self.view is None:
            return {}
        return {
            c.custom_id: getattr(c.item, "label", None) or ""
            for c in self.view.children
            if getattr(c, "custom_id", None)
        }


class PartialMessage:
    """`channel.get_partial_message(id)`: edit or delete without fetching."""

    def __init__(self, channel: FakeChannel, message_id: int) -> None:
        self.channel = channel
        self.id = message_id

    async def edit(self, *, content: str | None = None, view: Any = None, attachments=None) -> None:
        message = self.channel.messages.get(self.id)
        if message is None or message.deleted:
            raise http_error(discord.NotFound, 404, 10008)
        if content is not None:
            message.content = content
        message.view = view
        self.channel.edits += 1
        self.channel.log.deliveries.append(
            Delivery("channel", self.channel.id, message.content, "edit", view)
        )

    async def delete(self) -> None:
        message = self.channel.messages.get(self.id)
        if message is None or message.deleted:
            raise http_error(discord.NotFound, 404, 10008)
        message.deleted = True


class FakeChannel:
    """A text channel: `send` posts, `get_partial_message` edits and deletes."""

    def __init__(self, channel_id: int, log: Log) -> None:
        self.id = channel_id
        self.log = log
        self.messages: dict[int, FakeMessage] = {}
        self.posts = 0
        self.edits = 0

    async def send(
        self, content: str | None = None, *, view: Any = None, file: Any = None, **kwargs: Any
    ) -> FakeMessage:
        assert content is None or len(content) <= 2000
        message = FakeMessage(next_id(), self, content or "", view, files=[file] if file else [])
        self.messages[message.id] = message
        self.posts += 1
        self.log.deliveries.append(
            Delivery("channel", self.id, message.content, "send", view, file=file)
        )
        return message

    def get_partial_message(self, message_id: int) -> PartialMessage:
        return PartialMessage(self, message_id)

    def live(self) -> list[FakeMessage]:
        """Messages not deleted, oldest first."""
        return [m for m in self.messages.values() if not m.deleted]

    def table_message(self) -> FakeMessage | None:
        """The newest message with a turn or hand button."""
        for message in reversed(self.live()):
            if any(cid.startswith(("t:", "h:")) for cid in message.custom_ids()):
                return message
        return None


class FakeUser:
    """A user or guild member; `send` is a direct message (Forbidden when DMs are closed)."""

    def __init__(self, user_id: int, name: str, log: Log, dms_open: bool = True) -> None:
        self.id = user_id
        self.name = name
        self.display_name = name
        self.roles: list[Any] = []
        self.dms_open = dms_open
        self.log = log

    async def send(self, content: str | None = None, *, view: Any = None, **kw: Any) -> FakeMessage:
        if not self.dms_open:
            raise http_error(discord.Forbidden, 403, 50007)
        assert content is None or len(content) <= 2000
        self.log.deliveries.append(Delivery("dm", self.id, content or "", "dm", view))
        return FakeMessage(next_id(), None, content or "", view, ephemeral_to=self.id)


class FakeClient:
    """The parts of `discord.Client` the adapter uses."""

    def __init__(self, log: Log) -> None:
        self.log = log
        self.channels: dict[int, FakeChannel] = {}
        self.users: dict[int, FakeUser] = {}
        self.adapter: Any = None

    def get_partial_messageable(self, channel_id: int) -> FakeChannel:
        if channel_id not in self.channels:
            self.channels[channel_id] = FakeChannel(channel_id, self.log)
        return self.channels[channel_id]

    def get_user(self, user_id: int) -> FakeUser | None:
        return self.users.get(user_id)

    async def fetch_user(self, user_id: int) -> FakeUser:
        if user_id not in self.users:
            raise http_error(discord.NotFound, 404, 10013)
        return self.users[user_id]


class FakeResponse:
    """`interaction.response`: the single acknowledgement."""

    def __init__(self, interaction: FakeInteraction) -> None:
        self.interaction = interaction
        self.kind: str | None = None
        self.ephemeral = False
        self.thinking = False
        self.modal: Any = None

    def is_done(self) -> bool:
        return self.kind is not None

    def _ack(self, kind: str) -> None:
        self.interaction.log.acks.setdefault(self.interaction.id, []).append(kind)
        if self.kind is not None:
            raise discord.InteractionResponded(self.interaction)  # type: ignore[arg-type]
        if self.interaction.expired:
            raise http_error(discord.NotFound, 404, 10062)
        self.kind = kind

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        self._ack("defer")
        self.ephemeral, self.thinking = ephemeral, thinking

    async def send_message(
        self, content: str | None = None, *, ephemeral: bool = False, view: Any = None, **kw: Any
    ) -> None:
        self._ack("send_message")
        self.interaction._show(content or "", ephemeral, view, "send_message")

    async def send_modal(self, modal: Any) -> None:
        self._ack("send_modal")
        self.modal = modal

    async def edit_message(
        self, *, content: str | None = None, view: Any = None, **kw: Any
    ) -> None:
        self._ack("edit_message")
        self.interaction._edit_source(content, view)

    async def autocomplete(self, choices: list[Any]) -> None:
        self._ack("autocomplete")


class FakeFollowup:
    """`interaction.followup`: messages after the acknowledgement."""

    def __init__(self, interaction: FakeInteraction) -> None:
        self.interaction = interaction

    async def send(
        self, content: str | None = None, *, ephemeral: bool = False, view: Any = None, **kw: Any
    ) -> FakeMessage:
        interaction = self.interaction
        response = interaction.response
        assert response.is_done(), "follow-up before the interaction was acknowledged"
        if response.thinking and not interaction.original_resolved:
            # Discord: the first follow-up replaces the "thinking" message, keeping its visibility.
            interaction.original_resolved = True
            ephemeral = response.ephemeral
        return interaction._show(content or "", ephemeral, view, "followup")


class FakeInteraction:
    """A slash command, component press or modal submission from one user in one channel."""

    def __init__(
        self,
        client: FakeClient,
        user: FakeUser,
        channel_id: int,
        *,
        locale: str = "en-US",
        permissions: discord.Permissions | None = None,
        data: dict[str, Any] | None = None,
        message: FakeMessage | None = None,
        expired: bool = False,
    ) -> None:
        self.id = next_id()
        self.client = client
        self.log = client.log
        self.user = user
        self.channel_id = channel_id
        self.guild_id = 1
        self.locale = discord.Locale(locale)
        self.permissions = permissions or discord.Permissions.none()
        self.data = data or {}
        self.message = message
        self.expired = expired
        self.response = FakeResponse(self)
        self.followup = FakeFollowup(self)
        self.original_resolved = False
        self.original: FakeMessage | None = None

    def _show(self, content: str, ephemeral: bool, view: Any, how: str) -> FakeMessage:
        assert len(content) <= 2000
        channel = self.client.get_partial_messageable(self.channel_id)
        if ephemeral:  # in the channel, but only this user sees it
            self.log.deliveries.append(
                Delivery("ephemeral", self.user.id, content, how, view, self.id)
            )
            return FakeMessage(next_id(), channel, content, view, ephemeral_to=self.user.id)
        self.log.deliveries.append(Delivery("channel", channel.id, content, how, view, self.id))
        message = FakeMessage(next_id(), channel, content, view)
        channel.messages[message.id] = message
        return message

    def _edit_source(self, content: str | None, view: Any) -> None:
        source = self.message
        assert source is not None
        if content is not None:
            source.content = content
        source.view = view
        if source.ephemeral_to is not None:
            audience, target = "ephemeral", source.ephemeral_to
        else:
            audience, target = "channel", source.channel.id if source.channel else 0
        self.log.deliveries.append(
            Delivery(audience, target, source.content, "edit_source", view, self.id)
        )

    async def edit_original_response(self, *, content: Any = ..., view: Any = ..., **kw: Any):
        response = self.response
        assert response.is_done(), "edit before the interaction was acknowledged"
        new_content = None if content is ... else content
        new_view = None if view is ... else view
        if response.thinking:
            self.original_resolved = True
            if self.original is None:
                self.original = self._show(
                    new_content or "", response.ephemeral, new_view, "edit_original"
                )
            else:
                if new_content is not None:
                    self.original.content = new_content
                self.original.view = new_view if view is not ... else self.original.view
            return self.original
        # A deferred update: the original response is the message the component is on.
        keep_view = self.message.view if self.message is not None and view is ... else new_view
        self._edit_source(new_content, keep_view)
        return self.message

    async def delete_original_response(self) -> None:
        assert self.response.is_done()
        self.original_resolved = True


class DiscordHarness:
    """The adapter on a fake client, with helpers that act like users in one guild."""

    def __init__(self, adapter: Any) -> None:
        from bot.adapters.discord.commands import Translator, install_commands

        self.log = Log()
        self.client = FakeClient(self.log)
        adapter.attach(self.client)
        self.adapter = adapter
        self.tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
        install_commands(self.tree, adapter)
        self.translator = Translator()
        self.interactions: list[FakeInteraction] = []
        self.modals: dict[int, Any] = {}

    def user(self, user_id: int, name: str, dms_open: bool = True) -> FakeUser:
        """A guild member who can use the bot."""
        user = FakeUser(user_id, name, self.log, dms_open)
        self.client.users[user_id] = user
        return user

    def channel(self, channel_id: int) -> FakeChannel:
        return self.client.get_partial_messageable(channel_id)

    def interaction(self, user: FakeUser, channel_id: int, **kwargs: Any) -> FakeInteraction:
        interaction = FakeInteraction(self.client, user, channel_id, **kwargs)
        self.interactions.append(interaction)
        return interaction

    def command(self, path: str) -> app_commands.Command[Any, ..., Any]:
        """A command of the tree by its English path, e.g. `poker open`."""
        names = path.split()
        found: Any = self.tree.get_command(names[0])
        for name in names[1:]:
            found = found.get_command(name)
        assert isinstance(found, app_commands.Command), path
        return found

    async def slash(
        self, user: FakeUser, path: str, channel_id: int, *, locale: str = "en-US", **options: Any
    ) -> FakeInteraction:
        """Run `/path options...` as `user` through the command's real callback."""
        command = self.command(path)
        interaction = self.interaction(user, channel_id, locale=locale, **options.pop("_kw", {}))
        if command.binding is not None:
            await command.callback(command.binding, interaction, **options)  # type: ignore[call-arg]
        else:
            await command.callback(interaction, **options)  # type: ignore[call-arg]
        return interaction

    async def autocomplete(
        self, user: FakeUser, path: str, option: str, current: str, channel_id: int
    ) -> list[app_commands.Choice[str]]:
        """The choices the command's autocomplete offers `user` for `current`."""
        command = self.command(path)
        interaction = FakeInteraction(self.client, user, channel_id)  # answered by discord.py
        callback = command._params[option].autocomplete  # discord.py keeps it per parameter
        assert callback is not None
        if command.binding is not None:
            return await callback(command.binding, interaction, current)
        return await callback(interaction, current)

    async def press(
        self,
        user: FakeUser,
        custom_id: str,
        message: FakeMessage | None,
        *,
        values: list[str] | None = None,
        locale: str = "en-US",
        expired: bool = False,
    ) -> FakeInteraction:
        """Press a component as discord.py dispatches it: the first registered `DynamicItem`
        whose template matches builds the item, then its callback runs."""
        from bot.adapters.discord.components import DYNAMIC_ITEMS

        assert len(custom_id) <= 100
        data = {"custom_id": custom_id, "component_type": 3 if values is not None else 2}
        if values is not None:
            data["values"] = values
        channel_id = message.channel.id if message and message.channel else 0
        interaction = self.interaction(
            user, channel_id, locale=locale, data=data, message=message, expired=expired
        )
        for factory in DYNAMIC_ITEMS:
            match = re.fullmatch(factory.__discord_ui_compiled_template__, custom_id)
            if match is not None:
                base = discord.ui.Button(custom_id=custom_id)
                item = await factory.from_custom_id(interaction, base, match)  # type: ignore[arg-type]
                await item.callback(interaction)  # type: ignore[arg-type]
                break
        if interaction.response.modal is not None:
            self.modals[user.id] = (interaction.response.modal, channel_id)
        return interaction

    async def submit_modal(self, user: FakeUser, value: str) -> FakeInteraction:
        """Type `value` into the last modal `user` was shown and submit it."""
        modal, channel_id = self.modals.pop(user.id)
        interaction = self.interaction(user, channel_id)
        modal.amount._value = value  # what discord.py fills in from the submission
        await modal.on_submit(interaction)
        return interaction

    def unanswered(self) -> list[FakeInteraction]:
        """Interactions (other than autocomplete) never acknowledged, or acknowledged twice."""
        out = []
        for interaction in self.interactions:
            acks = self.log.acks.get(interaction.id, [])
            if acks == ["autocomplete"]:
                continue
            if len(acks) != 1:
                out.append(interaction)
        return out
