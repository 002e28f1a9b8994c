"""Telegram updates → core commands and presses, and the core's answers back out.

`TelegramAdapter.install(application)` adds the handlers to a python-telegram-bot `Application`.
No rule or chip logic lives here: the adapter only translates and delivers.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from telegram import (
    BotCommand,
    BotCommandScopeDefault,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
    User,
)
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot.adapters.lookups import chosen_locale
from bot.adapters.telegram.admins import AdminCache
from bot.adapters.telegram.callbacks import CONFIRM, TOGGLE, CallbackCodec, Pressed
from bot.adapters.telegram.delivery import Delivery, Origin, Parcel
from bot.adapters.telegram.parsing import Place, locale_of, parse_command, place_of
from bot.adapters.telegram.pickers import DrawPicker, card_label, cards_in
from bot.adapters.telegram.texts import MENU
from bot.adapters.telegram.texts import text as adapter_text
from bot.core.commands import route
from bot.core.messages import NEEDS_AMOUNT, NEEDS_CARDS, Button, Command, Outgoing, OutKind, Press
from bot.logs import kv

log = logging.getLogger("bot.telegram")

PLATFORM = "telegram"
# Command groups (as the core routes them) that act on the table of a group chat.
TABLE_GROUPS = frozenset({"poker", "okey", "table"})


class CoreApi(Protocol):
    """What the adapter needs from the bot core. Two more are used when present (read only):
    `tables.get(table_id)` (a table's language) and `await locale_of(platform, user_id)` (a
    player's `/lang` choice, `bot.core.app.Core`)."""

    async def handle(self, command: Command) -> list[Outgoing]: ...

    async def press(self, press: Press) -> list[Outgoing]: ...


class TelegramAdapter:
    """Translates between Telegram updates and the core; one per bot."""

    def __init__(
        self,
        core: CoreApi,
        *,
        default_locale: str = "tr",
        admin_ttl: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.core = core
        self.default_locale = default_locale
        self.codec = CallbackCodec()
        self.admin_ttl = admin_ttl
        self.clock = clock
        self.delivery: Delivery | None = None
        self.admins: AdminCache | None = None
        self.application: Application | None = None
        self.pickers: dict[tuple[int, str], DrawPicker] = {}
        self.last_group: dict[int, Place] = {}  # user -> the group (topic) they last played in

    # ---- set-up ------------------------------------------------------------------------------
    def install(self, application: Application) -> None:
        """Register the handlers on the application (before it is initialised)."""
        self.application = application
        self.delivery = Delivery(
            application.bot,
            self.codec,
            self.default_locale,
            table_locale=self._table_locale,
            chosen_locale=self._chosen,
        )

        async def status(chat_id: int, user_id: int) -> str:
            member = await application.bot.get_chat_member(chat_id, user_id)
            return str(member.status)

        self.admins = AdminCache(status, ttl=self.admin_ttl, clock=self.clock)
        application.add_handler(
            # New messages only: an edited command must not be played a second time.
            MessageHandler(
                filters.UpdateType.MESSAGE & filters.TEXT & filters.Regex(r"^/"), self.on_command
            )
        )
        application.add_handler(CallbackQueryHandler(self.on_press))
        application.add_handler(
            MessageHandler(
                filters.UpdateType.MESSAGE & filters.TEXT & filters.REPLY & ~filters.COMMAND,
                self.on_reply,
            )
        )
        application.add_error_handler(self.on_error)

    async def register_commands(self) -> None:
        """Fill Telegram's command menu in English (the default) and Turkish."""
        assert self.application is not None
        bot = self.application.bot
        english = [BotCommand(name, en) for name, _tr, en in MENU]
        turkish = [BotCommand(name, tr) for name, tr, _en in MENU]
        await bot.set_my_commands(english, scope=BotCommandScopeDefault())
        await bot.set_my_commands(english, scope=BotCommandScopeDefault(), language_code="en")
        await bot.set_my_commands(turkish, scope=BotCommandScopeDefault(), language_code="tr")

    # ---- updates -----------------------------------------------------------------------------
    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A `/command` message: becomes a core Command; `/start` in private delivers cards."""
        message, user, chat = update.effective_message, update.effective_user, update.effective_chat
        if message is None or user is None or chat is None or message.text is None:
            return
        assert self.delivery is not None and self.admins is not None
        parsed = parse_command(message.text, context.bot.username)
        if parsed is None:
            return
        name, args = parsed
        place, origin = self._typed_origin(message, user, chat.id)
        locale = origin.locale
        if name == "start" and chat.type == ChatType.PRIVATE:
            await self.on_start(user.id, locale, origin)
            return
        group = route(name, args).group
        channel = place
        if chat.type == ChatType.PRIVATE:
            # Game commands typed privately (e.g. `/okey discard R5`) play at the user's table.
            if group in TABLE_GROUPS and user.id in self.last_group:
                channel = self.last_group[user.id]
        else:
            self.last_group[user.id] = place
        # An administrator posting anonymously (as the group itself) is a moderator too.
        anonymous_admin = message.sender_chat is not None and message.sender_chat.id == chat.id
        moderator = group == "table" and (
            anonymous_admin or await self.admins.is_admin(channel.chat_id, user.id)
        )
        command = Command(
            platform=PLATFORM,
            channel_id=channel.key,
            user_id=str(user.id),
            user_name=user.full_name,
            name=name,
            args=args,
            locale=locale,
            is_moderator=moderator,
        )
        items = await self.core.handle(command)
        await self.delivery.deliver(items, origin)

    def _typed_origin(self, message: Message, user: User, chat_id: int) -> tuple[Place, Origin]:
        """Where a typed message came from (chat and forum topic) and the origin to answer it;
        notes the sender's name and language for later private messages."""
        assert self.delivery is not None
        locale = locale_of(user.language_code)
        self.delivery.saw_user(user.id, user.full_name, locale)
        place = place_of(message) or Place(chat_id)
        origin = Origin(
            chat_id=chat_id,
            user_id=user.id,
            message_id=message.message_id,
            locale=locale,
            thread_id=place.thread_id,
        )
        return place, origin

    def _table_locale(self, table_id: str) -> str | None:
        """The language of the core's open table, when the core exposes its tables (read only)."""
        getter = getattr(getattr(self.core, "tables", None), "get", None)
        live = getter(table_id) if callable(getter) else None
        return locale_of(getattr(getattr(live, "session", None), "locale", None))

    async def _chosen(self, user_id: int) -> str | None:
        """The user's `/lang` choice, or None (see `bot.adapters.lookups.chosen_locale`)."""
        return await chosen_locale(self.core, PLATFORM, str(user_id))

    async def _speaks(self, user_id: int, locale: str | None, table_id: str | None = None) -> str:
        """The language of the adapter's own texts to a user, by the core's rule: their `/lang`
        choice, else their Telegram language when it is Turkish or English (`locale`, from
        `locale_of`), else the table's when the text is about one, else the bot's default."""
        locale = await self._chosen(user_id) or locale
        if locale is None and table_id is not None:
            locale = self._table_locale(table_id)
        return locale or self.default_locale

    async def on_start(self, user_id: int, locale: str | None, origin: Origin) -> None:
        """The user started the private chat: greet them and deliver what was kept for them."""
        assert self.delivery is not None
        speaks = await self._speaks(user_id, locale)
        await self.delivery.bot.send_message(user_id, adapter_text(speaks, "started"))
        sent = await self.delivery.started(user_id)
        log.info(kv(event="started", user=user_id, delivered=sent))

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A button press: decoded, completed with an amount or cards if the button needs them,
        checked by the core, and always answered (a refusal as an alert to the presser)."""
        query, user = update.callback_query, update.effective_user
        if query is None or user is None:
            return
        assert self.delivery is not None
        locale = locale_of(user.language_code)
        self.delivery.saw_user(user.id, user.full_name, locale)
        place = place_of(query.message)
        if place is not None and place.is_group:
            self.last_group[user.id] = place
        origin = Origin(
            chat_id=place.chat_id if place else None,
            user_id=user.id,
            callback=query,
            locale=locale,
            thread_id=place.thread_id if place else None,
        )
        alerts: list[str] = []
        try:
            alerts = await self._press(self.codec.decode(query.data), user, origin)
        finally:
            await self.delivery.answer(query, alerts)

    async def _press(self, pressed: Pressed | None, user: User, origin: Origin) -> list[str]:
        assert self.delivery is not None
        locale = origin.locale
        if pressed is None:
            log.info(kv(event="bad_callback", user=user.id))
            return [adapter_text(await self._speaks(user.id, locale), "bad_button")]
        if pressed.local is not None:
            return await self._picker_press(pressed, user, origin)
        button = self.delivery.buttons.get(pressed.custom_id)
        if button is not None and not pressed.args and origin.place is not None:
            if button.needs == NEEDS_AMOUNT:
                await self.delivery.ask_amount(button, origin.place, user.id)
                return []
            if button.needs == NEEDS_CARDS:
                return await self._open_draw_picker(button, user, origin)
        return await self._send_press(pressed, pressed.args, user, origin)

    async def _send_press(
        self, pressed: Pressed, args: tuple[str, ...], user: User, origin: Origin
    ) -> list[str]:
        """Hand a complete press to the core and deliver its answer."""
        assert self.delivery is not None
        # Presses in the private chat (the draw) belong to the table's group.
        channel = self.delivery.table_chats.get(pressed.table_id, origin.place)
        press = Press(
            platform=PLATFORM,
            channel_id=channel.key if channel is not None else "",
            user_id=str(user.id),
            user_name=user.full_name,
            table_id=pressed.table_id,
            action=pressed.action,
            nonce=pressed.nonce,
            args=args,
            locale=origin.locale,
        )
        items = await self.core.press(press)
        return await self.delivery.deliver(items, origin)

    async def _open_draw_picker(self, button: Button, user: User, origin: Origin) -> list[str]:
        """Send the card picker for a draw to the player's private chat."""
        assert self.delivery is not None
        locale = origin.locale
        group = self.delivery.table_chats.get(button.table_id, origin.place)
        command = Command(
            platform=PLATFORM,
            channel_id=group.key if group is not None else "",
            user_id=str(user.id),
            user_name=user.full_name,
            name="poker",
            args=("hand",),
            locale=locale,
        )
        answer = await self.core.handle(command)
        refusals = [item.text for item in answer if item.kind is OutKind.ERROR]
        if refusals:
            return refusals
        mine = [item.text for item in answer if item.kind is OutKind.PRIVATE]
        cards = cards_in("\n".join(mine))
        if not cards:
            return [
                adapter_text(await self._speaks(user.id, locale, button.table_id), "draw_typed")
            ]
        picker = DrawPicker(button.table_id, button.action, button.nonce, cards, button.max_cards)
        # One open picker per player: an older one (an earlier turn) is stale anyway.
        for key in [key for key in self.pickers if key[0] == user.id]:
            del self.pickers[key]
        self.pickers[(user.id, button.custom_id)] = picker
        speaks = await self._speaks(user.id, locale, button.table_id)
        parcel = Parcel(
            adapter_text(
                speaks, "draw_prompt", n=button.max_cards if button.max_cards else len(cards)
            ),
            markup=self._picker_keyboard(picker, speaks),
            table_id=button.table_id,
        )
        await self.delivery.send_private(user.id, parcel, group)
        return []

    def _picker_keyboard(self, picker: DrawPicker, speaks: str) -> InlineKeyboardMarkup:
        """The picker's card toggles and its confirm button, labelled in `speaks`."""
        custom_id = f"{picker.table_id}:{picker.action}:{picker.nonce}"
        cards = [
            InlineKeyboardButton(
                ("✅ " if card in picker.chosen else "") + card_label(card),
                callback_data=self.codec.encode(custom_id, TOGGLE + card),
            )
            for card in picker.cards
        ]
        chosen = " ".join(card_label(card) for card in picker.args())
        confirm = (
            adapter_text(speaks, "draw_confirm", cards=chosen)
            if chosen
            else adapter_text(speaks, "draw_pat")
        )
        done = InlineKeyboardButton(confirm, callback_data=self.codec.encode(custom_id, CONFIRM))
        return InlineKeyboardMarkup([cards[i : i + 5] for i in range(0, len(cards), 5)] + [[done]])

    async def _picker_press(self, pressed: Pressed, user: User, origin: Origin) -> list[str]:
        """A toggle or the confirm button of a draw picker."""
        assert self.delivery is not None
        locale = origin.locale
        key = (user.id, pressed.custom_id)
        picker = self.pickers.get(key)
        if picker is None:
            speaks = await self._speaks(user.id, locale, pressed.table_id)
            return [adapter_text(speaks, "picker_gone")]
        if pressed.local == "confirm":
            del self.pickers[key]
            query = origin.callback
            if query is not None and query.message is not None:
                try:
                    await self.delivery.bot.edit_message_reply_markup(
                        query.message.chat.id, query.message.message_id
                    )
                except TelegramError as exc:
                    log.info(kv(event="picker_kept", error=exc))
            return await self._send_press(pressed, picker.args(), user, origin)
        speaks = await self._speaks(user.id, locale, picker.table_id)
        if not picker.toggle(pressed.args[0]):
            return [adapter_text(speaks, "too_many", n=picker.max_cards)]
        query = origin.callback
        if query is not None and query.message is not None:
            await query.edit_message_reply_markup(self._picker_keyboard(picker, speaks))
        return []

    async def on_reply(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A typed reply to an amount prompt: the number becomes the press's argument."""
        message, user, chat = update.effective_message, update.effective_user, update.effective_chat
        if message is None or user is None or chat is None or message.reply_to_message is None:
            return
        assert self.delivery is not None
        prompt = self.delivery.prompt_of(chat.id, message.reply_to_message.message_id)
        if prompt is None:
            return
        pressed = self.codec.decode(prompt[0])
        if pressed is None:
            return
        _place, origin = self._typed_origin(message, user, chat.id)
        words = tuple((message.text or "").split()[:1])
        # With no button to alert on, a refusal comes back as a reply to the typed message.
        await self._send_press(pressed, words, user, origin)

    async def deliver(self, items: Sequence[Outgoing]) -> None:
        """Deliver items that no update asked for (timers, tables resumed at start-up).

        The core serves every platform and such items do not say which one they are for, so only
        Telegram's are kept: those of tables this adapter knows and those addressed to a group
        chat (Telegram group ids are negative; Discord's never are)."""
        assert self.delivery is not None
        chats = self.delivery.table_chats
        for item in items:
            place = Place.parse(item.channel_id)
            if item.table_id is not None and place is not None and place.is_group:
                chats.setdefault(item.table_id, place)
        ours = [
            item
            for item in items
            if (
                item.table_id in chats
                if item.table_id is not None
                else (Place.parse(item.channel_id) or Place(0)).is_group
            )
        ]
        await self.delivery.deliver(ours, Origin())

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log a handler's exception; the bot keeps serving other updates."""
        log.error(kv(event="handler_error", error=repr(context.error)), exc_info=context.error)
