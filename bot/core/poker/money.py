"""A poker table's chips as pure functions of its data: what its escrow holds, what each player
gets back when it closes, and the result of a carried pot taken at the end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.core.table import stats as handstats
from storage import GameResult


def held(chips: Mapping[str, int], carried: int, view: dict[str, Any] | None) -> int:
    """Chips the escrow holds: behind every seat (`chips`), the carried pot, and while a hand
    runs (`view`: its public view) the engine's stacks and pot."""
    total = sum(chips.values()) + carried
    if view is not None:
        total += sum(view["stacks"]) + view["pot"]
    return total


def refunds(
    seated: Sequence[int],
    chips: Mapping[str, int],
    carried: int,
    in_hand: Sequence[int],
    view: dict[str, Any] | None,
) -> dict[int, int]:
    """Each player's chips at the table now: behind, plus their stakes in an unfinished hand
    (`view`, the hand of `in_hand`); a carried (dead) pot is shared evenly, the odd chips to
    the first seats. Players getting nothing are left out."""
    pay: dict[int, int] = {pid: chips.get(str(pid), 0) for pid in seated}
    dead = carried
    sharers = list(seated)
    if view is not None:
        for e, pid in enumerate(in_hand):
            pay[pid] = pay.get(pid, 0) + view["stacks"][e] + view["committed"][e]
        dead += view["pot"] - sum(view["committed"])
        sharers = list(in_hand)
    if dead and sharers:
        share, rest = divmod(dead, len(sharers))
        for i, pid in enumerate(sharers):
            pay[pid] = pay.get(pid, 0) + share + (1 if i < rest else 0)
    return {pid: amount for pid, amount in pay.items() if amount}


def carried_result(player_id: int, game: str, chips: int, hand_id: str) -> GameResult:
    """A carried pot (or its share) a player takes when the table ends before anyone won it:
    a result for `/history` (`detail.kind` "carried") that `/stats` and the win tallies do not
    count as a hand played or won."""
    detail = {"v": handstats.DETAIL_VERSION, "kind": handstats.CARRIED}
    return GameResult(player_id, game, chips, hand_id=hand_id, detail=detail)
