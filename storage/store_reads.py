"""The Store's read-only queries: history, statistics, leaderboards, the chip audit and the
community counts (``Store`` inherits them; docs/storage.md)."""

from __future__ import annotations

from collections.abc import Sequence

from storage import audit as audit_ops
from storage import community as community_ops
from storage import history as history_ops
from storage import validators as check
from storage.boards import (
    BOARDS,
    MIN_OKEY101_ROUNDS,
    Board,
    Okey101Standing,
    board_query,
    okey101_query,
)
from storage.errors import InvalidRequest
from storage.history import HistoryEntry, PlayerStats
from storage.records import PlayerRecord, TableRecord
from storage.store_base import StoreBase


class StoreReads(StoreBase):
    """Reads over indexed rows; none of them writes."""

    # -- history and statistics --------------------------------------------------------------

    async def history(
        self, player_id: int, games: Sequence[str] | None = None, limit: int = 10
    ) -> list[HistoryEntry]:
        """The player's newest ``limit`` results (hands, Okey rounds and matches) in ``games``
        (every game when None), newest first; an index range read, never a scan."""
        check.positive_int(player_id, "player id")
        check.positive_int(limit, "limit")
        return await self._writer.reading(
            lambda conn: history_ops.recent(conn, player_id, games, limit)
        )

    async def player_stats(self, player_id: int, game: str) -> PlayerStats:
        """The player's statistics in ``game`` (turkish, acik or okey), added up by the
        database over every stored result of theirs in it (docs/storage.md)."""
        check.positive_int(player_id, "player id")
        game = check.stats_game(game)
        return await self._writer.reading(
            lambda conn: history_ops.player_stats(conn, player_id, game)
        )

    async def chip_history(
        self, player_id: int, games: Sequence[str] | None = None, limit: int = 100
    ) -> list[int]:
        """The chip results of the player's last ``limit`` hands or Okey matches, oldest first."""
        check.positive_int(player_id, "player id")
        check.positive_int(limit, "limit")
        return await self._writer.reading(
            lambda conn: history_ops.chip_history(conn, player_id, games, limit)
        )

    async def find_players(self, platform: str, text: str) -> list[PlayerRecord]:
        """Players of ``platform`` known by this user id or name (case-insensitive; the user id
        match first); read only."""
        platform = check.text(platform, "platform", 32)
        text = check.text(text, "player", 100)
        found = await self._writer.reading(
            lambda conn: history_ops.find_players(conn, platform, text)
        )
        return [PlayerRecord(i, platform, u, n, None) for i, u, n in found]

    # -- boards and checks -------------------------------------------------------------------

    async def leaderboard(
        self,
        kind: Board,
        limit: int = 10,
        platform: str | None = None,
        community: str | None = None,
    ) -> list[tuple[str, int]]:
        """Top ``(name, value)`` rows: most chips in the wallet, fewest Okey penalty points over
        all matches, or most wins (hands and matches that ended with more chips than they began).
        ``platform``: its players only; ``community``: its players, matches and wins only."""
        check.limit(limit)
        if kind not in BOARDS:
            raise InvalidRequest(f"unknown leaderboard {kind!r}: use one of {', '.join(BOARDS)}")
        if community is not None:
            community = check.text(str(community), "community", 64)
        stmt = board_query(kind, limit, platform, community)
        rows = await self._writer.reading(lambda conn: conn.execute(stmt))
        return [(name, int(total)) for name, total in rows]

    async def okey101_board(
        self,
        limit: int = 10,
        platform: str | None = None,
        community: str | None = None,
        min_rounds: int = MIN_OKEY101_ROUNDS,
    ) -> list[Okey101Standing]:
        """The 101 Okey board: players with at least ``min_rounds`` rounds, lowest average score
        per round first (more rounds first at an equal average, then the lower player id).
        ``platform``: its players only; ``community``: the rounds played there only."""
        check.limit(limit)
        if community is not None:
            community = check.text(str(community), "community", 64)
        stmt = okey101_query(limit, platform, community, max(1, min_rounds))
        rows = await self._writer.reading(lambda conn: conn.execute(stmt))
        return [Okey101Standing(name, int(n), int(total)) for name, n, total in rows]

    async def audit(self) -> list[str]:
        """Check the chip invariants; returns one line per problem (an empty list when sound).

        Each cached balance equals the sum of its ledger entries, none but the house is negative,
        all balances add up to zero (what the house issued is held by the others), and a
        finished or cancelled tournament holds no chips (its fees were paid out or refunded).
        """
        return await self._writer.reading(lambda conn: audit_ops.audit(conn))

    async def house_report(self) -> list[audit_ops.HouseFlows]:
        """The house accounts (``HOUSE``, ``COMPUTERS``): each one's balance and the chips it
        paid out and took in, by reason (``python -m storage audit`` prints them)."""
        return await self._writer.reading(lambda conn: audit_ops.house_report(conn))

    async def community_tables(self, platform: str, community: str) -> list[TableRecord]:
        """The open tables of a community that play no tournament (what its limits count)."""
        community = check.text(str(community), "community", 64)
        return await self._writer.reading(
            lambda conn: community_ops.open_tables(conn, platform, community)
        )

    async def community_table_count(self, platform: str, community: str) -> int:
        """How many open tables a community has outside tournaments."""
        community = check.text(str(community), "community", 64)
        return await self._writer.reading(
            lambda conn: community_ops.open_count(conn, platform, community)
        )

    async def community_tournaments(self, platform: str, community: str) -> int:
        """How many tournaments of a community are registering or running."""
        community = check.text(str(community), "community", 64)
        return await self._writer.reading(
            lambda conn: community_ops.live_tournaments(conn, platform, community)
        )
