"""What the core needs to know of one game, registered once (`bot.core.registry.GAMES`).

A `GameSpec` names a game's session class and the hooks the core calls instead of testing the
game's name: how `/poker open` or `/okey start` makes a new table (`create`, chosen by `picks`),
how one viewer sees it (`view`), how its events read (`presenter`), how a tournament seats it (`tournament`), and what it is made
of (`tiles`, `sort_rack`, `stake_at_begin`), and its rows of `/history` and `/stats`. Each game's package builds its spec (`spec.py`
beside its session); the registry lists them. Adding a game: write its package (session, view,
spec) and add its spec to `bot.core.registry`; nothing in `Core` changes (docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from bot.core.api import TableView
    from bot.core.config import CoreConfig
    from bot.core.sketch import Sketch
    from bot.core.table.records import HistoryLine, StatsLines
    from bot.core.table.session import Msg, Seat, TableSession
    from games.base import Event

__all__ = [
    "DealtPicture",
    "EndPicture",
    "GameSpec",
    "Maker",
    "Presenter",
    "RackSorter",
    "TournamentMaker",
    "ViewBuilder",
]

# (locale, the words after the opener and the game's word, config, now) -> a new session
Maker = Callable[[str, tuple[str, ...], "CoreConfig", datetime], "TableSession"]
# (session, viewer's user id or None for a spectator, locale or None) -> that viewer's view
ViewBuilder = Callable[[Any, str | None, str | None], "TableView"]
# (the viewer's view, "runs" or "pairs") -> the rack's slots in that order
RackSorter = Callable[["TableView", str], Sequence[str | None]]
# (seated players, the tournament's settings, config, now) -> the table's session, ready to begin
TournamentMaker = Callable[[list["Seat"], dict[str, Any], "CoreConfig", datetime], "TableSession"]
# (a player's own view as dealt, locale) -> the picture of their cards or rack (`/replay`)
DealtPicture = Callable[[dict[str, Any], str], "Sketch | None"]
# (the finished hand's public view, the players' names, its events, locale) -> its end's picture
EndPicture = Callable[[dict[str, Any], Sequence[str], Sequence["Event"], str], "Sketch | None"]


class Presenter(Protocol):
    """A game's events in words, pure: the same event and names give the same lines, and no
    session is needed (docs/architecture.md, "Presenters")."""

    def describe(self, event: Event, names: Sequence[str], locale: str) -> list[Msg]:
        """A public event as lines (`names`: the players of the engine seats, in seat order)."""
        ...

    def own(self, event: Event) -> list[Msg]:
        """A player's own (private) event as lines, for that player alone."""
        ...


def never(word: str) -> bool:
    """No word picks the game: it is its group's default."""
    return False


@dataclass(frozen=True)
class GameSpec:
    """One game a table can play: its stored name, its session class and the core's hooks."""

    name: str  # the table's game as stored and shown (`game.<name>`): "turkish", "okey101"
    session: type[TableSession]  # restores a stored snapshot (`from_dict`)
    create: Maker  # a new table for the opener's words (`/poker open acik 10`)
    view: ViewBuilder  # one viewer's `TableView` (`bot.core.api`)
    presenter: Presenter  # its events in words (the live table, `/replay`, the moves list)
    opener: str = "open"  # the sub-command that opens a table of the group ("start": Okey)
    picks: Callable[[str], bool] = never  # whether the opener's first word asks for this game
    default: bool = False  # the group's game when no word picks one (`/poker open 10`)
    first: str | None = None  # the sub-command the opener runs at once ("join": they sit down)
    tiles: bool = False  # tiles on a rack (Okey), not cards: pickers of tiles, `/okey arrange`
    sort_rack: RackSorter | None = None  # the rack by runs or pairs (None: no rack to sort)
    stake_at_begin: bool = False  # every seat covers `options["stake"]` when the match begins
    tournament: TournamentMaker | None = None  # a tournament's table of this game (None: none)
    history_line: HistoryLine | None = None  # its `/history` row (None: a hand's chips)
    stats_lines: StatsLines | None = None  # its `/stats` section (None: none)
    replay_dealt: DealtPicture | None = None  # `/replay`'s key moments: the asker's deal
    replay_end: EndPicture | None = None  # and how the hand or round ended

    @property
    def group(self) -> str:
        """The command group that plays it: "poker" (`/poker ...`) or "okey" (`/okey ...`)."""
        return self.session.group
