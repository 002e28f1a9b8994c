"""Classic Okey as the registry knows it (`bot.core.registry`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.core.api import TableView
from bot.core.config import CoreConfig
from bot.core.okey.records import okey_stats, tile_history
from bot.core.okey.session import OkeySession
from bot.core.okey.view import okey_view, sorted_slots
from bot.core.spec import GameSpec
from bot.core.table.session import Seat, TableSession

__all__ = ["OKEY"]


def _create(locale: str, args: tuple[str, ...], config: CoreConfig, now: datetime) -> TableSession:
    return OkeySession.create(locale, args, config, now)


def _sorted(view: TableView, mode: str) -> Sequence[str | None]:
    assert view.indicator is not None
    return sorted_slots(view.mine, view.indicator, mode)


def _tournament(
    entrants: list[Seat], settings: dict[str, Any], config: CoreConfig, now: datetime
) -> TableSession:
    """A knockout's match table (`settings`: `tournament`, `slot`, `rounds`, `tiebreak`,
    `locale`, `preset`)."""
    session = OkeySession.for_tournament(
        settings["locale"],
        entrants,
        settings["rounds"],
        settings["tournament"],
        settings["tiebreak"],
        now,
        settings.get("preset", "penalty"),
    )
    session.options["slot"] = settings["slot"]
    return session


OKEY = GameSpec(
    name="okey",
    session=OkeySession,
    create=_create,
    view=okey_view,
    opener="start",
    default=True,
    first="join",
    tiles=True,
    sort_rack=_sorted,
    stake_at_begin=True,
    tournament=_tournament,
    history_line=tile_history(""),
    stats_lines=okey_stats,
)
