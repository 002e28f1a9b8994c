"""Communities: the Discord server or Telegram group a table plays in, kept with its results and
Okey penalties for community leaderboards; and the indexes of players' histories and statistics.

Rows of before this revision keep a null community (nobody knows it any more): they count on the
global boards only.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WON = sa.text("chips_delta > 0")
COMMUNITY_TABLES = ("tables", "game_results", "okey_penalties")


def upgrade() -> None:
    """Add the nullable ``community`` columns and the history and board indexes."""
    for table in COMMUNITY_TABLES:
        op.add_column(table, sa.Column("community", sa.String(64), nullable=True))
    op.create_index("ix_game_results_player_id_at", "game_results", ["player_id", "at"])
    op.create_index(
        "ix_game_results_player_id_game_at", "game_results", ["player_id", "game", "at"]
    )
    # (player_id, at) starts with player_id: the single-column index only cost writes
    op.drop_index("ix_game_results_player_id", "game_results")
    op.create_index(
        "ix_game_results_community_player_id", "game_results", ["community", "player_id"]
    )
    op.create_index(
        "ix_game_results_community_wins",
        "game_results",
        ["community", "player_id"],
        sqlite_where=WON,
        postgresql_where=WON,
    )
    op.create_index(
        "ix_game_results_wins",
        "game_results",
        ["player_id"],
        sqlite_where=WON,
        postgresql_where=WON,
    )
    op.create_index(
        "ix_okey_penalties_community_player_id",
        "okey_penalties",
        ["community", "player_id", "points"],
    )
    op.create_index("ix_okey_penalties_player_id_points", "okey_penalties", ["player_id", "points"])


def downgrade() -> None:
    """Drop the indexes and the ``community`` columns (the single player index comes back)."""
    op.drop_index("ix_okey_penalties_player_id_points", "okey_penalties")
    op.drop_index("ix_okey_penalties_community_player_id", "okey_penalties")
    op.drop_index("ix_game_results_wins", "game_results")
    op.drop_index("ix_game_results_community_wins", "game_results")
    op.drop_index("ix_game_results_community_player_id", "game_results")
    op.create_index("ix_game_results_player_id", "game_results", ["player_id"])
    op.drop_index("ix_game_results_player_id_game_at", "game_results")
    op.drop_index("ix_game_results_player_id_at", "game_results")
    sqlite = op.get_bind().dialect.name == "sqlite"
    for table in reversed(COMMUNITY_TABLES):
        if sqlite:  # SQLite >= 3.35 drops a column in place
            op.execute(f"ALTER TABLE {table} DROP COLUMN community")
        else:
            op.drop_column(table, "community")
