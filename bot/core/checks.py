"""Moderator checks: the adapter decides who is a moderator on its platform and says so on the
command (`Command.is_moderator`); the core only enforces it."""

from __future__ import annotations

from bot.core.errors import Refusal
from bot.core.messages import Command


def require_moderator(command: Command) -> None:
    """Refuse unless the sender is a moderator of this channel."""
    if not command.is_moderator:
        raise Refusal("err.not_moderator")
