"""Private tables' invitations on Telegram (docs/telegram.md, "Private tables").

`/table invite` sent as a reply to someone's message (or with a text mention, which names a
user without a username) invites that user by id; `/table invite @username` invites a name, which
only the link can seat. The opener gets the invitation privately with a deep link,
`https://t.me/<bot>?start=<token>`: it opens the bot's private chat, whose Start sends
`/start <token>`, and the adapter hands the core `/table join <token>` for that user (the core
checks the signature, the expiry, the withdrawal and the one use). The token never goes to a
group: the core puts it in private items only (`Outgoing.invite`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

from telegram import Message, MessageEntity, User

from bot.adapters.invites import invite_line
from bot.adapters.telegram.delivery import START_PAYLOAD
from bot.adapters.telegram.parsing import PAYLOAD_RE, deep_link
from bot.core.commands import Route
from bot.core.messages import Outgoing, OutKind

NAMING = frozenset({"invite", "uninvite"})  # the `/table` sub-commands that name a user


def invite_token(args: Sequence[str]) -> str | None:
    """The invitation token a `/start <payload>` carries, or None (no payload, or the link that
    only starts the private chat)."""
    if len(args) != 1 or args[0] == START_PAYLOAD or not PAYLOAD_RE.match(args[0]):
        return None
    return args[0]


def _as_words(user: User) -> tuple[str, ...]:
    """A Telegram user as the core's invitee words: `<@id>` (`<@bot-id>` for a bot account,
    which the core refuses as a computer) and their name."""
    prefix = "bot-" if user.is_bot else ""
    return (f"<@{prefix}{user.id}>", *(user.full_name or str(user.id)).split())


def invitee_words(message: Message, routed: Route) -> tuple[str, ...]:
    """The user `/table invite|uninvite` names beyond its typed words: a text mention's user,
    else, when no one is typed, the author of the message it replies to; else nothing."""
    if routed.group != "table" or routed.sub not in NAMING:
        return ()
    for entity in message.entities or ():
        if entity.type == MessageEntity.TEXT_MENTION and entity.user is not None:
            return _as_words(entity.user)
    reply = message.reply_to_message
    if not routed.args and reply is not None and reply.from_user is not None:
        return _as_words(reply.from_user)
    return ()


async def with_links(
    items: Sequence[Outgoing], username: str, speaks: Callable[[int], Awaitable[str]]
) -> list[Outgoing]:
    """`items` with each private invitation's deep link added to its text (in the recipient's
    language, `speaks`)."""
    out: list[Outgoing] = []
    for item in items:
        token, user = item.invite, item.user_id
        if token is None or item.kind is not OutKind.PRIVATE or user is None:
            out.append(item)
            continue
        if not user.isdigit():  # not a Telegram user: the command, not a link
            line = invite_line(await speaks(0), token)
        else:
            line = invite_line(await speaks(int(user)), token, deep_link(username, token))
        out.append(replace(item, text=f"{item.text}\n{line}"))
    return out
