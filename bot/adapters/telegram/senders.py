"""Who sent a Telegram message: a person, or a stand-in that hides one.

Messages posted "as a channel" (`sender_chat` set) and by anonymous group administrators all
carry the same stand-in user (GroupAnonymousBot 1087968824, Channel_Bot 136817688, and 777000
for posts forwarded from a linked channel). Counted as players they would share one wallet and
one seat, so one could fold another's hand: the adapter refuses them and asks the person to
write as themselves.
"""

from __future__ import annotations

from telegram import Message

GROUP_ANONYMOUS_BOT = 1087968824  # an administrator posting as the group
CHANNEL_BOT = 136817688  # someone posting as a channel
LINKED_CHANNEL = 777000  # a post of the group's linked channel (Telegram's service account)
STAND_INS = frozenset({GROUP_ANONYMOUS_BOT, CHANNEL_BOT, LINKED_CHANNEL})


def is_stand_in(message: Message) -> bool:
    """Whether the message hides its author behind a chat or a shared stand-in user."""
    user = message.from_user
    return message.sender_chat is not None or (user is not None and user.id in STAND_INS)
