"""The core's items out to Discord: the sender's ephemeral replies, direct messages, channel posts
and the table message, each in its lane.

Answer first. Every interaction is acknowledged before anything else is asked of Discord or the
database (a deferral, or the amount modal), then answered with the sender's own words, and only
then does the rest go out:

- slash commands and "Show my hand" defer as an ephemeral "thinking" reply; the sender's own
  private lines and refusals replace it (or it is deleted when there are none);
- turn buttons, the draw select and the amount modal defer as a silent update; the sender's
  private lines and refusals arrive as ephemeral follow-ups.

Everything else is queued per destination (`outbox.Lanes`): public lines and the table message
(`Boards`, coalesced) in the channel's lane, direct messages to other players in theirs. So a
busy channel never delays an answer, and a failure there is reported to the sender afterwards,
ephemerally. Refusals only ever reach the sender. A private item for someone other than the
sender goes by direct message; when their DMs are closed it is kept for their next interaction
and the channel is told, without any card. A private item's picture (the player's own hand or
rack) goes with its text, in a message of its own, and never to a channel.

A private item with a `slot` edits the user's previous message of that slot where Discord
allows it and the user still sees it (a DM; an ephemeral reply of the interaction being answered,
or the one whose button was pressed, while its token lasts); else it is a new message, so the
current cards or rack are always in sight. Private turn buttons
(the Okey tiles) are taken off older messages as soon as the turn moved on. Network faults
(connection resets, time-outs) are caught on every call: an answer is tried once more, and a
lost channel write is reported to the sender.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import discord

from bot.adapters.batch import coalesce
from bot.adapters.discord.activity import add_open_button
from bot.adapters.discord.board import (
    FAULT,
    NO_MENTIONS,
    REFUSED,
    Boards,
    Render,
    clip,
    reason_of,
    send_to_channel,
)
from bot.adapters.discord.components import table_view
from bot.adapters.discord.escape import shown_as_typed
from bot.adapters.discord.outbox import (
    TRANSPORT_ERRORS,
    Priority,
    channel_lane,
    status_of,
    user_lane,
)
from bot.adapters.discord.parts import (
    Part,
    chunks,
    extra_kwargs,
    newest_items_per_slot,
    newest_per_slot,
    newest_picture,
)
from bot.adapters.discord.private import PrivateMessages, Sent
from bot.adapters.discord.rooms import DiscordRooms
from bot.adapters.discord.texts import locale_of, text
from bot.adapters.lookups import chosen_locale
from bot.caches import Expiring, Lru
from bot.core.api import CoreApi
from bot.core.messages import Button, Outgoing, OutKind
from bot.core.table.rooms import parent_of
from bot.core.tournament.view import is_tournament_id
from bot.logs import kv

log = logging.getLogger("bot.discord")

PLATFORM = "discord"
INBOX_LIMIT = 10  # private parts kept for one user whose DMs are closed
SNOWFLAKE_MIN = 1 << 32  # Discord ids are far above this; Telegram group ids are negative
RETRY_PAUSE = 0.5  # seconds before an answer lost to a network fault is tried once more

T = TypeVar("T")


@dataclass
class Origin:
    """The interaction being answered: who sent it, and how its reply was acknowledged.

    `thinking` is True when the acknowledgement was an ephemeral "thinking" reply (which the first
    ephemeral text replaces), False for a silent update (every text is a new follow-up)."""

    interaction: Any
    user_id: str
    locale: str  # the language of the adapter's own texts to this user: `tr` or `en`
    thinking: bool
    answered: bool = False
    failure_told: bool = False  # the sender was told that a channel write was lost


def is_fault(exc: BaseException) -> bool:
    """A network fault or a Discord server error (worth one more try), not a refusal."""
    return reason_of(exc) == FAULT


class DiscordDelivery:
    """The delivering half of the adapter (`DiscordAdapter` sets the state up): answers to the
    sender, direct messages, channel posts and table messages, and what they remember."""

    core: CoreApi
    default_locale: str
    dm_fallback: bool
    inbox_limit: int
    sleep: Callable[[float], Awaitable[None]]
    retry_pause: float
    client: Any
    boards: Boards
    lanes: Any
    rooms: DiscordRooms
    private: PrivateMessages
    buttons: dict[str, dict[str, Button]]
    groups: dict[str, str]
    inbox: Lru[str, list[Part]]
    dm_closed: Expiring[str]
    told: set[tuple[str, str]]
    locales: Lru[str, str | None]
    rooms_of: dict[str, str]
    activity: bool  # the Activity is configured: table messages offer "Open the table"

    def _channel(self, channel_id: int) -> Any:
        """A channel to send to by id, without fetching it."""
        return self.client.get_partial_messageable(channel_id)

    async def flush(self, timeout: float) -> None:
        """Write every pending table update and everything queued (shutdown): waits at most
        `timeout` seconds, then drops what is left (logged). Table threads waiting to be
        closed are closed after the last table writes."""

        async def settle() -> None:
            await self.boards.settle()
            if self.rooms.close_now():
                await self.boards.settle()

        try:
            await asyncio.wait_for(settle(), timeout)
        except TimeoutError:
            log.warning(kv(event="flush_timed_out", lanes=self.lanes.busy()))
            self.boards.cancel()

    async def _retrying(self, call: Callable[[], Awaitable[T]]) -> T:
        """`call()`, tried once more after a short pause when the network or Discord's servers
        failed it (a refusal is raised at once). `call` builds its files anew on each try."""
        try:
            return await call()
        except TRANSPORT_ERRORS as exc:
            if not is_fault(exc):
                raise
            log.info(kv(event="retrying", error=type(exc).__name__))
        await self.sleep(self.retry_pause)
        return await call()

    async def _chosen(self, user_id: str) -> str | None:
        """The user's `/lang` choice, or None (see `bot.adapters.lookups.chosen_locale`); kept
        in memory for `_speaks_now`."""
        choice = await chosen_locale(self.core, PLATFORM, user_id)
        self.locales[user_id] = choice
        return choice

    def _table_locale(self, table_id: str) -> str:
        """The table's language (its text is in it), for the adapter's own button label."""
        info = self.core.table_info(table_id)
        return (locale_of(info.locale) if info is not None else None) or self.default_locale

    async def _reply(self, origin: Origin, parts: Sequence[Part | str]) -> None:
        """The sender's ephemeral parts (after any kept for them); resolves a "thinking" reply
        even when there is nothing to say. A slotted part edits the sender's message of that slot
        when a silent update is answered (an explicit ask gets a new message)."""
        kept = self.inbox.pop(origin.user_id) or []
        fresh = [p if isinstance(p, Part) else Part(p) for p in parts]
        messages = chunks(newest_picture(newest_per_slot([*kept, *fresh])))
        for message in messages:
            try:
                await self._reply_one(origin, message)
            except TRANSPORT_ERRORS as exc:
                log.warning(kv(event="reply_failed", user=origin.user_id, status=status_of(exc)))
        if origin.thinking and not origin.answered:
            origin.answered = True
            try:
                await self._retrying(origin.interaction.delete_original_response)
            except TRANSPORT_ERRORS as exc:
                log.info(kv(event="thinking_kept", user=origin.user_id, error=repr(exc)))

    async def _reply_one(self, origin: Origin, part: Part) -> None:
        interaction = origin.interaction
        if origin.thinking and not origin.answered:
            origin.answered = True
            message = await self._retrying(
                lambda: interaction.edit_original_response(
                    content=part.text, allowed_mentions=NO_MENTIONS, **extra_kwargs(part, edit=True)
                )
            )
        elif await self._edited(origin.user_id, part, interaction):
            return
        else:
            message = await self._retrying(
                lambda: interaction.followup.send(
                    part.text,
                    ephemeral=True,
                    wait=True,
                    allowed_mentions=NO_MENTIONS,
                    **extra_kwargs(part),
                )
            )
        until = self.private.ephemeral_until()
        sent = Sent(message, until, part.table_id, part.nonce, interaction)
        self._track(origin.user_id, sent, part.slot)

    async def _edited(self, user_id: str, part: Part, interaction: Any = None) -> bool:
        """Edit the user's current message of the part's slot; False when there is none that
        can still be edited and that the user sees while `interaction` (theirs, or None) is
        answered, or the edit failed: then a new message is sent."""
        sent = self.private.of_slot(user_id, part.slot, interaction)
        if sent is None:
            return False
        try:
            await self._retrying(
                lambda: sent.message.edit(content=part.text, **extra_kwargs(part, edit=True))
            )
        except TRANSPORT_ERRORS as exc:
            log.info(kv(event="slot_edit_failed", user=user_id, error=type(exc).__name__))
            return False
        sent.table_id, sent.nonce = part.table_id, part.nonce
        self._track(user_id, sent, part.slot)
        return True

    def _track(self, user_id: str, sent: Sent, slot: str | None) -> None:
        """Remember a private message; the buttons of the ones it supersedes are taken away."""
        if sent.message is None:
            return
        for old in self.private.remember(user_id, sent, slot):
            self.lanes.put(user_lane(user_id), partial(self._strip, user_id, old))

    async def _strip(self, user_id: str, sent: Sent) -> None:
        """Take the buttons off an old private message (its turn is over)."""
        try:
            await sent.message.edit(view=None)
        except TRANSPORT_ERRORS as exc:
            log.info(kv(event="old_buttons_kept", user=user_id, error=type(exc).__name__))

    async def _failed(self, origin: Origin, reason: str) -> None:
        """Tell the sender, once, that what they did did not reach the channel."""
        if origin.failure_told:
            return
        origin.failure_told = True
        key = "cannot_post" if reason == REFUSED else "channel_failed"
        try:
            await self._retrying(
                lambda: origin.interaction.followup.send(text(origin.locale, key), ephemeral=True)
            )
        except TRANSPORT_ERRORS as exc:
            log.warning(kv(event="failure_notice_lost", user=origin.user_id, error=repr(exc)))

    async def deliver(self, items: Sequence[Outgoing], origin: Origin | None = None) -> None:
        """Send the core's items: the sender's own first, as ephemeral replies; then queue the
        rest (direct messages, channel posts, the table message) in their lanes."""
        items = [shown_as_typed(item) for item in newest_items_per_slot(coalesce(items))]
        mine: list[Part] = []
        others: list[Outgoing] = []
        for item in items:
            if item.kind in (OutKind.PRIVATE, OutKind.ERROR):
                if origin is not None and item.user_id == origin.user_id:
                    mine.append(self._part(item))
                elif item.kind is OutKind.PRIVATE:
                    others.append(item)
                else:
                    log.info(kv(event="error_dropped", user=item.user_id))
        if origin is not None:
            await self._reply(origin, mine)
        for item in others:
            if item.user_id is not None and item.user_id.isdigit():
                job = partial(self._private_to_other, item, origin)
                self.lanes.put(user_lane(item.user_id), job)
        failed = None if origin is None else partial(self._failed, origin)
        # an asked batch without a table answers one member: it waits behind the play
        answer = origin is not None and all(item.table_id is None for item in items)
        for item in items:
            if item.kind is OutKind.PUBLIC:
                self._public(item, failed, answer)
            elif item.kind is OutKind.EDIT_TABLE:
                self._table(item, failed)
        self._retire_stale_buttons(items)

    async def deliver_unasked(self, items: Sequence[Outgoing]) -> None:
        """Items no interaction asked for (timers, tables resumed at start): only Discord's."""
        await self.deliver([item for item in items if self._for_discord(item)])

    def _for_discord(self, item: Outgoing) -> bool:
        """Whether an unasked item is for Discord: a table this adapter shows or the core says is
        Discord's, or else a channel id that can only be a Discord snowflake."""
        if item.table_id is not None:
            if item.table_id in self.boards.boards or item.table_id in self.groups:
                return True
            info = self.core.table_info(item.table_id)
            if info is not None:
                return info.platform == PLATFORM
        channel = parent_of(item.channel_id or "")
        return channel.isdigit() and int(channel) >= SNOWFLAKE_MIN

    def _group(self, table_id: str) -> str:
        """The table's game ("poker" or "okey"), for its "Show my hand" button: learnt from the
        commands that touched it, else from the core's open table, else poker."""
        group = self.groups.get(table_id)
        if group is None:
            info = self.core.table_info(table_id)
            group = info.group if info is not None else "poker"
            self.groups[table_id] = group
        return group

    def _remember(self, table_id: str, rows: tuple[tuple[Button, ...], ...]) -> None:
        """Keep the buttons of a table's newest message (older ones are stale anyway)."""
        self.buttons[table_id] = {b.custom_id: b for row in rows for b in row}

    def prune(self) -> int:
        """Forget the messages, buttons and notices of tables the core has closed; returns how
        many were forgotten. A tournament's living message (`t<id>`) is no table: it is kept,
        so that its next update edits it instead of posting it anew."""
        self.private.prune()
        gone = [
            t
            for t in {*self.boards.boards, *self.groups}
            if not is_tournament_id(t) and self.core.table_info(t) is None
        ]
        for table_id in gone:
            self.boards.forget(table_id)
            self.groups.pop(table_id, None)
            self.buttons.pop(table_id, None)
            self.rooms_of.pop(table_id, None)
            self.private.forget_table(table_id)
        self.told = {(t, u) for t, u in self.told if t not in gone}
        for user, parts in self.inbox.items():  # parts kept about a closed table
            left = [p for p in parts if p.table_id not in gone]
            if len(left) != len(parts):
                if left:
                    self.inbox[user] = left
                else:
                    del self.inbox[user]
        self.dm_closed.expire()
        return len(gone)

    def _part(self, item: Outgoing) -> Part:
        """A private item as a part: its text (cut to Discord's limit, so a DM and an edit of
        one both take it), its buttons (Okey tiles) as components, its picture (the user's own
        cards or rack), its slot, the turn of its buttons and its attachment (a file)."""
        view = table_view(item.buttons, None, None, "") if item.buttons else None
        nonce = next((b.nonce for row in item.buttons for b in row), None)
        slot = item.slot if item.kind is OutKind.PRIVATE else None
        return Part(
            clip(item.text), view, item.picture, slot, item.table_id, nonce, item.attachment
        )

    def _public(
        self,
        item: Outgoing,
        failed: Callable[[str], Awaitable[None]] | None,
        answer: bool = False,
    ) -> None:
        """Queue a public item in its channel's lane (posted without pinging anyone); a shared
        room's goes to its parent channel. An `answer` to one member waits behind the play, and
        an identical one waiting stands for it (`outbox.Priority`)."""
        channel_id = None if item.channel_id is None else parent_of(item.channel_id)
        if channel_id is None and item.table_id is not None:
            known = self.boards.channel_id(item.table_id)
            channel_id = None if known is None else str(known)
        if channel_id is None or not channel_id.isdigit():
            log.warning(kv(event="public_without_channel", table=item.table_id))
            return
        channel = int(channel_id)
        if item.mention is not None and item.mention.user_id.isdigit():
            self._post(channel, _calling(item), "post_failed", failed)
            return

        async def send(where: Any) -> None:
            await self._retrying(
                lambda: send_to_channel(
                    where,
                    channel,
                    self.boards.pictures,
                    item.text,
                    picture=item.picture,
                    attachment=item.attachment,
                )
            )

        same = ("answer", item.text, item.picture) if answer else None
        priority = Priority.ANSWER if answer else Priority.TABLE
        self._post(channel, send, "post_failed", failed, priority=priority, same=same)

    def _post(
        self,
        channel_id: int,
        send: Callable[[Any], Awaitable[object]],
        event: str,
        failed: Callable[[str], Awaitable[None]] | None = None,
        *,
        priority: Priority = Priority.TABLE,
        same: Hashable | None = None,
    ) -> None:
        """Queue a new message in the channel's lane: paced, then `send(channel)`; a failure is
        logged as `event` and `failed` (when given) is told why."""
        lane = channel_lane(channel_id)

        async def post() -> None:
            await self.lanes.pace(lane)
            try:
                await send(self._channel(channel_id))
            except TRANSPORT_ERRORS as exc:
                log.warning(kv(event=event, channel=channel_id, status=status_of(exc)))
                if failed is not None:
                    await failed(reason_of(exc))

        self.lanes.put(lane, post, priority=priority, same=same)

    def _table(self, item: Outgoing, failed: Callable[[str], Awaitable[None]] | None) -> None:
        """Show the table's newest state: edited in place, or posted anew at the bottom when the
        item is `fresh` (the old message is deleted). A shared room's table message is one of
        several in its parent channel, each edited on its own."""
        channel = None if item.channel_id is None else parent_of(item.channel_id)
        if item.table_id is None or channel is None or not channel.isdigit():
            log.warning(kv(event="table_without_channel", table=item.table_id))
            return
        assert item.channel_id is not None
        if channel != item.channel_id:
            self.rooms_of[item.table_id] = item.channel_id
        self._remember(item.table_id, item.buttons)
        if is_tournament_id(item.table_id):  # a tournament's living message: nobody's hand
            view = table_view(item.buttons, None, None, "")
        else:
            locale = self._table_locale(item.table_id)
            label = text(locale, "show_hand")
            view = table_view(item.buttons, item.table_id, self._group(item.table_id), label)
            if self.activity:  # the live table in Discord (activity.py), shared rooms too
                add_open_button(view, item.table_id, text(locale, "open_table"))
        render = Render(item.text, view, item.picture, item.version)
        channel_id = int(channel)
        self.boards.show(item.table_id, channel_id, render, fresh=item.fresh, on_failed=failed)

    def _retire_stale_buttons(self, items: Sequence[Outgoing]) -> None:
        """Take the turn buttons off private messages (Okey tiles) of a turn that is over: the
        turn's nonce is the core's open table's, else the newest one this batch carries."""
        for table_id in {i.table_id for i in items if i.table_id is not None}:
            info = self.core.table_info(table_id)
            nonce = info.nonce if info is not None else None
            if nonce is None:
                carried = [
                    b.nonce
                    for i in items
                    if i.table_id == table_id
                    for row in i.buttons
                    for b in row
                ]
                nonce = carried[-1] if carried else None
            if nonce is None:
                continue  # the turn is not known here: leave the buttons (the core checks them)
            for user_id in self.private.holders(table_id):
                # Checked when the user's lane gets there: a message queued for them before
                # (an edit of that very message, say) may carry this turn's buttons by then.
                job = partial(self._strip_if_stale, user_id, table_id, nonce)
                self.lanes.put(user_lane(user_id), job)

    async def _strip_if_stale(self, user_id: str, table_id: str, nonce: str) -> None:
        """Take the buttons off the user's private message of the table unless they are of the
        turn `nonce`."""
        sent = self.private.stale(user_id, table_id, nonce)
        if sent is not None:
            await self._strip(user_id, sent)

    async def _private_to_other(self, item: Outgoing, origin: Origin | None) -> None:
        """A private item for someone who is not the sender: a direct message (editing their
        message of the same slot), or kept for their next interaction (and the channel told,
        without the content) when DMs are closed."""
        user_id = item.user_id
        assert user_id is not None
        part = self._part(item)
        if self.dm_fallback and user_id not in self.dm_closed:
            if await self._edited(user_id, part):
                return
            try:
                user = self.client.get_user(int(user_id)) or await self._retrying(
                    lambda: self.client.fetch_user(int(user_id))
                )
                message = await self._retrying(
                    lambda: user.send(part.text, allowed_mentions=NO_MENTIONS, **extra_kwargs(part))
                )
                self._track(user_id, Sent(message, None, part.table_id, part.nonce), part.slot)
                return
            except discord.Forbidden:
                self.dm_closed.add(user_id)
                log.info(kv(event="dm_closed", user=user_id))
            except TRANSPORT_ERRORS as exc:
                log.warning(kv(event="dm_failed", user=user_id, status=status_of(exc)))
        kept = self.inbox.setdefault(user_id, [])
        kept.append(part)
        kept[:] = newest_picture(newest_per_slot(kept)[-self.inbox_limit :])
        await self._tell_channel(item, user_id, origin)

    async def _tell_channel(self, item: Outgoing, user_id: str, origin: Origin | None) -> None:
        """Point a player whose private message could not be sent to the table's button, in the
        table's channel (once per table), without anything of the message itself."""
        table = item.table_id or ""
        if (table, user_id) in self.told:
            return
        channel = self.boards.channel_id(table) if table else None
        if channel is None and origin is not None:
            channel = getattr(origin.interaction, "channel_id", None)
        if channel is None:
            return
        self.told.add((table, user_id))
        key = "dm_closed" if user_id in self.dm_closed else "private_waiting"
        # Said in the table's channel to someone whose Discord locale we don't know: their
        # `/lang` choice, else the table's language, like the table text next to it.
        locale = await self._chosen(user_id) or (
            self._table_locale(table) if table else self.default_locale
        )
        notice = text(locale, key, mention=f"<@{user_id}>")
        pinged = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(int(user_id))]
        )

        async def send(where: Any) -> None:
            await where.send(content=notice, allowed_mentions=pinged)

        self._post(int(channel), send, "notice_failed")


def _calling(item: Outgoing) -> Callable[[Any], Awaitable[None]]:
    """Post a message that calls its `mention` (a relaxed table's turn): the name it starts
    with becomes `<@id>`, and only that user is pinged."""
    assert item.mention is not None
    user_id, name = item.mention.user_id, item.mention.name
    rest = item.text[len(name) :] if item.text.startswith(name) else " " + item.text
    pinged = discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(int(user_id))]
    )

    async def send(where: Any) -> None:
        await where.send(content=f"<@{user_id}>{rest}", allowed_mentions=pinged)

    return send
