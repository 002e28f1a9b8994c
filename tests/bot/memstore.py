"""DEPRECATED, to be deleted: tests use the real Store on an in-memory SQLite database instead
(the `memory_store` fixture or `tests.conftest.open_memory_store()`). The last user is
tests/bot/test_core_pictures.py; once it switches, delete this file.

An in-memory stand-in for `storage.Store`, used only by tests that play thousands of games.

It keeps the storage contract's behaviour that the core relies on: compare-and-set versions,
all-or-nothing transfers that never take a non-house account below zero, idempotency keys, one
open table per channel, seeds, the action log and reset refunds. The real Store is used by the
end-to-end and restart tests.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from storage import (
    HOUSE,
    ActionEntry,
    ActionRecord,
    ChannelBusy,
    GameResult,
    InsufficientFunds,
    NotFound,
    PenaltyEntry,
    PlayerRecord,
    SeedRecord,
    StaleVersion,
    TableClosed,
    TableRecord,
    Transfer,
    escrow,
    wallet,
)


class MemStore:
    """Dictionaries behind the `Store` methods the core calls."""

    def __init__(self) -> None:
        self.players: dict[int, PlayerRecord] = {}
        self.by_user: dict[tuple[str, str], int] = {}
        self.balances: dict[str, int] = defaultdict(int)
        self.keys: set[str] = set()
        self.tables: dict[int, TableRecord] = {}
        self.log: dict[int, list[ActionRecord]] = defaultdict(list)
        self.seeds: dict[str, SeedRecord] = {}
        self.results: list[GameResult] = []
        self.penalties: dict[tuple[int, str], int] = {}
        self.commits = 0

    async def close(self) -> None:
        """Nothing to close."""

    async def player(
        self, platform: str, user_id: str, name: str, locale: str | None = None
    ) -> PlayerRecord:
        """Get or create a player."""
        pid = self.by_user.get((platform, user_id))
        if pid is None:
            pid = len(self.players) + 1
            self.by_user[(platform, user_id)] = pid
            self.players[pid] = PlayerRecord(pid, platform, user_id, name, locale)
        old = self.players[pid]
        self.players[pid] = PlayerRecord(pid, platform, user_id, name, old.locale)
        return self.players[pid]

    async def get_player(self, player_id: int) -> PlayerRecord:
        """A player by id."""
        if player_id not in self.players:
            raise NotFound(f"no player {player_id}")
        return self.players[player_id]

    async def set_locale(self, player_id: int, locale: str | None) -> None:
        """Store a player's language."""
        old = self.players[player_id]
        self.players[player_id] = PlayerRecord(old.id, old.platform, old.user_id, old.name, locale)

    async def balance(self, account: str) -> int:
        """An account's balance."""
        return self.balances[account]

    def _apply(self, transfers: Sequence[Transfer]) -> None:
        after = dict(self.balances)
        for item in transfers:
            assert item.amount > 0, item
            after[item.src] = after.get(item.src, 0) - item.amount
            after[item.dst] = after.get(item.dst, 0) + item.amount
        for account, value in after.items():
            if account != HOUSE and value < 0:
                raise InsufficientFunds(account, self.balances[account], -value)
        self.balances.update(after)

    async def transfer(
        self, src: str, dst: str, amount: int, reason: str, idempotency_key: str | None = None
    ) -> bool:
        """One transfer, applied once per key."""
        if idempotency_key is not None and idempotency_key in self.keys:
            return False
        self._apply([Transfer(src, dst, amount, reason)])
        if idempotency_key is not None:
            self.keys.add(idempotency_key)
        return True

    async def daily_grant(self, player_id: int, amount: int, day: date) -> bool:
        """House -> wallet once per player per day."""
        return await self.transfer(
            HOUSE, wallet(player_id), amount, "daily", f"daily:{player_id}:{day}"
        )

    async def create_table(
        self, platform: str, channel_id: str, game: str, options: dict, snapshot: dict
    ) -> TableRecord:
        """A new open table (one per channel)."""
        existing = await self.table_in_channel(platform, channel_id)
        if existing is not None:
            raise ChannelBusy(platform, channel_id, existing.id)
        tid = len(self.tables) + 1
        record = TableRecord(
            tid, platform, channel_id, game, options, "open", copy.deepcopy(snapshot), 1
        )
        self.tables[tid] = record
        return record

    async def table_in_channel(self, platform: str, channel_id: str) -> TableRecord | None:
        """The open table of a channel."""
        for record in self.tables.values():
            if (record.platform, record.channel_id, record.status) == (
                platform,
                channel_id,
                "open",
            ):
                return record
        return None

    async def get_table(self, table_id: int) -> TableRecord:
        """A table by id."""
        if table_id not in self.tables:
            raise NotFound(f"no table {table_id}")
        return self.tables[table_id]

    async def load_open_tables(self) -> list[TableRecord]:
        """Every open table."""
        return [copy.deepcopy(r) for r in self.tables.values() if r.status == "open"]

    async def commit(
        self,
        table_id: int,
        expected_version: int,
        snapshot: dict[str, Any],
        *,
        action: ActionEntry | None = None,
        transfers: Sequence[Transfer] = (),
        status: str | None = None,
        results: Sequence[GameResult] = (),
        penalties: Sequence[PenaltyEntry] = (),
        seeds: Sequence[SeedRecord] = (),
        idempotency_key: str | None = None,
    ) -> int:
        """Compare-and-set, snapshot, log, transfers, results: all or nothing."""
        record = self.tables[table_id]
        if record.status != "open":
            raise TableClosed(table_id)
        if record.version != expected_version:
            raise StaleVersion(table_id, expected_version, record.version)
        for seed in seeds:
            seed.validate()
        self._apply(transfers)
        version = record.version + 1
        self.tables[table_id] = TableRecord(
            record.id,
            record.platform,
            record.channel_id,
            record.game,
            record.options,
            status or record.status,
            copy.deepcopy(snapshot),
            version,
        )
        if action is not None:
            seq = len(self.log[table_id]) + 1
            self.log[table_id].append(
                ActionRecord(table_id, seq, action.seat, action.player_id, action.action, action.at)
            )
        self.results.extend(results)
        for p in penalties:
            self.penalties[(p.player_id, p.match_id)] = p.points
        for seed in seeds:
            self.seeds[seed.hand_id] = seed
        self.commits += 1
        return version

    async def actions(self, table_id: int) -> list[ActionRecord]:
        """The action log."""
        return list(self.log[table_id])

    async def seed(self, hand_id: str) -> SeedRecord | None:
        """A hand's seed record."""
        return self.seeds.get(hand_id)

    async def reset_table(
        self,
        table_id: int,
        moderator_id: int,
        reason: str,
        refunds: Mapping[int, int] | None = None,
    ) -> dict[int, int]:
        """Close a table and pay its escrow back (the given refunds must match it exactly)."""
        record = self.tables[table_id]
        held = self.balances[escrow(table_id)]
        assert refunds is not None, "the core always passes exact refunds"
        paid = {p: c for p, c in refunds.items() if c > 0}
        assert sum(paid.values()) == held, (paid, held)
        self._apply([Transfer(escrow(table_id), wallet(p), c, "reset") for p, c in paid.items()])
        self.tables[table_id] = TableRecord(
            record.id,
            record.platform,
            record.channel_id,
            record.game,
            record.options,
            "closed",
            record.snapshot,
            record.version + 1,
        )
        return paid

    async def leaderboard(self, kind: str, limit: int = 10, platform: str | None = None) -> list:
        """Top wallets or lowest Okey penalty totals."""
        people = [p for p in self.players.values() if platform is None or p.platform == platform]
        if kind == "chips":
            rows = [(p.name, self.balances[wallet(p.id)]) for p in people]
            return sorted(rows, key=lambda r: -r[1])[:limit]
        totals: dict[int, int] = defaultdict(int)
        for (pid, _), points in self.penalties.items():
            totals[pid] += points
        rows = [(p.name, totals[p.id]) for p in people if p.id in totals]
        return sorted(rows, key=lambda r: r[1])[:limit]

    def total(self) -> int:
        """Sum of every balance: zero when no chip was created or lost."""
        return sum(self.balances.values())
