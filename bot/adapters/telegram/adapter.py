"""Telegram updates → core commands and presses, and the core's answers back out.

`TelegramAdapter.install(application)` adds the handlers to a python-telegram-bot `Application`.
No rule or chip logic lives here: the adapter only translates and delivers.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

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
from bot.adapters.surfaces import SharedMessages, SurfaceStore
from bot.adapters.telegram.admins import AdminCache
from bot.adapters.telegram.callbacks import CONFIRM, TOGGLE, CallbackCodec, Pressed
from bot.adapters.telegram.delivery import SHORT_REPLY_SECONDS, Delivery, Origin, Parcel
from bot.adapters.telegram.outbox import Sleep
from bot.adapters.telegram.parsing import Place, locale_of, parse_command, place_of
from bot.adapters.telegram.pickers import DrawPicker, card_label
from bot.adapters.telegram.rooms import TelegramRooms
from bot.adapters.telegram.senders import is_stand_in
from bot.adapters.telegram.texts import MENU
from bot.adapters.telegram.texts import text as adapter_text
from bot.caches import Lru
from bot.core.api import CoreApi
from bot.core.codec import codec
from bot.core.commands import route
from bot.core.i18n import t
from bot.core.messages import (
    NEEDS_AMOUNT,
    NEEDS_CARDS,
    Button,
    Command,
    Outgoing,
    OutKind,
    Press,
    Prompt,
    Sender,
)
from bot.core.moves import Ask
from bot.core.names import clean_name
from bot.core.tournament.view import is_tournament_id, tournament_number
from bot.logs import kv

log = logging.getLogger("bot.telegram")

PLATFORM = "telegram"
# Command groups (as the core routes them) that act on the table of a group chat.
TABLE_GROUPS = frozenset({"poker", "okey", "table"})


def press_asks_moderator(pressed: Pressed) -> bool:
    """Whether a press is a moderator's action: a tournament's Start button (the organiser's,
    or a moderator's), or "Play again" (a moderator's starts the rematch at once). Only these
    presses look the administrators up before they are answered."""
    if pressed.action == "again":
        return True
    return pressed.action == "start" and tournament_number(pressed.table_id) is not None


def amount_button(prompt: Prompt, locale: str) -> Button:
    """The button an amount prompt answers (`Prompt`: its move, bounds and turn), labelled
    in `locale` as the core labels it, for the amount keyboard."""
    low, high = prompt.min_amount, prompt.max_amount
    label = t(locale, f"btn.{prompt.action}", range=f"{low}-{high}")
    return Button(
        label,
        prompt.table_id,
        prompt.action,
        prompt.nonce,
        "primary",
        NEEDS_AMOUNT,
        low,
        high,
    )


def single_amount(button: Button) -> int | None:
    """The one amount a button allows (`Open (40)`: its least and most are the same), else
    None (the player is asked for one)."""
    low, high = button.min_amount, button.max_amount
    return low if low is not None and low == high else None


# What to ask the core for a player's current private state at a table, per game group.
MAX_USERS = 20_000  # users whose last group is remembered (LRU)
# a press is answered (its spinner stopped) by then even when the core is slower, e.g. behind a
# busy database (up to `storage.busy.WRITE_BUDGET_S`); what the core says then follows
ANSWER_WITHIN_SECONDS = 0.8
STATE_COMMANDS = {"poker": ("poker", "hand"), "okey": ("okey", "rack")}

Later = Callable[[], Awaitable[object]]  # what it returns is not used


@dataclass
class Reply:
    """How to answer a press: the refusals for its pop-up alert, and what to do once it is
    answered (the press is always answered before any other Bot API call made for it)."""

    alerts: list[str] = field(default_factory=list)
    then: Later | None = None


class TelegramAdapter:
    """Translates between Telegram updates and the core; one per bot."""

    def __init__(
        self,
        core: CoreApi,
        *,
        default_locale: str = "tr",
        admin_ttl: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        short_reply_seconds: float = SHORT_REPLY_SECONDS,
        table_messages: SurfaceStore | None = None,
    ) -> None:
        self.core = core
        self.table_messages = table_messages  # where every process finds the table messages
        self.default_locale = default_locale
        self.codec = CallbackCodec()
        self.admin_ttl = admin_ttl
        self.clock = clock
        self.sleep = sleep
        self.short_reply_seconds = short_reply_seconds
        # what a press's answer waits for at most before it is given without the core's word
        self.answer_deadline: Callable[[], Awaitable[object]] = partial(
            asyncio.sleep, ANSWER_WITHIN_SECONDS
        )
        self.delivery: Delivery | None = None
        self.admins: AdminCache | None = None
        self.application: Application | None = None
        self.pickers: dict[tuple[int, str], DrawPicker] = {}
        # user -> the group (topic) they last played in; the least recent forgotten first
        self.last_group: Lru[int, Place] = Lru(MAX_USERS)
        # tournament tables' forum topics (`bot.core.table.rooms`): hand it to the core as its `rooms`
        self.rooms = TelegramRooms(clock=clock)

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
            sleep=self.sleep,
            short_reply_seconds=self.short_reply_seconds,
            shared=SharedMessages(self.table_messages, PLATFORM),
        )
        self.rooms.bind(application.bot, self.delivery.outbox, self.default_locale)

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
        if is_stand_in(message):
            await self._refuse_stand_in(message, user, chat.id)
            return
        place, origin = self._typed_origin(message, user, chat.id)
        locale = origin.locale
        if name == "start" and chat.type == ChatType.PRIVATE:
            await self.on_start(user, locale)
            return
        routed = route(name, args)
        group = routed.group
        channel = place
        if chat.type == ChatType.PRIVATE:
            # Game commands typed privately (e.g. `/okey discard R5`) play at the user's table.
            if group in TABLE_GROUPS and user.id in self.last_group:
                channel = self.last_group[user.id]
        else:
            self.last_group[user.id] = place
        moderator = self.core.needs_moderator(name, args) and await self.admins.is_admin(
            channel.chat_id, user.id
        )
        command = self._command(channel, user, name, args, locale, is_moderator=moderator)
        items = await self.core.handle(command)
        # A typed `/poker hand` or `/okey rack` asks for the cards again: sent anew at the bottom
        # even when the private message already shows them (it may be lost far above).
        origin.resend = (group, routed.sub) in STATE_COMMANDS.values()
        await self.delivery.deliver(items, origin)

    async def _refuse_stand_in(self, message: Message, user: User, chat_id: int) -> None:
        """A message sent as a channel or an anonymous admin: ask the person to write as
        themselves (in the chat's words: the stand-in has no language); nothing is played."""
        assert self.delivery is not None
        place = place_of(message) or Place(chat_id)
        log.info(kv(event="stand_in_refused", chat=chat_id, user=user.id))
        await self.delivery.refuse_stand_in(place, message.message_id, self.default_locale)

    @staticmethod
    def _command(
        channel: Place | None,
        user: User,
        name: str,
        args: tuple[str, ...],
        locale: str | None,
        *,
        is_moderator: bool = False,
    ) -> Command:
        """A core command from the user at the channel (None: no known channel)."""
        return Command(
            platform=PLATFORM,
            channel_id=channel.key if channel is not None else "",
            user_id=str(user.id),
            user_name=clean_name(user.full_name, str(user.id)),
            name=name,
            args=args,
            locale=locale,
            is_moderator=is_moderator,
            community=channel.community if channel is not None else None,
        )

    def _typed_origin(self, message: Message, user: User, chat_id: int) -> tuple[Place, Origin]:
        """Where a typed message came from (chat and forum topic) and the origin to answer it;
        notes the sender's name and language for later private messages."""
        assert self.delivery is not None
        locale = locale_of(user.language_code)
        self.delivery.saw_user(user.id, clean_name(user.full_name, str(user.id)), locale)
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
        """The language of the core's open table (None: not open here)."""
        info = self.core.table_info(table_id)
        return locale_of(info.locale) if info is not None else None

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

    async def on_start(self, user: User, locale: str | None) -> None:
        """The user started the private chat: greet them, then send the current state (hand,
        rack, open draw picker) of each table they missed private messages about; never the
        missed messages themselves, which may be stale."""
        assert self.delivery is not None
        speaks = await self._speaks(user.id, locale)
        await self.delivery.bot.send_message(user.id, adapter_text(speaks, "started"))
        tables = self.delivery.started(user.id)
        for table_id in tables:
            await self._send_current_state(user, table_id, locale)
        log.info(kv(event="started", user=user.id, tables=len(tables)))

    async def _send_current_state(self, user: User, table_id: str, locale: str | None) -> None:
        """Ask the core for the user's current hand or rack at the table and send it (nothing
        when no hand or round is in play for them), then an open draw picker still current."""
        assert self.delivery is not None
        place = self.delivery.table_chats.get(table_id)
        if place is None:
            return
        for name, sub in self._state_commands(table_id):
            command = self._command(place, user, name, (sub,), locale)
            mine = [
                replace(item, table_id=item.table_id or table_id)
                for item in await self.core.handle(command)
                if item.kind is OutKind.PRIVATE and item.user_id == str(user.id)
            ]
            if mine:
                await self.delivery.deliver(mine, Origin(user_id=user.id, locale=locale))
                break
        for (who, custom_id), picker in list(self.pickers.items()):
            if who == user.id and picker.table_id == table_id:
                if self.delivery.is_live(table_id, custom_id):
                    await self._send_picker(picker, user.id, locale, place)
                else:
                    del self.pickers[(who, custom_id)]

    def _state_commands(self, table_id: str) -> list[tuple[str, str]]:
        """The commands that show a player's state at the table, its own game's first (read
        from the core's open table when this process knows it; else both are tried)."""
        info = self.core.table_info(table_id)
        first = "okey" if info is not None and info.group == "okey" else "poker"
        return [STATE_COMMANDS[first], *(c for g, c in STATE_COMMANDS.items() if g != first)]

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A button press: decoded, completed with an amount or cards if the button needs them,
        checked by the core, and always answered (a refusal as an alert to the presser)."""
        query, user = update.callback_query, update.effective_user
        if query is None or user is None:
            return
        assert self.delivery is not None
        locale = locale_of(user.language_code)
        self.delivery.saw_user(user.id, clean_name(user.full_name, str(user.id)), locale)
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
        reply, answered = Reply(), False
        pressed = self.codec.decode(query.data)
        work = asyncio.ensure_future(self._press(pressed, user, origin))
        deadline = asyncio.ensure_future(self.answer_deadline())
        try:
            await asyncio.wait((work, deadline), return_when=asyncio.FIRST_COMPLETED)
            if not work.done():  # the core is slow: the spinner stops now, its word follows
                await self.delivery.answer(query, ())
                answered = True
            reply = await work
        finally:
            deadline.cancel()
            work.cancel()  # a no-op once it is done; else this press was cancelled itself
            if not answered:
                await self.delivery.answer(query, reply.alerts)
        if answered and reply.alerts:  # too late for the press's pop-up: said privately
            table_id = pressed.table_id if pressed is not None else None
            parcel = Parcel("\n".join(reply.alerts), table_id=table_id)
            # a presser who never started the private chat is asked to, once, in the group
            group = self.delivery.table_chats.get(table_id or "", origin.place)
            await self.delivery.send_private(user.id, parcel, group, origin)
        if reply.then is not None:
            try:
                await reply.then()
            except TelegramError as exc:
                log.warning(kv(event="press_followup_failed", error=exc))

    async def _press(self, pressed: Pressed | None, user: User, origin: Origin) -> Reply:
        """Work out the answer to a press without any Bot API call (the core decides)."""
        assert self.delivery is not None
        delivery = self.delivery
        locale = origin.locale
        if pressed is None:
            log.info(kv(event="bad_callback", user=user.id))
            return Reply([adapter_text(await self._speaks(user.id, locale), "bad_button")])
        if pressed.local is not None:
            return await self._picker_press(pressed, user, origin)
        button = delivery.buttons.get(pressed.custom_id)
        place = origin.place
        if button is not None and not pressed.args and place is not None:
            only = single_amount(button)
            if button.needs == NEEDS_AMOUNT and only is not None:  # "Open (40)": play at once
                items = await self._core_press(pressed, (str(only),), user, origin)
                alerts, rest = delivery.split(items, origin)
                return Reply(alerts, partial(delivery.deliver, rest, origin))
            if button.needs == NEEDS_AMOUNT:
                group = delivery.table_chats.get(button.table_id, place)
                return Reply(then=partial(delivery.ask_amount, button, group, user.id))
        move = codec.move_of(pressed.action)
        if isinstance(move, Ask) and not pressed.args and place is not None:
            # an amount or the cards to exchange: the core says what to ask (whichever
            # process drew the button), or plays the one amount the button allows
            return await self._ask(pressed, move, user, origin)
        items = await self._core_press(pressed, pressed.args, user, origin)
        alerts, rest = delivery.split(items, origin)
        return Reply(alerts, partial(delivery.deliver, rest, origin))

    async def _ask(self, pressed: Pressed, move: Ask, user: User, origin: Origin) -> Reply:
        """A button that needs an answer, made as a move (`Core.act`): the question comes back
        as data (`Prompt`) and is asked here (the amount prompt, the draw picker of the
        player's own cards); any other answer (a refusal, the one amount played) as usual."""
        assert self.delivery is not None
        delivery = self.delivery
        sender = await self._sender(pressed, user, origin)
        items = await self.core.act(pressed.table_id, sender, pressed.nonce, move)
        mine = str(user.id)
        prompt = next((i.prompt for i in items if i.prompt and i.user_id == mine), None)
        group = delivery.table_chats.get(pressed.table_id, origin.place)
        if prompt is not None and prompt.kind == NEEDS_AMOUNT and group is not None:
            speaks = await self._speaks(user.id, origin.locale, pressed.table_id)
            button = amount_button(prompt, speaks)
            return Reply(then=partial(delivery.ask_amount, button, group, user.id))
        if prompt is not None and prompt.kind == NEEDS_CARDS:
            return await self._open_draw_picker(prompt, user, origin)
        alerts, rest = delivery.split(items, origin)
        return Reply(alerts, partial(delivery.deliver, rest, origin))

    async def _core_press(
        self, pressed: Pressed, args: tuple[str, ...], user: User, origin: Origin
    ) -> list[Outgoing]:
        """Hand a complete press to the core; returns its answer (not delivered yet)."""
        sender = await self._sender(pressed, user, origin)
        press = Press(
            platform=sender.platform,
            channel_id=sender.channel_id,
            user_id=sender.user_id,
            user_name=sender.user_name,
            table_id=pressed.table_id,
            action=pressed.action,
            nonce=pressed.nonce,
            args=args,
            locale=sender.locale,
            is_moderator=sender.is_moderator,
            community=sender.community,
        )
        return await self.core.press(press)

    async def _sender(self, pressed: Pressed, user: User, origin: Origin) -> Sender:
        """Who pressed, at the table's group chat."""
        assert self.delivery is not None
        # Presses in the private chat (the draw, an amount) belong to the table's group.
        channel = self.delivery.table_chats.get(pressed.table_id, origin.place)
        if channel is not None and channel.is_group:  # a shared room: the table's, not the chat
            self.last_group[user.id] = channel
        assert self.admins is not None
        moderator = (
            channel is not None
            and press_asks_moderator(pressed)
            and await self.admins.is_admin(channel.chat_id, user.id)
        )
        return Sender(
            platform=PLATFORM,
            channel_id=channel.key if channel is not None else "",
            user_id=str(user.id),
            user_name=clean_name(user.full_name, str(user.id)),
            locale=origin.locale,
            is_moderator=moderator,
            community=channel.community if channel is not None else None,
        )

    async def _open_draw_picker(self, prompt: Prompt, user: User, origin: Origin) -> Reply:
        """The card picker for a draw: the player's own cards come from the core's question
        (`Prompt`, to them alone); the picker is sent to their private chat once the press is
        answered."""
        assert self.delivery is not None
        locale = origin.locale
        group = self.delivery.table_chats.get(prompt.table_id, origin.place)
        cards = [pick.code for pick in prompt.choices]
        if not cards:
            speaks = await self._speaks(user.id, locale, prompt.table_id)
            return Reply([adapter_text(speaks, "draw_typed")])
        draw = DrawPicker(prompt.table_id, prompt.action, prompt.nonce, cards, prompt.max_cards)
        # One open picker per player: an older one (an earlier turn) is stale anyway.
        for key in [key for key in self.pickers if key[0] == user.id]:
            del self.pickers[key]
        custom_id = f"{prompt.table_id}:{prompt.action}:{prompt.nonce}"
        self.pickers[(user.id, custom_id)] = draw
        return Reply(then=partial(self._send_picker, draw, user.id, locale, group))

    async def _send_picker(
        self, picker: DrawPicker, user_id: int, locale: str | None, group: Place | None
    ) -> None:
        """Send a draw picker to the player's private chat."""
        assert self.delivery is not None
        speaks = await self._speaks(user_id, locale, picker.table_id)
        n = picker.max_cards if picker.max_cards else len(picker.cards)
        parcel = Parcel(
            adapter_text(speaks, "draw_prompt", n=n),
            markup=self._picker_keyboard(picker, speaks),
            table_id=picker.table_id,
        )
        await self.delivery.send_private(user_id, parcel, group)

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

    async def _picker_press(self, pressed: Pressed, user: User, origin: Origin) -> Reply:
        """A toggle or the confirm button of a draw picker."""
        assert self.delivery is not None
        delivery = self.delivery
        locale = origin.locale
        key = (user.id, pressed.custom_id)
        picker = self.pickers.get(key)
        if picker is None:
            speaks = await self._speaks(user.id, locale, pressed.table_id)
            return Reply([adapter_text(speaks, "picker_gone")])
        query = origin.callback
        message = query.message if query is not None else None
        if pressed.local == "confirm":
            del self.pickers[key]
            items = await self._core_press(pressed, picker.args(), user, origin)
            alerts, rest = delivery.split(items, origin)

            async def then() -> None:
                if message is not None:
                    await delivery.private.take_keyboard(
                        message.chat.id, message.message_id, event="picker_kept"
                    )
                await delivery.deliver(rest, origin)

            return Reply(alerts, then)
        speaks = await self._speaks(user.id, locale, picker.table_id)
        if not picker.toggle(pressed.args[0]):
            return Reply([adapter_text(speaks, "too_many", n=picker.max_cards)])
        if query is None or message is None:
            return Reply()
        return Reply(
            then=partial(query.edit_message_reply_markup, self._picker_keyboard(picker, speaks))
        )

    async def on_reply(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A typed reply to an amount prompt: the number becomes the press's argument."""
        message, user, chat = update.effective_message, update.effective_user, update.effective_chat
        if message is None or user is None or chat is None or message.reply_to_message is None:
            return
        assert self.delivery is not None
        prompt = self.delivery.prompt_of(chat.id, message.reply_to_message.message_id)
        if prompt is None:
            return
        if is_stand_in(message):
            await self._refuse_stand_in(message, user, chat.id)
            return
        pressed = self.codec.decode(prompt[0])
        if pressed is None:
            return
        _place, origin = self._typed_origin(message, user, chat.id)
        words = tuple((message.text or "").split()[:1])
        # With no button to alert on, a refusal goes to the private chat (see Delivery).
        items = await self._core_press(pressed, words, user, origin)
        await self.delivery.deliver(items, origin)

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

    def is_open(self, table_id: str) -> bool:
        """Whether the core still runs the table (a tournament's living message always is)."""
        return is_tournament_id(table_id) or self.core.table_info(table_id) is not None

    def prune(self) -> int:
        """Forget what is kept about tables the core has closed: the delivery's messages,
        chats, buttons and private messages of them, and open draw pickers; how many tables
        were forgotten (the runner calls it every `PRUNE_EVERY` ticks)."""
        if self.delivery is None:
            return 0
        gone = self.delivery.prune(self.is_open)
        self.pickers = {k: p for k, p in self.pickers.items() if self.is_open(p.table_id)}
        return gone

    async def flush(self, timeout: float) -> None:
        """Send the queued group traffic now and wait for it (at most `timeout` seconds; what is
        left then is dropped), so no worker task outlives the adapter. Call it at shutdown."""
        if self.delivery is not None:
            await self.delivery.flush(timeout)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log a handler's exception; the bot keeps serving other updates."""
        log.error(kv(event="handler_error", error=repr(context.error)), exc_info=context.error)
