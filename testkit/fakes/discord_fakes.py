"""Fake Discord objects for driving the Discord adapter without the network.

The fakes record every call the adapter makes (`response.defer`, `send_message`, `send_modal`,
`edit_message`, `followup.send`, `edit_original_response`, channel sends and edits, direct
messages) as `Delivery` rows that say who can see the text: one user's ephemeral reply or DM, or
a whole channel. They follow Discord's rules where the adapter could get them wrong: an
interaction may be acknowledged once; follow-ups need an acknowledgement first; the first
follow-up after a "thinking" deferral replaces it and keeps the deferral's visibility; a user
with closed DMs raises `discord.Forbidden`; editing a deleted message raises `discord.NotFound`;
an ephemeral message can be edited only while its interaction's token lasts, and an edit of it
is seen (`Delivery.seen`) only while its user is still in that interaction (the user's newest
one, or the one pressed on that very message): an older ephemeral reply may be scrolled away or
dismissed. Faults can be
injected: `FakeChannel.faults` / `FakeUser.faults` / `FakeClient.faults` (exceptions raised by
the next calls, e.g. a connection reset), `FakeChannel.gate` (an event every channel write
waits on), `FakeChannel.refuse_files` (no Attach Files permission).

`DiscordHarness` runs slash commands through the real command tree callbacks, component presses
through the real `DynamicItem` templates and `from_custom_id`, and modal submissions through
discord.py's real `ViewStore` (which finds the open modal by its custom id), as discord.py would.
After each interaction it lets the adapter's queued channel traffic go out (`settle`).
"""

from __future__ import annotations

import asyncio
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


def sent_files(kw: dict[str, Any]) -> list[Any]:
    """The files a send carries, given as `file=` or `files=` (discord.py takes either)."""
    one = kw.get("file")
    return [one] if one is not None else list(kw.get("files") or [])


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
    allowed_mentions: Any = None
    seen: bool = True  # False: an edit of an ephemeral reply its user is no longer looking at
    files: list[Any] = field(default_factory=list)  # every file it carried (`file` is the first)


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
    interaction: Any = None  # for an ephemeral message: the interaction whose token edits it
    dm: bool = False
    log: Any = None
    allowed_mentions: Any = None

    async def edit(self, *, content: Any = ..., view: Any = ..., attachments: Any = ..., **kw):
        """Edit a private message (a DM, or an ephemeral one through its interaction's token)."""
        if self.interaction is not None:
            self.interaction.take_fault()
            if self.interaction.expired:
                raise http_error(discord.NotFound, 404, 10015)  # unknown webhook: token is gone
        if content is not ...:
            self.content = content or ""
        if view is not ...:
            self.view = view
        if attachments is not ...:
            self.files = list(attachments or [])
        audience = "dm" if self.dm else "ephemeral"
        assert self.log is not None and self.ephemeral_to is not None
        seen = self.interaction is None or self.interaction.in_sight(self)
        self.log.deliveries.append(
            Delivery(
                audience,
                self.ephemeral_to,
                self.content,
                "edit_private",
                self.view,
                self.interaction.id if self.interaction is not None else None,
                # only what this call carried: an edit that leaves the attachments keeps them
                file=self.files[0] if self.files and attachments is not ... else None,
                seen=seen,
                files=list(self.files) if attachments is not ... else [],
            )
        )
        return self

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

    async def edit(
        self,
        *,
        content: str | None = None,
        view: Any = None,
        attachments=None,
        allowed_mentions: Any = None,
    ) -> None:
        await self.channel.enter(files=bool(attachments))
        message = self.channel.messages.get(self.id)
        if message is None or message.deleted:
            raise http_error(discord.NotFound, 404, 10008)
        if content is not None:
            message.content = content
        message.view = view
        message.allowed_mentions = allowed_mentions
        self.channel.edits += 1
        self.channel.log.deliveries.append(
            Delivery(
                "channel",
                self.channel.id,
                message.content,
                "edit",
                view,
                allowed_mentions=allowed_mentions,
            )
        )

    async def delete(self) -> None:
        await self.channel.enter()
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
        self.faults: list[BaseException] = []  # raised by the next writes, one each
        self.gate: asyncio.Event | None = None  # when set up, every write waits for it
        self.refuse_files = False  # the bot lacks Attach Files here
        self.post_times: list[float] = []  # loop time of each post

    async def enter(self, *, files: bool = False) -> None:
        """What every write goes through: the gate, injected faults, the files permission."""
        if self.gate is not None:
            await self.gate.wait()
        if self.faults:
            raise self.faults.pop(0)
        if files and self.refuse_files:
            raise http_error(discord.Forbidden, 403, 50013)

    async def send(
        self, content: str | None = None, *, view: Any = None, **kwargs: Any
    ) -> FakeMessage:
        assert content is None or len(content) <= 2000
        files = sent_files(kwargs)
        file = files[0] if files else None
        await self.enter(files=bool(files))
        message = FakeMessage(next_id(), self, content or "", view, files=files)
        message.allowed_mentions = kwargs.get("allowed_mentions")
        self.messages[message.id] = message
        self.posts += 1
        self.post_times.append(asyncio.get_running_loop().time())
        self.log.deliveries.append(
            Delivery(
                "channel",
                self.id,
                message.content,
                "send",
                view,
                file=file,
                allowed_mentions=message.allowed_mentions,
                files=files,
            )
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
        self.faults: list[BaseException] = []

    async def send(self, content: str | None = None, *, view: Any = None, **kw: Any) -> FakeMessage:
        if self.faults:
            raise self.faults.pop(0)
        if not self.dms_open:
            raise http_error(discord.Forbidden, 403, 50007)
        assert content is None or len(content) <= 2000
        files = sent_files(kw)
        file = files[0] if files else None
        self.log.deliveries.append(
            Delivery("dm", self.id, content or "", "dm", view, file=file, files=files)
        )
        return FakeMessage(
            next_id(),
            None,
            content or "",
            view,
            ephemeral_to=self.id,
            files=files,
            dm=True,
            log=self.log,
        )


class FakeClient:
    """The parts of `discord.Client` the adapter uses."""

    def __init__(self, log: Log) -> None:
        self.log = log
        self.channels: dict[int, FakeChannel] = {}
        self.users: dict[int, FakeUser] = {}
        self.adapter: Any = None
        self.faults: list[BaseException] = []  # raised by the next interaction calls
        self.newest: dict[int, FakeInteraction] = {}  # user id -> their newest interaction
        self.activity_refusal: BaseException | None = None  # what `launch_activity` raises
        self.view_store = discord.ui.view.ViewStore(None)  # type: ignore[arg-type]

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
        self.interaction.take_fault()  # a reset connection: the call never reached Discord
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
        if not modal.is_finished():  # what discord.py does: `state.store_view(modal)`
            self.interaction.client.view_store.add_view(modal)

    async def edit_message(
        self, *, content: str | None = None, view: Any = None, **kw: Any
    ) -> None:
        self._ack("edit_message")
        self.interaction._edit_source(content, view)

    async def autocomplete(self, choices: list[Any]) -> None:
        self._ack("autocomplete")

    async def launch_activity(self) -> None:
        """LAUNCH_ACTIVITY: Discord opens the app's Activity for the presser (nothing is shown
        in the channel); refused like Discord does when `client.activity_refusal` is set."""
        refusal = getattr(self.interaction.client, "activity_refusal", None)
        if refusal is not None:
            self.interaction.log.acks.setdefault(self.interaction.id, []).append("refused")
            raise refusal
        self._ack("launch_activity")


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
        interaction.take_fault()
        if interaction.expired:
            raise http_error(discord.NotFound, 404, 10015)
        if response.thinking and not interaction.original_resolved:
            # Discord: the first follow-up replaces the "thinking" message, keeping its visibility.
            interaction.original_resolved = True
            ephemeral = response.ephemeral
        return interaction._show(content or "", ephemeral, view, "followup", sent_files(kw))


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
        self.type = discord.InteractionType.application_command
        self.command_failed = False
        self._state: Any = None  # read by discord.py for resolved users and roles (none here)
        self.command: Any = None  # set by the command tree once it found the command
        self.guild: Any = None
        self.sent: list[FakeMessage] = []  # the messages this interaction's answers created

    def in_sight(self, message: FakeMessage) -> bool:
        """Whether this interaction's user still sees `message`, an ephemeral reply of this
        interaction: while they are in it, or they pressed a component on that message."""
        newest = self.client.newest.get(self.user.id, self)
        return newest is self or newest.message is message

    def take_fault(self) -> None:
        """Raise the client's next injected fault, if any."""
        if self.client.faults:
            raise self.client.faults.pop(0)

    def _show(
        self, content: str, ephemeral: bool, view: Any, how: str, files: list[Any] | None = None
    ) -> FakeMessage:
        assert len(content) <= 2000
        channel = self.client.get_partial_messageable(self.channel_id)
        files = list(files or [])
        file = files[0] if files else None
        if ephemeral:  # in the channel, but only this user sees it
            self.log.deliveries.append(
                Delivery(
                    "ephemeral", self.user.id, content, how, view, self.id, file=file, files=files
                )
            )
            message = FakeMessage(
                next_id(),
                channel,
                content,
                view,
                ephemeral_to=self.user.id,
                files=files,
                interaction=self,
                log=self.log,
            )
            self.sent.append(message)
            return message
        self.log.deliveries.append(Delivery("channel", channel.id, content, how, view, self.id))
        message = FakeMessage(next_id(), channel, content, view)
        channel.messages[message.id] = message
        self.sent.append(message)
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
        self.take_fault()
        if self.expired:
            raise http_error(discord.NotFound, 404, 10015)
        new_content = None if content is ... else content
        new_view = None if view is ... else view
        if response.thinking:
            self.original_resolved = True
            if self.original is None:
                self.original = self._show(
                    new_content or "",
                    response.ephemeral,
                    new_view,
                    "edit_original",
                    kw.get("attachments") or [],
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
        self.take_fault()
        self.original_resolved = True


class HandClock:
    """Seconds that move only when something sleeps: pacing and waits cost no real time."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self.slept: list[float] = []  # every wait asked for, in order

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += max(seconds, 0.0)
        await asyncio.sleep(0)


def quick_boards(**kwargs: Any) -> Any:
    """Table boards and lanes on a `HandClock`: every write at once, pacing without waiting."""
    from bot.adapters.discord.board import Boards

    clock = HandClock()
    kwargs.setdefault("min_interval", 0)
    kwargs.setdefault("retry_after", 0)
    return Boards(clock=clock, sleep=clock.sleep, **kwargs)


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
        self.auto_settle = True  # let queued channel traffic go out after each interaction

    async def settle(self) -> None:
        """Let everything the adapter queued (table writes, posts, DMs) go out."""
        await self.adapter.boards.settle()

    async def _after(self, interaction: FakeInteraction) -> FakeInteraction:
        if self.auto_settle:
            await self.settle()
        return interaction

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
        self.client.newest[user.id] = interaction
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
        return await self._after(interaction)

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
        from bot.adapters.discord.activity import REGISTERED_ITEMS

        assert len(custom_id) <= 100
        data = {"custom_id": custom_id, "component_type": 3 if values is not None else 2}
        if values is not None:
            data["values"] = values
        channel_id = message.channel.id if message and message.channel else 0
        interaction = self.interaction(
            user, channel_id, locale=locale, data=data, message=message, expired=expired
        )
        for factory in REGISTERED_ITEMS:
            match = re.fullmatch(factory.__discord_ui_compiled_template__, custom_id)
            if match is not None:
                base = discord.ui.Button(custom_id=custom_id)
                item = await factory.from_custom_id(interaction, base, match)  # type: ignore[arg-type]
                await item.callback(interaction)  # type: ignore[arg-type]
                break
        if interaction.response.modal is not None:
            self.modals[user.id] = (interaction.response.modal, channel_id)
        return await self._after(interaction)

    async def submit_modal(self, user: FakeUser, value: str) -> FakeInteraction:
        """Type `value` into the last modal `user` was shown and submit it, as Discord sends a
        submission: the modal's custom id and each text input's custom id with its value. Like
        discord.py, the open modal is found by that custom id in the client's `ViewStore`; when
        none matches, the submission is dropped (and the interaction never answered)."""
        shown, channel_id = self.modals.pop(user.id)
        payload = shown.to_dict()
        components = [
            {
                "type": 1,
                "components": [
                    {"type": 4, "custom_id": c["custom_id"], "value": value}
                    for c in row["components"]
                ],
            }
            for row in payload["components"]
        ]
        data = {"custom_id": payload["custom_id"], "components": components}
        interaction = self.interaction(user, channel_id, data=data)
        interaction.type = discord.InteractionType.modal_submit
        modal = self.client.view_store._modals.get(payload["custom_id"])
        if modal is not None:  # `ViewStore.dispatch_modal`, awaited here
            await modal._dispatch_submit(interaction, components, {})
        return await self._after(interaction)

    async def dispatch_command(
        self, user: FakeUser, data: dict[str, Any], channel_id: int, *, locale: str = "en-US"
    ) -> FakeInteraction:
        """Hand a raw application-command interaction to the real command tree, as discord.py's
        `CommandTree._from_interaction` does (look-up, call, and errors to the tree's handler)."""
        interaction = self.interaction(user, channel_id, locale=locale, data=data)
        try:
            await self.tree._call(interaction)  # type: ignore[arg-type]
        except app_commands.AppCommandError as error:
            await self.tree._dispatch_error(interaction, error)  # type: ignore[arg-type]
        return await self._after(interaction)

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
