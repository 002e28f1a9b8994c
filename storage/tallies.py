"""The win tallies: each player's count of won results (``chips_delta > 0``) per community; a
carried pot taken when a table ends (``detail.kind`` "carried") is no win.

``record_wins`` runs inside ``Store.commit``'s transaction, right after the results are inserted,
so a tally always equals a recount of the committed results (docs/storage.md, "Leaderboards").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from storage.history import CARRIED
from storage.models import NO_COMMUNITY, win_tallies
from storage.records import GameResult
from storage.sql import upsert

_UPSERTS: dict[str, Any] = {}


def _upsert(conn: sa.Connection) -> Any:
    """``INSERT ... ON CONFLICT (player_id, community) DO UPDATE SET wins = wins + excluded``,
    built once per dialect (the compiled-statement cache then only looks its key up)."""
    name = conn.dialect.name
    if name not in _UPSERTS:
        stmt = upsert(conn, win_tallies).values(
            player_id=sa.bindparam("player_id"),
            community=sa.bindparam("community"),
            wins=sa.bindparam("wins"),
        )
        _UPSERTS[name] = stmt.on_conflict_do_update(
            index_elements=["player_id", "community"],
            set_={"wins": win_tallies.c.wins + stmt.excluded.wins},
        )
    return _UPSERTS[name]


def record_wins(conn: sa.Connection, results: Sequence[GameResult], community: str | None) -> None:
    """Add the won ``results`` to their players' tallies in ``community`` (None: the tally of
    results without a community); writes nothing when no result won."""
    won = Counter(
        r.player_id for r in results if r.chips_delta > 0 and r.detail.get("kind") != CARRIED
    )
    if not won:
        return
    key = NO_COMMUNITY if community is None else community
    # player id order: concurrent commits lock shared tally rows in the same order
    rows = [{"player_id": p, "community": key, "wins": n} for p, n in sorted(won.items())]
    conn.execute(_upsert(conn), rows)
