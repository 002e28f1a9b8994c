"""What the Telegram delivery sends and answers: the update being answered (`Origin`), the
group message that shows a table (`TableMessage`), and a group announcement that gathers a
burst of texts into one message (`Announcement`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from telegram import Bot, CallbackQuery, InlineKeyboardMarkup, Message

from bot.adapters.surfaces import Surface
from bot.adapters.telegram.parsing import Place
from bot.adapters.telegram.private import MAX_TEXT, fit, markup_dict
from bot.core.messages import Button


@dataclass
class Origin:
    """The update being answered: where it came from and who sent it."""

    chat_id: int | None = None
    user_id: int | None = None
    message_id: int | None = None
    callback: CallbackQuery | None = None
    locale: str | None = None
    thread_id: int | None = None  # the forum topic, if any
    resend: bool = False  # the sender asked for their cards again: new private messages

    @property
    def place(self) -> Place | None:
        """The chat (and topic) the update came from."""
        return None if self.chat_id is None else Place(self.chat_id, self.thread_id)


@dataclass
class TableMessage:
    """The group message that shows a table; it is edited as play goes on."""

    chat_id: int
    message_id: int
    text: str
    markup: dict[str, Any] | None
    photo: bool
    recalled: bool = False  # read from the store: its text and keyboard are not known here


def posted_message(message: Message, markup: InlineKeyboardMarkup | None) -> TableMessage:
    """A message just posted, as the table message."""
    return TableMessage(
        chat_id=message.chat_id,
        message_id=message.message_id,
        text=(message.caption or "") if message.photo else (message.text or ""),
        markup=markup_dict(markup),
        photo=bool(message.photo),
    )


def recalled_message(stored: Surface) -> TableMessage | None:
    """A stored table message as this adapter remembers one (None when its ids are not
    Telegram's numbers)."""
    chat_id, message_id = as_int(stored.chat_id), as_int(stored.message_id)
    if chat_id is None or message_id is None:
        return None
    return TableMessage(chat_id, message_id, "", None, stored.picture, recalled=True)


def as_int(value: str | None) -> int | None:
    """The integer in a core id (Telegram chat and user ids), or None."""
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


class Announcement:
    """A plain text message for a group, waiting in the outbox; announcements that arrive while
    it still waits are added to it, so a burst costs one message."""

    def __init__(self, bot: Bot, place: Place, text: str, unique: bool = False) -> None:
        self.bot, self.place, self.texts = bot, place, [text]
        self.unique = unique  # answers: a text already in the message is not repeated

    def add(self, place: Place, text: str) -> bool:
        """Append the text when it goes to the same chat and topic (the tables of shared rooms
        there too: one message costs the chat's budget once) and still fits; False otherwise.
        An answer already in the message is merged into it (True, nothing added)."""
        same = (place.chat_id, place.thread_id) == (self.place.chat_id, self.place.thread_id)
        if same and self.unique and text in self.texts:
            return True
        if not same or len(self.text) + 1 + len(text) > MAX_TEXT:
            return False
        self.texts.append(text)
        return True

    @property
    def text(self) -> str:
        """The message as it would be sent now."""
        return "\n".join(self.texts)

    async def __call__(self) -> None:
        await self.bot.send_message(
            self.place.chat_id, fit(self.text, MAX_TEXT), **self.place.send_kwargs()
        )


def button_ids(rows: Sequence[Sequence[Button]]) -> set[str]:
    """The custom ids of the buttons in the rows."""
    return {button.custom_id for row in rows for button in row}
