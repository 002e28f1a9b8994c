"""Türk pokeri and Açık poker as the registry knows them (`bot.core.registry`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.core.commands import VARIANTS, lookup
from bot.core.config import CoreConfig
from bot.core.i18n import hand_name
from bot.core.poker.messages import PokerPresenter
from bot.core.poker.records import acik_stats, turkish_stats
from bot.core.poker.session import PokerSession
from bot.core.poker.sng_table import SitAndGoSession
from bot.core.poker.view import poker_view
from bot.core.sketch import Sketch
from bot.core.spec import GameSpec
from bot.core.table import pictures
from bot.core.table.records import StatsLines
from bot.core.table.session import Seat, TableSession
from games.base import Event

__all__ = ["ACIK", "TURKISH"]


def _spec(name: str, stats: StatsLines, default: bool = False) -> GameSpec:
    """The spec of one poker variant: `/poker open [its word] ...`, the first word naming it
    (`VARIANTS`), Türk pokeri when none does."""

    def create(
        locale: str, args: tuple[str, ...], config: CoreConfig, now: datetime
    ) -> PokerSession:
        return PokerSession.create(name, locale, args, config, now)

    def tournament(
        entrants: list[Seat], settings: dict[str, Any], config: CoreConfig, now: datetime
    ) -> TableSession:
        return sit_and_go_table(name, entrants, settings, config, now)

    return GameSpec(
        name=name,
        session=PokerSession,
        create=create,
        view=poker_view,
        presenter=PokerPresenter(name),
        opener="open",
        picks=lambda word: lookup(VARIANTS, word) == name,
        default=default,
        tournament=tournament,
        stats_lines=stats,
        replay_dealt=pictures.poker_hand,
        replay_end=lambda final, names, events, locale: showdown(
            name, final, names, events, locale
        ),
    )


def showdown(
    game: str, final: dict[str, Any], names: Sequence[str], events: Sequence[Event], locale: str
) -> Sketch | None:
    """The finished hand's table at its showdown, each shown hand named and the winners
    marked; None when nobody showed (everyone else folded)."""
    shown = next((e for e in events if e.kind == "showdown"), None)
    if shown is None:
        return None
    labels = {h["seat"]: hand_name(locale, game, h["category"]) for h in shown.data["hands"]}
    won = {e.data["seat"] for e in events if e.kind == "won"}
    return pictures.poker_table(final, list(names), locale, labels, won)


def sit_and_go_table(
    name: str, entrants: list[Seat], settings: dict[str, Any], config: CoreConfig, now: datetime
) -> SitAndGoSession:
    """A poker tournament's sit-and-go table (`settings`: `tournament`, `slot`, `chips`,
    `level_minutes`, `rules`, `locale`)."""
    session = SitAndGoSession.seat_entrants(
        name,
        entrants,
        {
            "chips": settings["chips"],
            "level_seconds": 60 * settings["level_minutes"],
            "rules": settings.get("rules", ()),
        },
        settings["locale"],
        now,
        settings["tournament"],
    )
    session.options["slot"] = settings["slot"]
    return session


TURKISH = _spec("turkish", turkish_stats, default=True)
ACIK = _spec("acik", acik_stats)
