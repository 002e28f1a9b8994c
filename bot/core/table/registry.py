"""The games a table can play: the session class of each and how `open`/`start` reads its words."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.core.commands import VARIANTS, lookup
from bot.core.config import CoreConfig
from bot.core.errors import Refusal
from bot.core.okey import OkeySession
from bot.core.poker import ENGINES, PokerSession
from bot.core.session import Seat, TableSession, Who

GAMES: dict[str, type[TableSession]] = {name: PokerSession for name in ENGINES}
GAMES["okey"] = OkeySession


def open_session(
    group: str, args: tuple[str, ...], who: Who, config: CoreConfig, now: datetime
) -> tuple[TableSession, str | None]:
    """A new session for `/poker open ...` or `/okey start ...`, and the sub-command the opener
    runs at once (Okey: the opener sits down)."""
    if group == "poker":
        variant = "turkish"
        if args and lookup(VARIANTS, args[0]) is not None:
            variant, args = lookup(VARIANTS, args[0]) or variant, args[1:]
        if variant not in ENGINES:
            raise Refusal("err.game_unavailable")
        return PokerSession.create(variant, who.locale, args, config, now), None
    return OkeySession.create(who.locale, args, config, now), "join"


def tournament_table(
    kind: str, entrants: list[Seat], settings: dict[str, Any], config: CoreConfig, now: datetime
) -> TableSession:
    """The session of one tournament table, its players seated and its match or first hand
    ready to begin (`start_match`): Okey (`settings`: `tournament`, `slot`, `rounds`,
    `tiebreak`, `locale`) or the poker sit-and-go (`turkish`/`acik`: `tournament`, `slot`,
    `chips`, `level_minutes`, `locale`)."""
    if kind == "okey":
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
    session, _ = PokerSession.tournament(
        kind,
        entrants,
        {
            "chips": settings["chips"],
            "level_seconds": 60 * settings["level_minutes"],
            "rules": settings.get("rules", ()),
        },
        settings["locale"],
        config,
        now,
        settings["tournament"],
    )
    session.options["slot"] = settings["slot"]
    return session
