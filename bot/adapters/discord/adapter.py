"""Discord interactions -> core commands and presses, and the core's answers back out.

Every interaction is acknowledged first (a deferral, or the amount modal), then answered with
follow-ups, so Discord's 3-second deadline holds however long the core takes:

- slash commands and "Show my hand" defer as an ephemeral "thinking" reply; the sender's own
  private lines and refusals replace it (or it is deleted when there are none);
- turn buttons, the draw select and the amount modal defer as a silent update; the sender's
  private lines and refusals arrive as ephemeral follow-ups.

Public lines go to the channel, the table message is edited through `Boards` (coalesced). A
private item for someone other than the sender goes by direct message; when their DMs are closed
it is kept for their next interaction and the channel is told, without any card. A private
item's picture (the player's own hand or rack) goes with its text, in a message of its own, and
never to a channel; the only pictures a channel gets are the core's public ones.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord
from discord.app_commands import Choice

from bot.adapters.batch import coalesce
from bot.adapters.discord.board import Boards, Render, clip, picture_file
from bot.adapters.discord.components import (
    AmountModal,
    TurnRef,
    cards_in,
    draw_view,
    table_view,
    tiles_in,
)
from bot.adapters.discord.texts import locale_of, text
from bot.adapters.lookups import chosen_locale
from bot.core.commands import route
from bot.core.messages import NEEDS_AMOUNT, NEEDS_CARDS, Button, Command, Outgoing, OutKind, Press
from bot.logs import kv

log = logging.getLogger("bot.discord")

PLATFORM = "discord"
GAME_GROUPS = ("poker", "okey")
HAND_WORD = {"poker": "hand", "okey": "rack"}
INBOX_LIMIT = 10  # private parts kept for one user whose DMs are closed
MAX_CHOICES = 25
PRIVATE_PICTURE = "hand.png"  # file name of a player's own hand or rack picture
SNOWFLAKE_MIN = 1 << 32  # Discord ids are far above this; Telegram group ids are negative


class CoreApi(Protocol):
    """What the adapter needs from the bot core. Two more are used when present (read only):
    `tables.get(table_id)` (a table's language and platform) and
    `await locale_of(platform, user_id)` (a player's `/lang` choice, `bot.core.app.Core`)."""

    async def handle(self, command: Command) -> list[Outgoing]: ...

    async def press(self, press: Press) -> list[Outgoing]: ...


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
    fresh_table: bool = False  # `/poker table`: post the table message anew


def is_moderator(interaction: Any, role: str | None) -> bool:
    """Manage Server or Manage Messages in this channel, or the configured role (name or id)."""
    perms = getattr(interaction, "permissions", None)
    if perms is not None and (perms.manage_guild or perms.manage_messages):
        return True
    if not role:
        return False
    roles = getattr(interaction.user, "roles", None) or ()
    return any(r.name == role or str(r.id) == role for r in roles)


@dataclass(frozen=True)
class Part:
    """One private text for a user, with the components that go with it (Okey tile buttons, the
    draw select) or None, and the picture of that user's own cards or rack (PNG) or None."""

    text: str
    view: Any = None
    picture: bytes | None = None


def chunks(parts: Sequence[Part]) -> list[Part]:
    """Parts joined into as few messages of at most 2,000 characters as possible; a part with
    components or a picture starts a message of its own and nothing is appended after it (a
    picture belongs to its own words, and an attachment can never be moved to another text)."""
    out: list[Part] = []
    for part in parts:
        last = out[-1] if out else None
        if (
            last is not None
            and last.view is None
            and last.picture is None
            and part.view is None
            and part.picture is None
            and len(last.text) + 2 + len(part.text) <= 2000
        ):
            out[-1] = Part(last.text + "\n\n" + part.text)
        else:
            out.append(Part(clip(part.text), part.view, part.picture))
    return out


def newest_picture(parts: Sequence[Part]) -> list[Part]:
    """The parts with every picture but the last one dropped (their words stay): each hand or
    rack picture shows the whole hand after a step, so an older one kept for a user is stale."""
    last = max((i for i, p in enumerate(parts) if p.picture is not None), default=-1)
    return [
        p if p.picture is None or i == last else Part(p.text, p.view) for i, p in enumerate(parts)
    ]


def _extra(part: Part, *, edit: bool = False) -> dict[str, Any]:
    """The keyword arguments that carry a part's components and picture. An edit of the
    original response takes new files as `attachments` (discord.py has no `file` there)."""
    extra: dict[str, Any] = {} if part.view is None else {"view": part.view}
    if part.picture is not None:
        file = picture_file(part.picture, PRIVATE_PICTURE)
        extra.update({"attachments": [file]} if edit else {"file": file})
    return extra


class DiscordAdapter:
    """Translates between Discord interactions and the core; one per bot (all shards)."""

    def __init__(
        self,
        core: CoreApi,
        *,
        default_locale: str = "tr",
        moderator_role: str | None = None,
        dm_fallback: bool = True,
        boards: Boards | None = None,
        inbox_limit: int = INBOX_LIMIT,
    ) -> None:
        self.core = core
        self.default_locale = default_locale
        self.moderator_role = moderator_role
        self.dm_fallback = dm_fallback
        self.inbox_limit = inbox_limit
        self.client: Any = None  # set by `attach`
        self.boards = boards or Boards()
        if self.boards.channel_of is None:
            self.boards.channel_of = self._channel
        # table id -> core custom id -> button, of the newest table message (amount bounds)
        self.buttons: dict[str, dict[str, Button]] = {}
        self.groups: dict[str, str] = {}  # table id -> "poker" | "okey"
        self.inbox: dict[str, list[Part]] = {}  # user id -> private parts kept for them
        self.dm_closed: set[str] = set()
        self.told: set[tuple[str, str]] = set()  # (table, user) told in the channel already

    def attach(self, client: Any) -> None:
        """Serve `client`'s interactions (components find the adapter as `client.adapter`)."""
        self.client = client
        client.adapter = self

    def _channel(self, channel_id: int) -> Any:
        """A channel to send to by id, without fetching it."""
        return self.client.get_partial_messageable(channel_id)

    # ---- acknowledging -----------------------------------------------------------------------
    async def _origin(self, interaction: Any, thinking: bool) -> Origin:
        locale = await self._speaks(interaction)
        return Origin(interaction, str(interaction.user.id), locale, thinking)

    async def _speaks(self, interaction: Any, table_id: str | None = None) -> str:
        """The language of the adapter's own texts to the interaction's user, by the core's rule:
        their `/lang` choice, else their Discord locale when it is Turkish or English, else the
        table's when the text is about one, else the bot's default."""
        known = await self._chosen(str(interaction.user.id)) or locale_of(interaction.locale)
        if known is not None:
            return known
        return self._table_locale(table_id) if table_id is not None else self.default_locale

    async def _chosen(self, user_id: str) -> str | None:
        """The user's `/lang` choice, or None (see `bot.adapters.lookups.chosen_locale`)."""
        return await chosen_locale(self.core, PLATFORM, user_id)

    async def _defer(self, interaction: Any, thinking: bool) -> Origin | None:
        """Acknowledge at once; None when Discord no longer knows the interaction (too late)."""
        try:
            if thinking:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()
        except discord.NotFound:
            log.warning(kv(event="interaction_expired", user=interaction.user.id))
            return None
        return await self._origin(interaction, thinking)

    async def _reply(self, origin: Origin, parts: Sequence[Part | str]) -> None:
        """The sender's ephemeral parts (after any kept for them); resolves a "thinking" reply
        even when there is nothing to say."""
        kept = self.inbox.pop(origin.user_id, [])
        fresh = [p if isinstance(p, Part) else Part(p) for p in parts]
        messages = chunks(newest_picture([*kept, *fresh]))
        interaction = origin.interaction
        try:
            if origin.thinking and not origin.answered:
                origin.answered = True
                if not messages:
                    await interaction.delete_original_response()
                    return
                first, messages = messages[0], messages[1:]
                await interaction.edit_original_response(
                    content=first.text, **_extra(first, edit=True)
                )
            for message in messages:
                await interaction.followup.send(message.text, ephemeral=True, **_extra(message))
        except discord.HTTPException as exc:
            log.warning(kv(event="reply_failed", user=origin.user_id, status=exc.status))

    # ---- slash commands ----------------------------------------------------------------------
    def _command(
        self, interaction: Any, name: str, args: tuple[str, ...], *, moderator: bool = False
    ) -> Command:
        """A core command from the interaction's channel, user and language."""
        return Command(
            platform=PLATFORM,
            channel_id=str(interaction.channel_id),
            user_id=str(interaction.user.id),
            user_name=interaction.user.display_name,
            name=name,
            args=args,
            locale=locale_of(interaction.locale),
            is_moderator=moderator,
        )

    async def run_command(self, interaction: Any, name: str, args: tuple[str, ...]) -> None:
        """A slash command: deferred, sent to the core, answered."""
        origin = await self._defer(interaction, thinking=True)
        if origin is None:
            return
        moderator = is_moderator(interaction, self.moderator_role)
        command = self._command(interaction, name, args, moderator=moderator)
        routed = route(name, args)
        origin.fresh_table = routed.sub == "table"
        await self._call(origin, self.core.handle(command), routed.group)

    async def _answer(self, origin: Origin, pending: Any) -> list[Outgoing] | None:
        """Await a core answer; when the core crashes, log it, tell the sender and return None."""
        try:
            return await pending
        except Exception:
            log.exception(kv(event="core_failed", user=origin.user_id))
            await self._reply(origin, [text(origin.locale, "failed")])
            return None

    async def _call(self, origin: Origin, pending: Any, group: str | None = None) -> None:
        """Await a core answer and deliver it; a crash still answers the sender."""
        items = await self._answer(origin, pending)
        if items is None:
            return
        if group in GAME_GROUPS:
            for item in items:
                if item.table_id is not None:
                    self.groups[item.table_id] = group
        await self.deliver(items, origin)

    async def rack_choices(self, interaction: Any, current: str) -> list[Choice[str]]:
        """Autocomplete for `/okey discard|finish`: the tiles of my own rack."""
        command = self._command(interaction, "okey", ("rack",))
        try:
            items = await self.core.handle(command)
        except Exception:
            log.exception(kv(event="autocomplete_failed", user=interaction.user.id))
            return []
        mine = [i.text for i in items if i.kind is OutKind.PRIVATE and i.user_id == command.user_id]
        # The rack is the first line; later lines name other tiles (the okey, the arrangement).
        rack = mine[0].splitlines()[0] if mine and mine[0] else ""
        typed = current.strip().upper()
        tiles = [t for t in tiles_in(rack) if t.upper().startswith(typed)]
        return [Choice(name=t, value=t) for t in tiles[:MAX_CHOICES]]

    # ---- components --------------------------------------------------------------------------
    def _press(self, interaction: Any, ref: TurnRef, args: tuple[str, ...]) -> Press:
        return Press(
            platform=PLATFORM,
            channel_id=str(interaction.channel_id),
            user_id=str(interaction.user.id),
            user_name=interaction.user.display_name,
            table_id=ref.table_id,
            action=ref.action,
            nonce=ref.nonce,
            args=args,
            locale=locale_of(interaction.locale),
            is_moderator=is_moderator(interaction, self.moderator_role),
        )

    async def on_turn(self, interaction: Any, ref: TurnRef) -> None:
        """A turn button: an amount asks through a modal, a draw through a select of my cards,
        anything else goes straight to the core."""
        if ref.needs == NEEDS_AMOUNT:
            button = self.buttons.get(ref.table_id, {}).get(ref.core_id)
            modal = AmountModal(ref, await self._speaks(interaction, ref.table_id), button)
            try:
                await interaction.response.send_modal(modal)
            except discord.NotFound:
                log.warning(kv(event="interaction_expired", user=interaction.user.id))
            return
        if ref.needs == NEEDS_CARDS:
            await self._draw_picker(interaction, ref)
            return
        origin = await self._defer(interaction, thinking=False)
        if origin is not None:
            await self._call(origin, self.core.press(self._press(interaction, ref, ())))

    async def _draw_picker(self, interaction: Any, ref: TurnRef) -> None:
        """Answer a draw button with an ephemeral select of the presser's own cards."""
        origin = await self._defer(interaction, thinking=True)
        if origin is None:
            return
        items = await self._answer(
            origin, self.core.handle(self._command(interaction, "poker", ("hand",)))
        )
        if items is None:
            return
        refusals = [i.text for i in items if i.kind is OutKind.ERROR]
        if refusals:
            await self._reply(origin, refusals)
            return
        own = [i for i in items if i.kind is OutKind.PRIVATE and i.user_id == origin.user_id]
        hand = "\n".join(i.text for i in own)
        picture = next((i.picture for i in reversed(own) if i.picture is not None), None)
        cards = cards_in(hand)
        locale = await self._speaks(interaction, ref.table_id)
        if not cards:  # e.g. folded: nothing to pick, but the core's words still go out
            await self._reply(origin, [t for t in (hand, text(locale, "draw_unreadable")) if t])
            return
        most = ref.max_cards if ref.max_cards is not None else len(cards)
        prompt = hand + "\n" + text(locale, "draw_prompt", n=most)
        await self._reply(origin, [Part(prompt, draw_view(ref, cards, locale), picture)])

    async def on_draw(self, interaction: Any, ref: TurnRef, cards: tuple[str, ...]) -> None:
        """The draw select was submitted: the chosen cards are the press's arguments."""
        origin = await self._defer(interaction, thinking=False)
        if origin is None:
            return
        await self._call(origin, self.core.press(self._press(interaction, ref, cards)))
        try:  # the picker has done its job
            await interaction.edit_original_response(view=None)
        except discord.HTTPException as exc:
            log.info(kv(event="picker_kept", status=exc.status))

    async def on_amount(self, interaction: Any, ref: TurnRef, value: str) -> None:
        """The amount modal was submitted: the number is the press's argument."""
        origin = await self._defer(interaction, thinking=False)
        if origin is None:
            return
        words = tuple(value.split()[:1])
        await self._call(origin, self.core.press(self._press(interaction, ref, words)))

    async def on_show_hand(self, interaction: Any, table_id: str, group: str) -> None:
        """The "Show my hand" button: the presser's cards or rack, only to them."""
        origin = await self._defer(interaction, thinking=True)
        if origin is None:
            return
        self.groups.setdefault(table_id, group)
        command = self._command(interaction, group, (HAND_WORD.get(group, "hand"),))
        await self._call(origin, self.core.handle(command), group)

    # ---- delivery ----------------------------------------------------------------------------
    async def deliver(self, items: Sequence[Outgoing], origin: Origin | None = None) -> None:
        """Send the core's items: the sender's own as ephemeral replies, the rest to channels,
        table messages and direct messages."""
        items = coalesce(items)
        mine: list[Part] = []
        for item in items:
            if item.kind in (OutKind.PRIVATE, OutKind.ERROR):
                if origin is not None and item.user_id == origin.user_id:
                    mine.append(self._part(item))
                elif item.kind is OutKind.PRIVATE:
                    await self._private_to_other(item, origin)
                else:
                    log.info(kv(event="error_dropped", user=item.user_id))
        posted = True
        for item in items:
            if item.kind is OutKind.PUBLIC:
                posted = await self._public(item) and posted
            elif item.kind is OutKind.EDIT_TABLE:
                fresh = origin is not None and origin.fresh_table
                posted = await self._table(item, fresh=fresh) and posted
        if origin is not None:
            if not posted:  # e.g. no Send Messages here: say so instead of staying silent
                mine.append(Part(text(origin.locale, "cannot_post")))
            await self._reply(origin, mine)

    async def deliver_unasked(self, items: Sequence[Outgoing]) -> None:
        """Items no interaction asked for (timers, tables resumed at start): only Discord's."""
        await self.deliver([item for item in items if self._for_discord(item)])

    def _for_discord(self, item: Outgoing) -> bool:
        """Whether an unasked item is for Discord: a table this adapter shows or the core says is
        Discord's, or else a channel id that can only be a Discord snowflake."""
        if item.table_id is not None:
            if item.table_id in self.boards.boards or item.table_id in self.groups:
                return True
            live = self._live(item.table_id)
            if live is not None:
                return getattr(live, "platform", None) == PLATFORM
        channel = item.channel_id or ""
        return channel.isdigit() and int(channel) >= SNOWFLAKE_MIN

    def _live(self, table_id: str) -> Any:
        """The core's open table, when the core exposes its table service (read only)."""
        tables = getattr(self.core, "tables", None)
        getter = getattr(tables, "get", None)
        return getter(table_id) if callable(getter) else None

    def _group(self, table_id: str) -> str:
        """The table's game ("poker" or "okey"), for its "Show my hand" button: learnt from the
        commands that touched it, else from the core's open table, else poker."""
        group = self.groups.get(table_id)
        if group is None:
            live = self._live(table_id)
            group = getattr(getattr(live, "session", None), "group", None) or "poker"
            self.groups[table_id] = group
        return group

    def _remember(self, table_id: str, rows: tuple[tuple[Button, ...], ...]) -> None:
        """Keep the buttons of a table's newest message (older ones are stale anyway)."""
        self.buttons[table_id] = {b.custom_id: b for row in rows for b in row}

    def prune(self) -> int:
        """Forget the messages, buttons and notices of tables the core has closed; returns how
        many were forgotten (nothing when the core does not expose its open tables)."""
        if getattr(getattr(self.core, "tables", None), "get", None) is None:
            return 0
        gone = [t for t in {*self.boards.boards, *self.groups} if self._live(t) is None]
        for table_id in gone:
            self.boards.forget(table_id)
            self.groups.pop(table_id, None)
            self.buttons.pop(table_id, None)
        self.told = {(t, u) for t, u in self.told if t not in gone}
        return len(gone)

    def _part(self, item: Outgoing) -> Part:
        """A private item as a part: its text, its buttons (Okey tiles) as components, and its
        picture (the user's own cards or rack)."""
        view = table_view(item.buttons, None, None, "") if item.buttons else None
        return Part(item.text, view, item.picture)

    async def _public(self, item: Outgoing) -> bool:
        """Post a public item in its channel; False when Discord refused the post."""
        channel_id = item.channel_id
        if channel_id is None and item.table_id is not None:
            known = self.boards.channel_id(item.table_id)
            channel_id = None if known is None else str(known)
        if channel_id is None or not channel_id.isdigit():
            log.warning(kv(event="public_without_channel", table=item.table_id))
            return True
        kwargs: dict[str, Any] = {"content": clip(item.text)}
        if item.picture is not None:
            kwargs["file"] = picture_file(item.picture)
        try:
            await self._channel(int(channel_id)).send(**kwargs)
        except discord.HTTPException as exc:
            log.warning(kv(event="post_failed", channel=channel_id, status=exc.status))
            return False
        return True

    async def _table(self, item: Outgoing, *, fresh: bool = False) -> bool:
        """Show the table's newest state (edited in place, or posted anew when `fresh`); False
        when Discord refused it."""
        if item.table_id is None or item.channel_id is None or not item.channel_id.isdigit():
            log.warning(kv(event="table_without_channel", table=item.table_id))
            return True
        self._remember(item.table_id, item.buttons)
        label = text(self._table_locale(item.table_id), "show_hand")
        view = table_view(item.buttons, item.table_id, self._group(item.table_id), label)
        render = Render(item.text, view, item.picture)
        return await self.boards.show(item.table_id, int(item.channel_id), render, fresh=fresh)

    def _table_locale(self, table_id: str) -> str:
        """The table's language (its text is in it), for the adapter's own button label."""
        live = self._live(table_id)
        locale = getattr(getattr(live, "session", None), "locale", None)
        return locale_of(locale) or self.default_locale

    async def _private_to_other(self, item: Outgoing, origin: Origin | None) -> None:
        """A private item for someone who is not the sender: a direct message, or kept for their
        next interaction (and the channel told, without the content) when DMs are closed."""
        user_id = item.user_id
        if user_id is None or not user_id.isdigit():
            return
        part = self._part(item)
        if self.dm_fallback and user_id not in self.dm_closed:
            try:
                user = self.client.get_user(int(user_id)) or await self.client.fetch_user(
                    int(user_id)
                )
                await user.send(clip(part.text), **_extra(part))
                return
            except discord.Forbidden:
                self.dm_closed.add(user_id)
                log.info(kv(event="dm_closed", user=user_id))
            except discord.HTTPException as exc:
                log.warning(kv(event="dm_failed", user=user_id, status=exc.status))
        kept = self.inbox.setdefault(user_id, [])
        kept.append(part)
        kept[:] = newest_picture(kept[-self.inbox_limit :])
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
        try:
            await self._channel(int(channel)).send(
                content=notice,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(int(user_id))]
                ),
            )
        except discord.HTTPException as exc:
            log.warning(kv(event="notice_failed", channel=channel, status=exc.status))
