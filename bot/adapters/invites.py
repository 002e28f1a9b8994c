"""A private table's invitation (`Outgoing.invite`, docs/commands.md) as a front end offers it:
the link that opens it (Telegram's deep link) or the command that uses it (`/table join`)."""

from __future__ import annotations

from bot.core.i18n import t


def invite_line(locale: str, token: str, link: str | None = None) -> str:
    """The line added to a private message carrying an invitation: `link` when the front end
    makes one, else the command that sits with the token."""
    if link is not None:
        return t(locale, "invite.link", url=link)
    return t(locale, "invite.command", command=f"/table join {token}")
