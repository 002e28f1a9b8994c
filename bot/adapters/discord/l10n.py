"""`L(english, turkish)`: the localizable strings of the command tree (see `commands.Translator`)."""

from __future__ import annotations

from discord.app_commands import locale_str


def L(english: str, turkish: str) -> locale_str:
    """A localizable string: English as written, Turkish in the `tr` extra."""
    return locale_str(english, tr=turkish)
