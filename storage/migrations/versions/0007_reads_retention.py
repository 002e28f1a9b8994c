"""Cheaper reads and retention: an index on ``players (platform, lower(name))`` for ``/stats
<name>`` (``find_players``), ``hand_seeds.deal_seq`` (the action log entry that dealt the hand,
so ``/replay`` reads that hand's entries by the ``(table_id, seq)`` key instead of the table's
whole log) and ``tables.pruned_at`` (when retention removed a closed table's action log and
snapshot, ``storage/retention.py``), with an index on ``(status, updated_at)`` to find the
closed tables retention is due for.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

Time = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Add the name index, ``hand_seeds.deal_seq``, ``tables.pruned_at`` and its index."""
    op.create_index(
        "ix_players_platform_lower_name", "players", ["platform", sa.text("lower(name)")]
    )
    # plain nullable columns: SQLite adds and drops them in place (no batch copy of `tables`)
    op.add_column("hand_seeds", sa.Column("deal_seq", sa.Integer(), nullable=True))
    op.add_column("tables", sa.Column("pruned_at", Time, nullable=True))
    op.create_index("ix_tables_status_updated_at", "tables", ["status", "updated_at"])


def downgrade() -> None:
    """Drop what ``upgrade`` added."""
    op.drop_index("ix_tables_status_updated_at", "tables")
    sqlite = op.get_bind().dialect.name == "sqlite"
    for table, column in (("tables", "pruned_at"), ("hand_seeds", "deal_seq")):
        if sqlite:  # SQLite >= 3.35 drops a column in place
            op.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        else:
            op.drop_column(table, column)
    op.drop_index("ix_players_platform_lower_name", "players")
