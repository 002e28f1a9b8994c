"""101 Okey as the registry knows it (`bot.core.registry`): `/okey start 101 ...`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.core.api import TableView
from bot.core.config import CoreConfig
from bot.core.okey.records import tile_history
from bot.core.okey101.records import okey101_stats
from bot.core.okey101.session import Okey101Session, is_variant_word
from bot.core.okey101.view import okey101_view, sorted_slots101
from bot.core.spec import GameSpec
from bot.core.table.session import Seat, TableSession

__all__ = ["OKEY101"]


def _create(locale: str, args: tuple[str, ...], config: CoreConfig, now: datetime) -> TableSession:
    return Okey101Session.create(locale, args, config, now)


def _sorted(view: TableView, mode: str) -> Sequence[str | None]:
    assert view.okey is not None
    return sorted_slots101(view.mine, view.okey, mode)


def _tournament(
    entrants: list[Seat], settings: dict[str, Any], config: CoreConfig, now: datetime
) -> TableSession:
    """A knockout's 101 match table (`settings`: `tournament`, `slot`, `rounds`, `tiebreak`,
    `locale`)."""
    session = Okey101Session.for_tournament(
        settings["locale"],
        entrants,
        settings["rounds"],
        settings["tournament"],
        settings["tiebreak"],
        now,
    )
    session.options["slot"] = settings["slot"]
    return session


OKEY101 = GameSpec(
    name="okey101",
    session=Okey101Session,
    create=_create,
    view=okey101_view,
    opener="start",
    picks=is_variant_word,
    first="join",
    tiles=True,
    sort_rack=_sorted,
    stake_at_begin=True,
    tournament=_tournament,
    history_line=tile_history("101"),
    stats_lines=okey101_stats,
)
