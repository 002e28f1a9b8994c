"""What a game's package supplies for `/history` and `/stats` (its `GameSpec.history_line` and
`GameSpec.stats_lines`) and the small helpers they share."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.core.table.session import Msg

if TYPE_CHECKING:
    from storage import HistoryEntry, PlayerStats

__all__ = ["HistoryLine", "StatsLines", "pct", "signed"]

# (the entry, the fields every row shows: hand, table, date) -> its `/history` row
HistoryLine = Callable[["HistoryEntry", dict[str, Any]], Msg]
# (the game's statistics, the game's name, the chips line) -> its `/stats` section
StatsLines = Callable[["PlayerStats", Msg, Msg], list[Msg]]


def signed(chips: int) -> str:
    """Chips with their sign (`+20`, `-5`, `0`)."""
    return f"+{chips}" if chips > 0 else str(chips)


def pct(part: int, whole: int) -> int:
    """`part` as a whole percentage of `whole` (0 of nothing)."""
    return round(100 * part / whole) if whole else 0
