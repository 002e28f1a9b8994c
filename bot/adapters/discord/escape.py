"""The core's words are plain text; Discord would read markdown in them. A player's name such as
`[free chips](https://…)`, "# WINNER" or "```" would become a masked link, a heading or a code
block in the table message. Every text the Discord adapter sends from the core is escaped here
(discord.py's `escape_markdown`; bare links stay clickable), so names show as typed."""

from __future__ import annotations

from dataclasses import replace

from discord.utils import escape_markdown

from bot.core.messages import Outgoing


def plain(text: str) -> str:
    """`text` as Discord should show it: every markdown mark taken literally."""
    return escape_markdown(text, ignore_links=True)


def shown_as_typed(item: Outgoing) -> Outgoing:
    """The item with its text escaped for Discord (unchanged when nothing needs escaping)."""
    escaped = plain(item.text)
    return item if escaped == item.text else replace(item, text=escaped)
