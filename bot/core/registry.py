"""The games a table can play, each registered once as a `GameSpec` (`bot.core.spec`), and how
`open`/`start` and a tournament pick one. The core looks a game up here, never tests its name.

Adding a game: its package builds a `GameSpec` (session class, `create`, `view`, the word that
picks it, what it is made of) and the spec joins `register(...)` below (docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Any

from bot.core.config import CoreConfig
from bot.core.errors import Refusal
from bot.core.okey.spec import OKEY
from bot.core.okey101.spec import OKEY101
from bot.core.poker.sng_table import SitAndGoSession
from bot.core.poker.spec import ACIK, TURKISH
from bot.core.spec import GameSpec
from bot.core.table.session import Seat, TableSession, Who

__all__ = [
    "GAMES",
    "SESSIONS",
    "game_spec",
    "group_specs",
    "open_session",
    "register",
    "sit_and_go",
    "tournament_table",
]

GAMES: dict[str, GameSpec] = {}


def register(*specs: GameSpec) -> None:
    """Make the games of `specs` playable (a name registered again is replaced)."""
    for spec in specs:
        GAMES[spec.name] = spec


register(TURKISH, ACIK, OKEY, OKEY101)


def game_spec(game: str) -> GameSpec:
    """The registered spec of `game` (a stored table's game)."""
    return GAMES[game]


def group_specs(group: str) -> list[GameSpec]:
    """The registered games of a command group ("poker", "okey"), in registration order."""
    return [spec for spec in GAMES.values() if spec.group == group]


def opener_of(group: str) -> str:
    """The sub-command that opens a table of `group` ("open", "start")."""
    specs = group_specs(group)
    return specs[0].opener if specs else "open"


class _Sessions(Mapping[str, type[TableSession]]):
    """The registered games' session classes by game (what `TableService` restores), always
    as registered now."""

    def __getitem__(self, game: str) -> type[TableSession]:
        return GAMES[game].session

    def __iter__(self) -> Iterator[str]:
        return iter(GAMES)

    def __len__(self) -> int:
        return len(GAMES)


SESSIONS: Mapping[str, type[TableSession]] = _Sessions()


def open_session(
    group: str, args: tuple[str, ...], who: Who, config: CoreConfig, now: datetime
) -> tuple[TableSession, str | None]:
    """A new session for `/poker open ...` or `/okey start ...`, and the sub-command the opener
    runs at once (Okey: the opener sits down). The first word picks the game when one of the
    group's games takes it (`/poker open acik`, `/okey start 101`), else the group's default."""
    specs = group_specs(group)
    chosen = next((s for s in specs if args and s.picks(args[0])), None)
    if chosen is not None:
        args = args[1:]
    else:
        chosen = next((s for s in specs if s.default), None)
    if chosen is None:
        raise Refusal("err.game_unavailable")
    return chosen.create(who.locale, args, config, now), chosen.first


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
    ready to begin (`start_match`), made by its game's `GameSpec.tournament`. `kind` is the
    tournament's (`bot.core.tournament.state.KINDS`): a poker sit-and-go names its game; an
    Okey knockout (a tile game's kind) plays `settings["variant"]` ("okey" or "okey101")."""
    spec = GAMES[kind]
    if spec.tiles:
        spec = GAMES[settings.get("variant") or kind]
    make = spec.tournament
    if make is None:
        raise Refusal("err.game_unavailable")
    return make(entrants, settings, config, now)
