"""The private chat between the bot and one user: cards, racks, pickers, prompts, refusals.

Private messages go out directly (never behind group traffic). What is kept here:
- who cannot be written to (never pressed Start, or blocked the bot): not tried again until they
  press Start; the tables they missed messages about are noted, so that on Start they get the
  current state of those tables, never the stale messages themselves;
- each user's current message per table: an item with the same `slot` (one hand or round) edits
  it instead of piling up a new message; a new slot, or a newer keyboard, retires the older
  message's buttons, so only the current turn's buttons stay under the private messages.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from typing import Any

from telegram import Bot, InlineKeyboardMarkup, InputMediaPhoto, Message, ReplyParameters
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.caches import Lru
from bot.logs import kv

log = logging.getLogger("bot.telegram")

MAX_TEXT = 4096
MAX_USERS = 20_000  # users remembered as unreachable or as having missed messages (LRU)
MAX_CAPTION = 1024


def fit(text: str, limit: int) -> str:
    """The text cut to Telegram's limit (with an ellipsis when cut); never empty."""
    text = text or "…"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def markup_dict(markup: InlineKeyboardMarkup | None) -> dict[str, Any] | None:
    """A keyboard as comparable data (None for no keyboard)."""
    return markup.to_dict() if markup is not None else None


def digest(picture: bytes | None) -> str | None:
    """A short fingerprint of a picture, to tell whether it changed."""
    return hashlib.sha256(picture).hexdigest()[:16] if picture is not None else None


def reply_to(message_id: int | None) -> ReplyParameters | None:
    """Reply parameters for answering a message (sent even if it is gone), or None."""
    if message_id is None:
        return None
    return ReplyParameters(message_id, allow_sending_without_reply=True)


async def take_buttons(bot: Bot, chat_id: int, message_id: int, **context: object) -> None:
    """Take the keyboard off a message; a refusal is only logged (`context` names the event),
    so the message keeps its buttons."""
    try:
        await bot.edit_message_reply_markup(chat_id, message_id)
    except TelegramError as exc:
        log.info(kv(**context, error=exc))


async def send(
    bot: Bot,
    chat_id: int,
    text: str,
    picture: bytes | None,
    markup: InlineKeyboardMarkup | None,
    attachment: tuple[str, bytes] | None = None,
    **extra: Any,
) -> Message:
    """One new message in any chat: a photo (its caption when short enough) or text; with an
    `attachment` (file name, content), see `send_with_file`."""
    if attachment is not None:
        return await send_with_file(bot, chat_id, text, picture, markup, attachment, **extra)
    if picture is not None:
        if len(text) <= MAX_CAPTION:
            return await bot.send_photo(
                chat_id, picture, caption=text or None, reply_markup=markup, **extra
            )
        await bot.send_photo(chat_id, picture, **extra)
    return await bot.send_message(chat_id, fit(text, MAX_TEXT), reply_markup=markup, **extra)


async def send_with_file(
    bot: Bot,
    chat_id: int,
    text: str,
    picture: bytes | None,
    markup: InlineKeyboardMarkup | None,
    attachment: tuple[str, bytes],
    **extra: Any,
) -> Message:
    """The text with a file (`sendDocument`, under the file's own name): the document's caption
    when there is no picture and the text is short enough, else the text (and picture) first
    and the document right after it. Returns the message that carries the text."""
    name, content = attachment
    if picture is None and len(text) <= MAX_CAPTION:
        return await bot.send_document(
            chat_id, content, caption=text or None, reply_markup=markup, filename=name, **extra
        )
    message = await send(bot, chat_id, text, picture, markup, **extra)
    await bot.send_document(chat_id, content, filename=name, **extra)
    return message


@dataclass(frozen=True)
class Parcel:
    """A private message ready to send: text, optional picture and keyboard, the table it is
    about, its slot (the hand or round it shows, see `Outgoing.slot`) and an optional file
    (`Outgoing.attachment`: file name, content)."""

    text: str
    picture: bytes | None = None
    markup: InlineKeyboardMarkup | None = None
    table_id: str | None = None
    slot: str | None = None
    attachment: tuple[str, bytes] | None = None
    fresh: bool = False  # a new message at the bottom, never an edit of the slot's message


@dataclass
class Shown:
    """A user's current private message about one table, as it reads now."""

    message_id: int
    slot: str | None
    text: str
    markup: dict[str, Any] | None
    picture: str | None  # the digest of its picture; None for a text message


class PrivateChats:
    """Sends to users' private chats, editing the current message of a slot where it can."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        # users who blocked the bot or never started the chat (the least recent forgotten
        # first beyond MAX_USERS: such a user is tried once more, then remembered again)
        self.unreachable: Lru[int, bool] = Lru(MAX_USERS)
        # user -> tables they missed messages about (closed tables are dropped: `forget_table`)
        self.missed: Lru[int, list[str]] = Lru(MAX_USERS)
        self.shown: dict[tuple[int, str], Shown] = {}  # (user, table) -> their current message

    def reachable(self, user_id: int) -> bool:
        """False once a message to the user was refused, until they press Start."""
        return user_id not in self.unreachable

    def refused(self, user_id: int) -> None:
        """Telegram refused a message to the user (Forbidden): stop trying until Start."""
        self.unreachable[user_id] = True
        log.info(kv(event="private_blocked", user=user_id))

    async def send(self, user_id: int, parcel: Parcel) -> bool:
        """Deliver the parcel now; False when the user cannot be written to (then the parcel's
        table is noted as missed)."""
        if self.reachable(user_id):
            try:
                await self._deliver(user_id, parcel)
                return True
            except Forbidden:
                self.refused(user_id)
        if parcel.table_id is not None:
            missed = self.missed.setdefault(user_id, [])
            if parcel.table_id not in missed:
                missed.append(parcel.table_id)
        return False

    async def say(self, user_id: int, text: str) -> bool:
        """A plain text message (a refusal); False when the user cannot be written to."""
        if not self.reachable(user_id):
            return False
        try:
            await self.bot.send_message(user_id, fit(text, MAX_TEXT))
            return True
        except Forbidden:
            self.refused(user_id)
            return False

    def started(self, user_id: int) -> list[str]:
        """The user pressed Start: they can be written to again; returns the tables they missed
        messages about (oldest first)."""
        self.unreachable.pop(user_id)
        return self.missed.pop(user_id) or []

    def forget_table(self, table_id: str) -> None:
        """Drop what is kept about a closed table: each user's current message of it and the
        table among the ones they missed."""
        self.shown = {k: v for k, v in self.shown.items() if k[1] != table_id}
        for user in [u for u, tables in self.missed.items() if table_id in tables]:
            left = [t for t in self.missed[user] if t != table_id]
            if left:
                self.missed[user] = left
            else:
                del self.missed[user]

    async def take_keyboard(self, user_id: int, message_id: int, **context: object) -> None:
        """Take the keyboard off one of the user's private messages (see `take_buttons`), unless
        it is known to have none left: Telegram refuses an edit that changes nothing."""
        known = [
            shown
            for (user, _table), shown in self.shown.items()
            if user == user_id and shown.message_id == message_id
        ]
        if known and all(shown.markup is None for shown in known):
            return
        await take_buttons(self.bot, user_id, message_id, **context)
        for shown in known:
            shown.markup = None

    async def _deliver(self, user_id: int, parcel: Parcel) -> None:
        key = (user_id, parcel.table_id) if parcel.table_id is not None else None
        current = self.shown.get(key) if key is not None else None
        if (
            parcel.slot is not None
            and not parcel.fresh
            and parcel.attachment is None  # an edit cannot carry a file
            and current is not None
            and current.slot == parcel.slot
            and await self._edit(user_id, current, parcel)
        ):
            return
        message = await send(
            self.bot, user_id, parcel.text, parcel.picture, parcel.markup, parcel.attachment
        )
        if key is None or (parcel.slot is None and parcel.markup is None):
            return  # a note beside the current message; it stays current
        if current is not None and current.markup and current.message_id != message.message_id:
            await self.take_keyboard(
                user_id, current.message_id, event="old_keyboard_kept", user=user_id
            )
        photo = bool(message.photo)
        self.shown[key] = Shown(
            message_id=message.message_id,
            slot=parcel.slot,
            text=(message.caption or "") if photo else (message.text or ""),
            markup=markup_dict(parcel.markup),
            picture=digest(parcel.picture) if photo else None,
        )

    async def _edit(self, user_id: int, current: Shown, parcel: Parcel) -> bool:
        """Make the current message show the parcel; False when it cannot be edited into it (a
        text message cannot become a photo, nor a photo lose its picture: a stale picture must
        never stay), so a new message is needed."""
        markup = markup_dict(parcel.markup)
        picture = digest(parcel.picture)
        chat, message_id = user_id, current.message_id
        try:
            if parcel.picture is None and current.picture is None:
                text = fit(parcel.text, MAX_TEXT)
                if text == current.text and markup == current.markup:
                    return True
                await self.bot.edit_message_text(text, chat, message_id, reply_markup=parcel.markup)
            elif parcel.picture is not None and current.picture is not None:
                if len(parcel.text) > MAX_CAPTION:
                    return False
                text = parcel.text or ""
                if picture == current.picture:
                    if text == current.text and markup == current.markup:
                        return True
                    await self.bot.edit_message_caption(
                        chat, message_id, caption=text or None, reply_markup=parcel.markup
                    )
                else:
                    media = InputMediaPhoto(parcel.picture, caption=text or None)
                    await self.bot.edit_message_media(
                        media, chat, message_id, reply_markup=parcel.markup
                    )
            else:
                return False
        except BadRequest as exc:
            if "not modified" not in str(exc).lower():
                log.info(kv(event="private_edit_failed", user=user_id, error=exc))
                return False
        current.text = fit(parcel.text, MAX_TEXT) if parcel.picture is None else parcel.text
        current.markup, current.picture = markup, picture
        return True
