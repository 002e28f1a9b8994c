"""`NarrowCore`: the read-only part of the core's contract (`bot.core.api.CoreApi`) for test
doubles that script only `handle` and `press`: nobody chose a language with `/lang`, no open
table is known (a table's buttons and language come from the items alone), and which commands
need a moderator is the core's own rule."""

from __future__ import annotations

from collections.abc import Callable

from bot.core.api import ReactionListener, TableInfo, TableView, VersionListener
from bot.core.checks import needs_moderator


class NarrowCore:
    """Base of scripted cores: the contract's look-ups with neutral answers."""

    async def locale_of(self, platform: str, user_id: str) -> str | None:
        """No `/lang` choice."""
        return None

    async def table_in_channel(self, platform: str, channel_id: str) -> str | None:
        """No open table known."""
        return None

    async def choose_room(
        self, platform: str, user_id: str, channel_id: str, room: str | None
    ) -> None:
        """Nothing kept."""

    async def chosen_room(self, platform: str, user_id: str, channel_id: str) -> str | None:
        """No room chosen."""
        return None

    def needs_moderator(self, name: str, args: tuple[str, ...]) -> bool:
        """The core's rule (`bot.core.checks.needs_moderator`)."""
        return needs_moderator(name, args)

    def table_info(self, table_id: str) -> TableInfo | None:
        """No open table known."""
        return None

    async def table_view(
        self, table_id: str, platform: str, user_id: str, locale: str | None = None
    ) -> TableView | None:
        """No open table known."""
        return None

    def subscribe(self, listener: VersionListener) -> Callable[[], None]:
        """No table ever moves: nothing to tell."""
        return lambda: None

    def watch_reactions(self, listener: ReactionListener) -> Callable[[], None]:
        """Nobody reacts at a table nobody knows: nothing to tell."""
        return lambda: None
