"""101 Okey as the registry knows it (`bot.core.registry`): `/okey start 101 ...`."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.api import TableView
from bot.core.okey.records import tile_history
from bot.core.okey101.messages import PRESENTER
from bot.core.okey101.records import okey101_stats
from bot.core.okey101.session import Okey101Session, is_variant_word
from bot.core.okey101.view import okey101_view, sorted_slots101
from bot.core.spec import GameSpec
from bot.core.table import pictures

__all__ = ["OKEY101"]


def _sorted(view: TableView, mode: str) -> Sequence[str | None]:
    assert view.okey is not None
    return sorted_slots101(view.mine, view.okey, mode)


OKEY101 = GameSpec(
    name="okey101",
    session=Okey101Session,
    create=Okey101Session.create,
    view=okey101_view,
    presenter=PRESENTER,
    opener="start",
    picks=is_variant_word,
    first="join",
    tiles=True,
    sort_rack=_sorted,
    stake_at_begin=True,
    tournament=Okey101Session.for_tournament,
    history_line=tile_history("101"),
    stats_lines=okey101_stats,
    replay_dealt=lambda own, locale: pictures.okey101_rack(own, (), locale),
    replay_end=lambda final, names, events, locale: pictures.okey101_table(final, names, locale),
)
