"""A finished hand as the store keeps it, played again (`StoredHand`).

A leaf: it imports no other module of `bot.core.players`, so `replay` (which loads hands),
`proofs` (which proves their cards) and `verify` all build on it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games import history


@dataclass(frozen=True)
class StoredHand:
    """A finished hand as the store keeps it, played again: its id, table, platform, when it
    was dealt, its seed, and every step with every event (hidden ones included: filter with
    `games.history.visible` before showing anything). `kept`: the numbers of the steps whose
    move the computer made for a kept seat (`bot.core.table.kept`)."""

    hand_id: str
    table_id: int
    platform: str
    community: str | None
    at: datetime
    seed: bytes
    played: history.Played
    kept: frozenset[int] = frozenset()

    def viewer(self, player_id: int) -> int | None:
        """The engine seat `player_id` played in this hand, or None when they did not."""
        players = self.played.setup.players
        return players.index(str(player_id)) if str(player_id) in players else None
