"""What a tile table (`bot.core.okey.tile_session.TileSession`) needs of its match
(`TileMatchLike`: `games.okey.OkeyMatch`, `games.okey101.Match101`) and a tournament table's
standing worked out from a match's figures (`standing`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, Self, TypeVar

from bot.core.table.session import TableOutcome
from games.base import Action, Event
from games.okey.common import TileRound


class TileMatchLike(Protocol):
    """What a tile table needs of its match (`games.okey.OkeyMatch`, `games.okey101.Match101`)."""

    players: list[str]
    options: dict[str, Any]
    history: list[dict[str, Any]]
    round: Any  # the game's own round, or None between rounds

    @classmethod
    def new(cls, players: Sequence[str], options: Mapping[str, Any] | None = None) -> Self:
        """A new match of these players."""
        ...

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Rebuild a match from `to_dict` output."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot."""
        ...

    @property
    def totals(self) -> list[int]:
        """Each player's match total."""
        ...

    @property
    def finished(self) -> bool:
        """True when the match is over."""
        ...

    def start_round(self, seed: bytes) -> list[Event]:
        """Deal the next round."""
        ...

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Play a move in the current round."""
        ...

    def payout(self, pool: int) -> list[int]:
        """Each player's share of `pool` at the match's end."""
        ...

    def places(self) -> list[int]:
        """Each seat's final place, 1 the best (ties share): the ratings' order."""
        ...

    def seat_sides(self) -> list[int]:
        """Each seat's scoring side (101 partners share one): the ratings' teams."""
        ...

    def winners(self) -> list[int]:
        """The seats that won the ended match (ties share)."""
        ...


MatchT = TypeVar("MatchT", bound=TileMatchLike)
RoundT = TypeVar("RoundT", bound=TileRound)


def standing(
    players: list[int],
    points: list[int],
    history: list[dict[str, Any]],
    forfeited: list[bool],
    draw: list[int],
) -> TableOutcome:
    """The running standing of a tournament table's `players` (player ids in engine seat order,
    each with their `points`, lower is better, and whether they `forfeited`): a player who
    forfeited ranks after everyone still in, then lowest points, then most finishes in the
    match's `history`, then the tournament's fair `draw` (player ids, best first)."""
    figures: dict[int, dict[str, int]] = {}
    for index, pid in enumerate(players):
        figures[pid] = {
            "penalty": points[index],
            "finishes": sum(1 for h in history if h.get("winner") == index),
            "forfeit": int(forfeited[index]),
        }

    def key(pid: int) -> tuple[int, int, int, int]:
        f = figures[pid]
        drawn = draw.index(pid) if pid in draw else len(draw) + pid
        return (f["forfeit"], f["penalty"], -f["finishes"], drawn)

    return TableOutcome(False, sorted(players, key=key), figures)
