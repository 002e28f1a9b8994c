"""The tallies the boards read instead of the results, per player and community.

- win tallies: each player's count of won results (``chips_delta > 0``); a carried pot taken
  when a table ends (``detail.kind`` "carried") is no win.
- 101 tallies: each player's 101 Okey rounds (results of game ``okey101`` whose ``detail.kind``
  is "round") and their scores (``detail.penalty``) added up, for the 101 board's average.

``record_tallies`` runs inside ``Store.commit``'s transaction, right after the results are
inserted, so a tally always equals a recount of the committed results (docs/storage.md,
"Leaderboards").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from storage.history import CARRIED, ROUND
from storage.models import NO_COMMUNITY, okey101_tallies, win_tallies
from storage.records import GameResult
from storage.sql import upsert

OKEY101 = "okey101"

_UPSERTS: dict[tuple[str, str], Any] = {}


def _adding_upsert(conn: sa.Connection, table: sa.Table, counts: tuple[str, ...]) -> Any:
    """``INSERT ... ON CONFLICT (player_id, community) DO UPDATE SET n = n + excluded.n`` for
    each of the ``counts`` columns, built once per dialect and table (the compiled-statement
    cache then only looks its key up)."""
    key = (conn.dialect.name, table.name)
    if key not in _UPSERTS:
        stmt = upsert(conn, table).values(
            player_id=sa.bindparam("player_id"),
            community=sa.bindparam("community"),
            **{name: sa.bindparam(name) for name in counts},
        )
        _UPSERTS[key] = stmt.on_conflict_do_update(
            index_elements=["player_id", "community"],
            set_={name: table.c[name] + stmt.excluded[name] for name in counts},
        )
    return _UPSERTS[key]


def record_tallies(
    conn: sa.Connection, results: Sequence[GameResult], community: str | None
) -> None:
    """Add ``results`` to their players' win and 101 tallies in ``community`` (None: the tallies
    of results without a community); writes nothing for a tally no result adds to."""
    key = NO_COMMUNITY if community is None else community
    record_wins(conn, results, key)
    record_okey101_rounds(conn, results, key)


def record_wins(conn: sa.Connection, results: Sequence[GameResult], key: str) -> None:
    """Add the won ``results`` to their players' win tallies under the community ``key``."""
    won = Counter(
        r.player_id for r in results if r.chips_delta > 0 and r.detail.get("kind") != CARRIED
    )
    if not won:
        return
    # player id order: concurrent commits lock shared tally rows in the same order
    rows = [{"player_id": p, "community": key, "wins": n} for p, n in sorted(won.items())]
    conn.execute(_adding_upsert(conn, win_tallies, ("wins",)), rows)


def record_okey101_rounds(conn: sa.Connection, results: Sequence[GameResult], key: str) -> None:
    """Add the 101 round ``results`` (count and score) to their players' 101 tallies under the
    community ``key``."""
    rounds: Counter[int] = Counter()
    penalty: Counter[int] = Counter()
    for r in results:
        if r.game == OKEY101 and r.detail.get("kind") == ROUND:
            rounds[r.player_id] += 1
            penalty[r.player_id] += int(r.detail.get("penalty", 0))
    if not rounds:
        return
    rows = [
        {"player_id": p, "community": key, "rounds": n, "penalty": penalty[p]}
        for p, n in sorted(rounds.items())
    ]
    conn.execute(_adding_upsert(conn, okey101_tallies, ("rounds", "penalty")), rows)
