"""The words an Okey player types: the move words, where to take from and tile names (`r5`),
turned into the engine's `Action`; what is refused says why, in the player's language.

`OkeyWords` is mixed into `bot.core.okey.session.OkeySession`.
"""

from __future__ import annotations

from bot.core.commands import TAKE_SOURCES, lookup
from bot.core.errors import Refusal
from bot.core.table.session import TableSession
from games.base import Action

OKEY_SUBS = ("take", "discard", "finish", "show")


def tile_word(word: str) -> str:
    """A tile typed by a player: `r5` -> `R5`, `k13` -> `K13`, `f` -> `F`."""
    return word.strip().upper()


class OkeyWords(TableSession):
    """An Okey move from its words (mixed into `OkeySession`)."""

    def _parse(self, sub: str, args: tuple[str, ...]) -> Action:
        if sub == "take":
            source = lookup(TAKE_SOURCES, args[0]) if len(args) == 1 else None
            if source is None:
                raise Refusal("err.take_usage")
            return Action("take", source=source)
        if sub == "show":
            if args:
                raise Refusal("err.no_args", action=sub)
            return Action("show_indicator")
        if len(args) != 1:
            raise Refusal("err.tile_usage", action=sub)
        return Action(sub, cards=(tile_word(args[0]),))
