"""Okey's rows of `/history` (a round, a match) and its section of `/stats`
(`GameSpec.history_line`, `GameSpec.stats_lines`); 101 Okey's rows share the shape."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.core.table.records import HistoryLine, pct, signed
from bot.core.table.session import Msg, msg

if TYPE_CHECKING:
    from storage import HistoryEntry, PlayerStats

__all__ = ["okey_stats", "tile_history"]


def tile_history(suffix: str) -> HistoryLine:
    """The `/history` row of a tile game whose catalogue keys end in `suffix`
    (`history.round{suffix}`, `history.round{suffix}_won`, `history.match{suffix}`): a round's
    penalty, a match's chips and points."""

    def line(e: HistoryEntry, common: dict[str, Any]) -> Msg:
        if e.detail.get("kind") == "round":
            key = f"history.round{suffix}_won" if e.detail.get("won") else f"history.round{suffix}"
            return msg(key, penalty=e.detail.get("penalty", 0), **common)
        return msg(
            f"history.match{suffix}",
            chips=signed(e.chips_delta),
            points=e.detail.get("points", 0),
            **common,
        )

    return line


def okey_stats(s: PlayerStats, game: Msg, money: Msg) -> list[Msg]:
    """Okey: matches and rounds, rounds won, finishes by okey and by pairs, the average
    penalty and the indicators shown."""
    average = f"{s.penalty / s.rounds:.1f}" if s.rounds else "0"
    return [
        msg("stats.okey_head", game=game, matches=s.matches, rounds=s.rounds),
        money,
        msg("stats.okey_rounds", won=s.rounds_won, pct=pct(s.rounds_won, s.rounds)),
        msg("stats.okey_finishes", okey=s.okey_discards, pairs=s.pairs),
        msg("stats.okey_penalty", average=average, shows=s.indicators),
    ]
