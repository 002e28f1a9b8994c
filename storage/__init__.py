"""Persistence: SQLModel tables, async sessions, the chip ledger, table snapshots and the action log.

Runs on aiosqlite by default and on PostgreSQL through asyncpg; Alembic migrations own the schema.
May import `games` for types only. The API is the `Store` facade; see docs/storage.md.
"""

from storage.boards import MIN_OKEY101_ROUNDS, Okey101Standing
from storage.busy import WRITE_BUDGET_S, background_writes
from storage.community import ComputerLimit
from storage.errors import (
    Busy,
    ChannelBusy,
    CommunityFull,
    InsufficientFunds,
    InvalidRequest,
    NotFound,
    StaleVersion,
    StorageError,
    TableClosed,
    TournamentOver,
    Unavailable,
)
from storage.history import HistoryEntry, PlayerStats
from storage.ratings import MIN_OPPONENTS, RatingRecord
from storage.records import (
    COMPUTERS,
    HOUSE,
    ActionEntry,
    ActionRecord,
    GameResult,
    PenaltyEntry,
    PlayerRecord,
    SeedRecord,
    TableHead,
    TableRecord,
    TournamentRecord,
    Transfer,
    escrow,
    tournament_escrow,
    wallet,
)
from storage.seasons import SeasonRecord, Standing
from storage.store import Store
from storage.surfaces import SurfaceWrite, TableSurface

__all__ = [
    "COMPUTERS",
    "HOUSE",
    "MIN_OKEY101_ROUNDS",
    "MIN_OPPONENTS",
    "WRITE_BUDGET_S",
    "ActionEntry",
    "ActionRecord",
    "Busy",
    "ChannelBusy",
    "CommunityFull",
    "ComputerLimit",
    "GameResult",
    "HistoryEntry",
    "InsufficientFunds",
    "InvalidRequest",
    "NotFound",
    "Okey101Standing",
    "PenaltyEntry",
    "PlayerRecord",
    "PlayerStats",
    "RatingRecord",
    "SeasonRecord",
    "SeedRecord",
    "StaleVersion",
    "Standing",
    "StorageError",
    "Store",
    "SurfaceWrite",
    "TableClosed",
    "TableHead",
    "TableRecord",
    "TableSurface",
    "TournamentOver",
    "TournamentRecord",
    "Transfer",
    "Unavailable",
    "background_writes",
    "escrow",
    "tournament_escrow",
    "wallet",
]
