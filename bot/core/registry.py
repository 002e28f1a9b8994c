"""The games a table can play: the session class of each and how `open`/`start` reads its words."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.core.commands import VARIANTS, lookup
from bot.core.config import CoreConfig
from bot.core.errors import Refusal
from bot.core.okey.session import OkeySession
from bot.core.okey101.session import Okey101Session, is_variant_word
from bot.core.poker.session import ENGINES, PokerSession
from bot.core.poker.sng_table import SitAndGoSession
from bot.core.table.session import Seat, TableSession, Who

GAMES: dict[str, type[TableSession]] = {name: PokerSession for name in ENGINES}
GAMES["okey"] = OkeySession
GAMES["okey101"] = Okey101Session


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
    if args and is_variant_word(args[0]):  # `/okey start 101 ...`, `/okey başlat yüzbir`
        return Okey101Session.create(who.locale, args[1:], config, now), "join"
    return OkeySession.create(who.locale, args, config, now), "join"


def sit_and_go(
    variant: str,
    entrants: list[Who],
    settings: dict[str, Any],
    locale: str,
    config: CoreConfig | None,
    now: datetime,
    tournament_id: Any,
) -> tuple[SitAndGoSession, str]:
    """A poker tournament's sit-and-go table (`bot.core.poker.sng_table`): every entrant seated
    with `settings["chips"]` tournament chips (no wallet, no ledger), the ante rising every
    `settings["level_seconds"]` (optional `antes` schedule, `structure`, computers'
    `bot_level`), `options["tournament"] = tournament_id`. Returns the session and the
    sub-command that deals its first hand, to pass to `TableService.open` as `first`: a
    hand's id and seed need the table's id, which exists only once the table is stored.
    The choice lives here, not on `PokerSession`, so the poker session never imports the
    sit-and-go that builds on it."""
    session = SitAndGoSession.seat_entrants(variant, entrants, settings, locale, now, tournament_id)
    return session, "start"


def tournament_table(
    kind: str, entrants: list[Seat], settings: dict[str, Any], config: CoreConfig, now: datetime
) -> TableSession:
    """The session of one tournament table, its players seated and its match or first hand
    ready to begin (`start_match`): Okey (`settings`: `tournament`, `slot`, `rounds`,
    `tiebreak`, `locale`; `variant` "okey101" for 101 Okey matches) or the poker sit-and-go (`turkish`/`acik`: `tournament`, `slot`,
    `chips`, `level_minutes`, `locale`)."""
    if kind == "okey" and settings.get("variant") == "okey101":
        table = Okey101Session.for_tournament(
            settings["locale"],
            entrants,
            settings["rounds"],
            settings["tournament"],
            settings["tiebreak"],
            now,
        )
        table.options["slot"] = settings["slot"]
        return table
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
    session, _ = sit_and_go(
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
