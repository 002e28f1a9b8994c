"""Discord interactions in: slash commands, turn buttons, the draw select and the amount modal,
acknowledged first, then handed to the core as `Command` and `Press` (the answers go out through
`delivery.DiscordDelivery`)."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot.adapters.discord.components import AmountModal, TurnRef, draw_view
from bot.adapters.discord.delivery import PLATFORM, DiscordDelivery, Origin
from bot.adapters.discord.outbox import TRANSPORT_ERRORS, answer_privately
from bot.adapters.discord.parts import Part
from bot.adapters.discord.texts import locale_of, text
from bot.adapters.lookups import own_picker
from bot.core.commands import route
from bot.core.messages import NEEDS_AMOUNT, NEEDS_CARDS, Command, Outgoing, OutKind, Press
from bot.core.moves import Ask
from bot.core.names import clean_name
from bot.core.table.rooms import parent_of
from bot.logs import kv

log = logging.getLogger("bot.discord")

GAME_GROUPS = ("poker", "okey")
HAND_WORD = {"poker": "hand", "okey": "rack"}
MAX_CHOICES = 25
ALREADY_ACKNOWLEDGED = 40060  # Discord's code: the interaction was acknowledged (a retried ack)
UNKNOWN_COMMAND_ERRORS = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)


def is_moderator(interaction: Any, role: str | None) -> bool:
    """Manage Server or Manage Messages in this channel, or the configured role (name or id)."""
    perms = getattr(interaction, "permissions", None)
    if perms is not None and (perms.manage_guild or perms.manage_messages):
        return True
    if not role:
        return False
    roles = getattr(interaction.user, "roles", None) or ()
    return any(r.name == role or str(r.id) == role for r in roles)


def community_of(interaction: Any) -> str | None:
    """The community of the interaction: its server's id; None in a direct message."""
    guild_id = getattr(interaction, "guild_id", None)
    return None if guild_id is None else str(guild_id)


class DiscordInbound(DiscordDelivery):
    """The receiving half of the adapter: every interaction is acknowledged, turned into a core
    command or press, and its answer delivered."""

    moderator_role: str | None

    async def _origin(self, interaction: Any, thinking: bool) -> Origin:
        locale = await self._speaks(interaction)
        return Origin(interaction, str(interaction.user.id), locale, thinking)

    async def _speaks(self, interaction: Any, table_id: str | None = None) -> str:
        """The language of the adapter's own texts to the interaction's user, by the core's rule:
        their `/lang` choice, else their Discord locale when it is Turkish or English, else the
        table's when the text is about one, else the bot's default. Asks the core: only after
        the interaction was acknowledged."""
        await self._chosen(str(interaction.user.id))
        return self._speaks_now(interaction, table_id)

    def _speaks_now(self, interaction: Any, table_id: str | None = None) -> str:
        """`_speaks` from what is in memory only (the `/lang` choices looked up before), for the
        one answer that cannot wait for the database: the amount modal."""
        known = self.locales.get(str(interaction.user.id)) or locale_of(interaction.locale)
        if known is not None:
            return known
        return self._table_locale(table_id) if table_id is not None else self.default_locale

    async def _defer(self, interaction: Any, thinking: bool) -> Origin | None:
        """Acknowledge at once; None when Discord no longer knows the interaction (too late) or
        cannot be reached even on a second try."""

        async def acknowledge() -> None:
            try:
                if thinking:
                    await interaction.response.defer(ephemeral=True, thinking=True)
                else:
                    await interaction.response.defer()
            except discord.HTTPException as exc:
                if exc.code != ALREADY_ACKNOWLEDGED:  # the first try did reach Discord
                    raise

        try:
            await self._retrying(acknowledge)
        except discord.NotFound:
            log.warning(kv(event="interaction_expired", user=interaction.user.id))
            return None
        except TRANSPORT_ERRORS as exc:
            log.warning(kv(event="ack_failed", user=interaction.user.id, error=repr(exc)))
            return None
        return await self._origin(interaction, thinking)

    async def command_failed(self, interaction: Any, error: Exception) -> None:
        """The command tree's error handler: a command this build lacks (renamed, or left over
        from an old sync) or one that failed before reaching the adapter is answered ephemerally."""
        unknown = isinstance(error, UNKNOWN_COMMAND_ERRORS)
        if unknown:
            log.warning(kv(event="unknown_command", error=type(error).__name__))
        else:
            log.error(kv(event="command_error", error=repr(error)), exc_info=error)
        words = text(self._speaks_now(interaction), "unknown_command" if unknown else "failed")
        await answer_privately(interaction, words, "error_answer_failed")

    def _command(
        self,
        interaction: Any,
        name: str,
        args: tuple[str, ...],
        *,
        moderator: bool = False,
        table_id: str | None = None,
    ) -> Command:
        """A core command from the interaction's channel, user and language; about `table_id`
        (a button's table), from that table's channel: its shared room when it plays in one."""
        channel = str(interaction.channel_id)
        room = self.rooms_of.get(table_id) if table_id is not None else None
        if room is not None and parent_of(room) == channel:
            channel = room
        return Command(
            platform=PLATFORM,
            channel_id=channel,
            user_id=str(interaction.user.id),
            user_name=clean_name(interaction.user.display_name, str(interaction.user.id)),
            name=name,
            args=args,
            locale=locale_of(interaction.locale),
            is_moderator=moderator,
            community=community_of(interaction),
        )

    async def run_command(self, interaction: Any, name: str, args: tuple[str, ...]) -> None:
        """A slash command: deferred, sent to the core, answered."""
        origin = await self._defer(interaction, thinking=True)
        if origin is None:
            return
        moderator = is_moderator(interaction, self.moderator_role)
        command = self._command(interaction, name, args, moderator=moderator)
        await self._call(origin, self.core.handle(command), route(name, args).group)
        if name == "lang":  # the choice may have changed: the modal must know it at once
            await self._chosen(origin.user_id)

    async def refuse(self, interaction: Any, key: str) -> None:
        """A slash command whose options do not go together (`texts` key `key`): refused to the
        sender alone, in their language, without asking the core."""
        origin = await self._defer(interaction, thinking=True)
        if origin is not None:
            await self._reply(origin, [text(origin.locale, key)])

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
        rack = own_picker(items, command.user_id)
        typed = current.strip().upper()
        picks = (
            [] if rack is None else [p for p in rack.choices if p.code.upper().startswith(typed)]
        )
        return [Choice(name=p.label, value=p.code) for p in picks[:MAX_CHOICES]]

    def _press(self, interaction: Any, ref: TurnRef, args: tuple[str, ...]) -> Press:
        return Press(
            platform=PLATFORM,
            channel_id=str(interaction.channel_id),
            user_id=str(interaction.user.id),
            user_name=clean_name(interaction.user.display_name, str(interaction.user.id)),
            table_id=ref.table_id,
            action=ref.action,
            nonce=ref.nonce,
            args=args,
            locale=locale_of(interaction.locale),
            is_moderator=is_moderator(interaction, self.moderator_role),
            community=community_of(interaction),
        )

    async def on_turn(self, interaction: Any, ref: TurnRef) -> None:
        """A turn button: an amount asks through a modal, a draw through a select of my cards,
        anything else goes straight to the core."""
        if ref.needs == NEEDS_AMOUNT:
            await self._ask_amount(interaction, ref)
            return
        if ref.needs == NEEDS_CARDS:
            await self._draw_picker(interaction, ref)
            return
        origin = await self._defer(interaction, thinking=False)
        if origin is not None:
            await self._call(origin, self.core.press(self._press(interaction, ref, ())))

    async def _ask_amount(self, interaction: Any, ref: TurnRef) -> None:
        """Show the amount modal: the one answer that cannot be deferred, so it is built from
        memory only (no database look-up before it)."""
        button = self.buttons.get(ref.table_id, {}).get(ref.core_id)
        locale = self._speaks_now(interaction, ref.table_id)
        modal = AmountModal(ref, locale, button, interaction.user.id)
        try:
            await self._retrying(lambda: interaction.response.send_modal(modal))
        except discord.NotFound:
            log.warning(kv(event="interaction_expired", user=interaction.user.id))
        except TRANSPORT_ERRORS as exc:
            log.warning(kv(event="modal_failed", user=interaction.user.id, error=repr(exc)))

    async def _draw_picker(self, interaction: Any, ref: TurnRef) -> None:
        """Answer a draw button with an ephemeral select of the presser's own cards: the
        button made as a move (`Core.act` with `Ask("draw")`) comes back with the hand and the
        question as data (`Prompt`), to the presser alone; nothing is played."""
        origin = await self._defer(interaction, thinking=True)
        if origin is None:
            return
        sender = self._press(interaction, ref, ()).sender
        pending = self.core.act(ref.table_id, sender, ref.nonce, Ask("draw"))
        items = await self._answer(origin, pending)
        if items is None:
            return
        refusals = [
            i.text for i in items if i.kind is OutKind.ERROR and i.user_id == origin.user_id
        ]
        if refusals:
            await self._reply(origin, refusals)
            return
        own = [i for i in items if i.kind is OutKind.PRIVATE and i.user_id == origin.user_id]
        hand = "\n".join(i.text for i in own)
        picture = next((i.picture for i in reversed(own) if i.picture is not None), None)
        asked = next((i.prompt for i in own if i.prompt is not None), None)
        locale = self._speaks_now(interaction, ref.table_id)
        if asked is None or asked.kind != NEEDS_CARDS or not asked.choices:
            # nothing to pick, but the core's words still go out
            await self._reply(origin, [t for t in (hand, text(locale, "draw_unreadable")) if t])
            return
        most = ref.max_cards if ref.max_cards is not None else asked.max_cards
        words = hand + "\n" + text(locale, "draw_prompt", n=most or len(asked.choices))
        await self._reply(origin, [Part(words, draw_view(ref, asked.choices, locale), picture)])

    async def on_draw(self, interaction: Any, ref: TurnRef, cards: tuple[str, ...]) -> None:
        """The draw select was submitted: the chosen cards are the press's arguments."""
        origin = await self._defer(interaction, thinking=False)
        if origin is None:
            return
        await self._call(origin, self.core.press(self._press(interaction, ref, cards)))
        try:  # the picker has done its job
            await interaction.edit_original_response(view=None)
        except TRANSPORT_ERRORS as exc:
            log.info(kv(event="picker_kept", status=getattr(exc, "status", "network")))

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
        command = self._command(
            interaction, group, (HAND_WORD.get(group, "hand"),), table_id=table_id
        )
        await self._call(origin, self.core.handle(command), group)
