"""101 Okey's section of `/stats` (`GameSpec.stats_lines`); its `/history` rows are the tile
games' (`bot.core.okey.records.tile_history`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core.table.records import pct
from bot.core.table.session import Msg, msg

if TYPE_CHECKING:
    from storage import PlayerStats

__all__ = ["okey101_stats"]


def okey101_stats(s: PlayerStats, game: Msg, money: Msg) -> list[Msg]:
    """101 Okey: openings by melds and by pairs, finishes, the average round score and the
    +101 discards."""
    average = f"{s.penalty / s.rounds:.1f}" if s.rounds else "0"
    closed = s.rounds - s.series_openings - s.pair_openings
    return [
        msg("stats.okey101_head", game=game, matches=s.matches, rounds=s.rounds),
        money,
        msg(
            "stats.okey101_openings",
            series=s.series_openings,
            pairs=s.pair_openings,
            closed=max(closed, 0),
        ),
        msg(
            "stats.okey101_finishes",
            won=s.rounds_won,
            pct=pct(s.rounds_won, s.rounds),
            okey=s.okey_discards,
            by_hand=s.by_hand,
        ),
        msg("stats.okey101_penalty", average=average, discards=s.discard_penalties),
    ]
