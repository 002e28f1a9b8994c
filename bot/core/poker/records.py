"""Türk pokeri's and Açık poker's sections of `/stats` (`GameSpec.stats_lines`); a hand's
`/history` row is the core's default."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core.table.records import pct
from bot.core.table.session import Msg, msg

if TYPE_CHECKING:
    from storage import PlayerStats

__all__ = ["acik_stats", "turkish_stats"]


def _common(s: PlayerStats, game: Msg, money: Msg) -> list[Msg]:
    return [
        msg("stats.head", game=game, hands=s.hands, won=s.won, pct=pct(s.won, s.hands)),
        money,
        msg("stats.pots", pot=s.biggest_pot, showdowns=s.showdowns, won=s.showdowns_won),
    ]


def turkish_stats(s: PlayerStats, game: Msg, money: Msg) -> list[Msg]:
    """Türk pokeri: hands, pots, the openings, passes and draws, the folds before and after
    the draw."""
    drawn = f"{s.cards_drawn / s.went_to_draw:.1f}" if s.went_to_draw else "0"
    return [
        *_common(s, game, money),
        msg(
            "stats.turkish",
            opened=pct(s.opened, s.hands),
            passed=pct(s.passed, s.hands),
            draw=pct(s.went_to_draw, s.hands),
            cards=drawn,
        ),
        msg(
            "stats.folds_turkish",
            first=pct(s.folded.get(1, 0), s.hands),
            second=pct(s.folded.get(2, 0), s.hands),
        ),
    ]


def acik_stats(s: PlayerStats, game: Msg, money: Msg) -> list[Msg]:
    """Açık poker: hands, pots and the folds by street."""
    folds = ", ".join(
        f"{street}: {pct(s.folded.get(street, 0), s.hands)}%" for street in (1, 2, 3, 4)
    )
    return [*_common(s, game, money), msg("stats.folds_acik", folds=folds)]
