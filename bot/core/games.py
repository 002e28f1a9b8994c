"""The games a table can play: the session class of each and how `open`/`start` reads its words."""

from __future__ import annotations

from datetime import datetime

from bot.core.config import CoreConfig
from bot.core.errors import Refusal
from bot.core.session import TableSession, Who

GAMES: dict[str, type[TableSession]] = {}


def open_session(
    group: str, args: tuple[str, ...], who: Who, config: CoreConfig, now: datetime
) -> tuple[TableSession, str | None]:
    """A new session for `/poker open ...` or `/okey start ...`, and the sub-command the opener
    runs at once (None for none)."""
    raise Refusal("err.game_unavailable")
