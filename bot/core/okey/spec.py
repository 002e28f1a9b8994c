"""Classic Okey as the registry knows it (`bot.core.registry`)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.api import TableView
from bot.core.okey.messages import PRESENTER
from bot.core.okey.records import okey_stats, tile_history
from bot.core.okey.session import OkeySession
from bot.core.okey.view import okey_view, sorted_slots
from bot.core.spec import GameSpec
from bot.core.table import pictures

__all__ = ["OKEY"]


def _sorted(view: TableView, mode: str) -> Sequence[str | None]:
    assert view.indicator is not None
    return sorted_slots(view.mine, view.indicator, mode)


OKEY = GameSpec(
    name="okey",
    session=OkeySession,
    create=OkeySession.create,
    view=okey_view,
    presenter=PRESENTER,
    opener="start",
    default=True,
    first="join",
    tiles=True,
    sort_rack=_sorted,
    stake_at_begin=True,
    tournament=OkeySession.for_tournament,
    history_line=tile_history(""),
    stats_lines=okey_stats,
    replay_dealt=pictures.okey_rack,
    replay_end=lambda final, names, events, locale: pictures.okey_finish(final, locale),
)
