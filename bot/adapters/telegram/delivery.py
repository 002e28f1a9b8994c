"""Outgoing items → Bot API calls: channel messages, the edited table message, private cards and
refusals.

Rules kept here:
- A failed call (Telegram's `Forbidden`, a deleted message, a network error) is logged and the
  other items still go out: nothing here ever stops a table.
- A private item for a user who has not started the bot is kept, and the group gets one message
  with a deep-link button (no card); when the user presses Start, the kept items are delivered.
- Edits of a table's message are coalesced: within one batch only the last edit of a table is
  sent, while an edit is in flight newer ones replace each other, and an edit that would change
  nothing is skipped.
"""

from __future__ import annotations

import html
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from telegram import (
    Bot,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    ReplyParameters,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.adapters.batch import coalesce
from bot.adapters.telegram.callbacks import CallbackCodec
from bot.adapters.telegram.parsing import Place, deep_link
from bot.adapters.telegram.pickers import amount_sizes
from bot.adapters.telegram.texts import text as adapter_text
from bot.core.messages import Button, Outgoing, OutKind
from bot.logs import kv

log = logging.getLogger("bot.telegram")

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_ALERT = 200
MAX_PENDING_PER_USER = 30
START_PAYLOAD = "cards"
MAX_REMEMBERED_BUTTONS = 5_000


@dataclass
class Origin:
    """The update being answered: where it came from and who sent it."""

    chat_id: int | None = None
    user_id: int | None = None
    message_id: int | None = None
    callback: CallbackQuery | None = None
    locale: str | None = None
    thread_id: int | None = None  # the forum topic, if any

    @property
    def place(self) -> Place | None:
        """The chat (and topic) the update came from."""
        return None if self.chat_id is None else Place(self.chat_id, self.thread_id)


@dataclass(frozen=True)
class Parcel:
    """A private message ready to send: text, optional picture and keyboard."""

    text: str
    picture: bytes | None = None
    markup: InlineKeyboardMarkup | None = None
    table_id: str | None = None


@dataclass
class TableMessage:
    """The group message that shows a table; it is edited as play goes on."""

    chat_id: int
    message_id: int
    text: str
    markup: dict[str, Any] | None
    photo: bool


def fit(text: str, limit: int) -> str:
    """The text cut to Telegram's limit (with an ellipsis when cut); never empty."""
    text = text or "…"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def as_int(value: str | None) -> int | None:
    """The integer in a core id (Telegram chat and user ids), or None."""
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _markup_dict(markup: InlineKeyboardMarkup | None) -> dict[str, Any] | None:
    return markup.to_dict() if markup is not None else None


class Delivery:
    """Sends the core's outgoing items through a `telegram.Bot` and remembers table messages."""

    def __init__(
        self,
        bot: Bot,
        codec: CallbackCodec,
        default_locale: str = "tr",
        table_locale: Callable[[str], str | None] | None = None,
        chosen_locale: Callable[[int], Awaitable[str | None]] | None = None,
    ) -> None:
        self.bot = bot
        self.codec = codec
        self.default_locale = default_locale
        self.table_locale = table_locale  # a table id -> its language, when the core knows it
        self.chosen_locale = chosen_locale  # a user id -> their `/lang` choice (read only)
        self.tables: dict[str, TableMessage] = {}
        self.table_chats: dict[str, Place] = {}  # table id -> where its group messages go
        self.pending: dict[int, list[Parcel]] = {}
        self.buttons: OrderedDict[str, Button] = OrderedDict()
        self.prompts: dict[tuple[int, int], tuple[str, int]] = {}  # message -> (custom id, user)
        self.names: dict[int, str] = {}
        self.locales: dict[int, str] = {}
        self._prompted: set[int] = set()
        self._private_keyboards: dict[tuple[int, str], int] = {}  # (user, table) -> message
        self._wanted: dict[str, Outgoing] = {}
        self._busy: set[str] = set()

    # ---- bookkeeping -------------------------------------------------------------------------
    def saw_user(self, user_id: int, name: str, locale: str | None) -> None:
        """Remember a user's display name and language for prompts that mention them."""
        self.names[user_id] = name
        if locale:
            self.locales[user_id] = locale

    async def speaks(self, user_id: int, table_id: str | None = None) -> str:
        """The language of the adapter's own words to a user about a table: their `/lang`
        choice, else their Telegram language when it is Turkish or English, else the table's,
        else the bot's default."""
        known = await self.chosen_locale(user_id) if self.chosen_locale is not None else None
        known = known or self.locales.get(user_id)
        if known is None and table_id is not None and self.table_locale is not None:
            known = self.table_locale(table_id)
        return known or self.default_locale

    def keyboard(self, rows: Sequence[Sequence[Button]]) -> InlineKeyboardMarkup | None:
        """An inline keyboard for the core's button rows (None for no buttons); buttons that need
        input (an amount, cards) are remembered so a press can ask for it."""
        for row in rows:
            for button in row:
                if button.needs is not None:
                    self.buttons[button.custom_id] = button
                    self.buttons.move_to_end(button.custom_id)
        while len(self.buttons) > MAX_REMEMBERED_BUTTONS:
            self.buttons.popitem(last=False)
        keyboard = [
            [
                InlineKeyboardButton(fit(b.label, 64), callback_data=self.codec.encode(b.custom_id))
                for b in row
            ]
            for row in rows
            if row
        ]
        return InlineKeyboardMarkup(keyboard) if keyboard else None

    # ---- the batch ---------------------------------------------------------------------------
    async def deliver(self, items: Sequence[Outgoing], origin: Origin) -> list[str]:
        """Deliver a batch in order; returns the refusals to show as the pressed button's alert."""
        alerts: list[str] = []
        for item in coalesce(items):
            try:
                if item.kind is OutKind.PUBLIC:
                    await self._public(item, origin)
                elif item.kind is OutKind.EDIT_TABLE and item.table_id is not None:
                    await self._edit_table(item, origin)
                elif item.kind is OutKind.EDIT_TABLE:  # no table to edit: post it instead
                    await self._public(item, origin)
                elif item.kind is OutKind.PRIVATE:
                    await self._private(item, origin)
                elif self._is_alert(item, origin):
                    alerts.append(item.text)
                else:
                    await self._refusal(item, origin)
            except TelegramError as exc:
                log.warning(kv(event="delivery_failed", kind=item.kind.value, error=exc))
        return alerts

    @staticmethod
    def _is_alert(item: Outgoing, origin: Origin) -> bool:
        return origin.callback is not None and (
            item.user_id is None or item.user_id == str(origin.user_id)
        )

    def _group_of(self, item: Outgoing, origin: Origin) -> Place | None:
        """Where an item belongs (its table's place, its channel, or the origin)."""
        if item.table_id is not None and item.table_id in self.table_chats:
            return self.table_chats[item.table_id]
        return Place.parse(item.channel_id) or origin.place

    async def _send(
        self,
        chat_id: int,
        text: str,
        picture: bytes | None,
        markup: InlineKeyboardMarkup | None,
        **extra: Any,
    ) -> Message:
        """One new message: a photo (caption when short enough) or text."""
        if picture is not None:
            if len(text) <= MAX_CAPTION:
                return await self.bot.send_photo(
                    chat_id, picture, caption=text or None, reply_markup=markup, **extra
                )
            await self.bot.send_photo(chat_id, picture, **extra)
        return await self.bot.send_message(
            chat_id, fit(text, MAX_TEXT), reply_markup=markup, **extra
        )

    # ---- public messages and the table message -----------------------------------------------
    async def _public(self, item: Outgoing, origin: Origin) -> None:
        place = self._group_of(item, origin)
        if place is None:
            log.warning(kv(event="public_without_chat", table=item.table_id))
            return
        markup = self.keyboard(item.buttons)
        await self._send(place.chat_id, item.text, item.picture, markup, **place.send_kwargs())
        if item.table_id is not None:
            self.table_chats.setdefault(item.table_id, place)

    async def _record_table_message(
        self, item: Outgoing, message: Message, markup: InlineKeyboardMarkup | None, place: Place
    ) -> None:
        """Make `message` the table's message; the old one loses its (now stale) buttons."""
        assert item.table_id is not None
        old = self.tables.get(item.table_id)
        self.tables[item.table_id] = TableMessage(
            chat_id=message.chat_id,
            message_id=message.message_id,
            text=message.caption if message.photo else (message.text or ""),
            markup=_markup_dict(markup),
            photo=bool(message.photo),
        )
        self.table_chats[item.table_id] = place
        if old is not None and old.markup is not None and old.message_id != message.message_id:
            try:
                await self.bot.edit_message_reply_markup(old.chat_id, old.message_id)
            except TelegramError as exc:
                log.info(kv(event="old_keyboard_kept", table=item.table_id, error=exc))

    async def _edit_table(self, item: Outgoing, origin: Origin) -> None:
        assert item.table_id is not None
        table_id = item.table_id
        self._wanted[table_id] = item
        if table_id in self._busy:
            return  # the edit in flight will send the newest wanted state when it is done
        self._busy.add(table_id)
        try:
            while (wanted := self._wanted.pop(table_id, None)) is not None:
                try:
                    await self._apply_edit(wanted, origin)
                except TelegramError as exc:
                    log.warning(kv(event="table_edit_failed", table=table_id, error=exc))
        finally:
            self._busy.discard(table_id)
        if self.prompts:
            await self.clear_prompts(table_id)

    async def _apply_edit(self, item: Outgoing, origin: Origin) -> None:
        assert item.table_id is not None
        markup = self.keyboard(item.buttons)
        current = self.tables.get(item.table_id)
        if current is None or (item.picture is not None and not current.photo):
            place = self._group_of(item, origin)
            if place is None:
                return
            message = await self._send(
                place.chat_id, item.text, item.picture, markup, **place.send_kwargs()
            )
            await self._record_table_message(item, message, markup, place)
            return
        limit = MAX_CAPTION if current.photo else MAX_TEXT
        new_text = fit(item.text, limit)
        new_markup = _markup_dict(markup)
        if item.picture is None and current.text == new_text and current.markup == new_markup:
            return  # nothing would change; Telegram would refuse the edit anyway
        chat_id, message_id = current.chat_id, current.message_id
        try:
            if item.picture is not None:
                media = InputMediaPhoto(item.picture, caption=new_text)
                await self.bot.edit_message_media(media, chat_id, message_id, reply_markup=markup)
            elif current.photo:
                await self.bot.edit_message_caption(
                    chat_id, message_id, caption=new_text, reply_markup=markup
                )
            else:
                await self.bot.edit_message_text(new_text, chat_id, message_id, reply_markup=markup)
        except BadRequest as exc:
            reason = str(exc).lower()
            if "not modified" in reason:
                pass
            elif "not found" in reason:  # someone deleted the table message: post it again
                del self.tables[item.table_id]
                await self._apply_edit(item, origin)
                return
            else:
                raise
        current.text, current.markup = new_text, new_markup

    # ---- private messages --------------------------------------------------------------------
    async def _private(self, item: Outgoing, origin: Origin) -> None:
        user_id = as_int(item.user_id)
        if user_id is None:
            log.warning(kv(event="private_without_user", table=item.table_id))
            return
        parcel = Parcel(item.text, item.picture, self.keyboard(item.buttons), item.table_id)
        await self.send_private(user_id, parcel, self._group_of(item, origin))

    async def send_private(self, user_id: int, parcel: Parcel, group: Place | None) -> bool:
        """Send to the user's private chat; if they never started the bot, keep the parcel and
        post (once) a deep-link button in `group`. True when it was delivered now."""
        if user_id not in self.pending:
            try:
                await self._send_parcel(user_id, parcel)
                return True
            except Forbidden:
                log.info(kv(event="private_blocked", user=user_id, table=parcel.table_id))
        kept = self.pending.setdefault(user_id, [])
        kept.append(parcel)
        del kept[:-MAX_PENDING_PER_USER]
        if group is not None and group.is_group and user_id not in self._prompted:
            await self._ask_to_start(user_id, group, parcel.table_id)
        return False

    async def _send_parcel(self, user_id: int, parcel: Parcel) -> None:
        """Send a private parcel; a newer keyboard for the same table retires the older one, so
        only the current turn's buttons stay under the private messages."""
        message = await self._send(user_id, parcel.text, parcel.picture, parcel.markup)
        if parcel.markup is None or parcel.table_id is None:
            return
        key = (user_id, parcel.table_id)
        old = self._private_keyboards.get(key)
        self._private_keyboards[key] = message.message_id
        if old is not None and old != message.message_id:
            try:
                await self.bot.edit_message_reply_markup(user_id, old)
            except TelegramError as exc:
                log.info(kv(event="old_keyboard_kept", user=user_id, error=exc))

    async def _ask_to_start(self, user_id: int, place: Place, table_id: str | None) -> None:
        """Post a deep-link button in the group; the message holds no card."""
        self._prompted.add(user_id)  # before any await: concurrent updates must not ask twice
        locale = await self.speaks(user_id, table_id)
        name = self.names.get(user_id, str(user_id))
        mention = f'<a href="tg://user?id={user_id}">{html.escape(name)}</a>'
        link = deep_link(self.bot.username, START_PAYLOAD)
        button = InlineKeyboardButton(adapter_text(locale, "start_button"), url=link)
        await self.bot.send_message(
            place.chat_id,
            adapter_text(locale, "need_start", name=mention),
            parse_mode=ParseMode.HTML,
            reply_markup=InlineKeyboardMarkup([[button]]),
            **place.send_kwargs(),
        )

    async def started(self, user_id: int) -> int:
        """The user pressed Start: deliver what was kept for them; returns how many went out."""
        self._prompted.discard(user_id)
        kept = self.pending.pop(user_id, [])
        for index, parcel in enumerate(kept):
            try:
                await self._send_parcel(user_id, parcel)
            except Forbidden:
                self.pending[user_id] = kept[index:]
                return index
            except TelegramError as exc:
                log.warning(kv(event="kept_private_failed", user=user_id, error=exc))
        return len(kept)

    # ---- amount prompts ----------------------------------------------------------------------
    async def ask_amount(self, button: Button, place: Place, user_id: int) -> None:
        """Post a prompt with amount buttons for `button`; a typed reply to it works too.
        One prompt per user and turn: pressing the button again posts nothing new."""
        if (button.custom_id, user_id) in self.prompts.values():
            return
        locale = await self.speaks(user_id, button.table_id)
        sizes = amount_sizes(button.min_amount, button.max_amount)
        row = [
            InlineKeyboardButton(
                adapter_text(locale, "amount_max", n=n) if n == button.max_amount else str(n),
                callback_data=self.codec.encode(button.custom_id, str(n)),
            )
            for n in sizes
        ]
        name = self.names.get(user_id, str(user_id))
        example = sizes[0] if sizes else 40
        message = await self.bot.send_message(
            place.chat_id,
            adapter_text(
                locale,
                "amount_prompt",
                name=html.escape(name),
                action=html.escape(button.label),
                example=example,
            ),
            parse_mode=ParseMode.HTML,
            reply_markup=InlineKeyboardMarkup([row[i : i + 3] for i in range(0, len(row), 3)])
            if row
            else None,
            **place.send_kwargs(),
        )
        self.prompts[(place.chat_id, message.message_id)] = (button.custom_id, user_id)

    def prompt_of(self, chat_id: int, message_id: int) -> tuple[str, int] | None:
        """The button id and user an amount prompt was posted for."""
        return self.prompts.get((chat_id, message_id))

    async def clear_prompts(self, table_id: str) -> None:
        """Delete the table's amount prompts (its turn moved on, so they are stale)."""
        for key, (custom_id, _user) in list(self.prompts.items()):
            if custom_id.split(":", 1)[0] == table_id:
                del self.prompts[key]
                try:
                    await self.bot.delete_message(*key)
                except TelegramError as exc:
                    log.info(kv(event="prompt_kept", table=table_id, error=exc))

    # ---- refusals ----------------------------------------------------------------------------
    async def _refusal(self, item: Outgoing, origin: Origin) -> None:
        """A refusal of a typed command: a reply to that command in the same chat."""
        target = as_int(item.user_id)
        if origin.chat_id is not None and (target is None or target == origin.user_id):
            reply = (
                ReplyParameters(origin.message_id, allow_sending_without_reply=True)
                if origin.message_id is not None
                else None
            )
            extra = origin.place.send_kwargs() if origin.place is not None else {}
            await self.bot.send_message(
                origin.chat_id, fit(item.text, MAX_TEXT), reply_parameters=reply, **extra
            )
        elif target is not None:
            try:
                await self.bot.send_message(target, fit(item.text, MAX_TEXT))
            except Forbidden:
                log.info(kv(event="refusal_undeliverable", user=target))

    async def answer(self, query: CallbackQuery, alerts: Sequence[str]) -> None:
        """Answer a button press: a refusal as an alert only the presser sees, else silently."""
        try:
            if alerts:
                await query.answer(fit("\n".join(alerts), MAX_ALERT), show_alert=True)
            else:
                await query.answer()
        except TelegramError as exc:
            log.warning(kv(event="answer_failed", error=exc))
