"""Tournaments: the ``tournaments`` table (state snapshot, version, status) and the nullable
``tables.tournament_id`` that ties a tournament's tables to it, so that a tournament finds its
tables again after a restart. Entry fees live in the ledger account ``tournament:<id>`` (no
schema: a wallet row with neither a player nor a table).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

Json = sa.JSON().with_variant(JSONB(), "postgresql")
Time = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Create ``tournaments`` and add ``tables.tournament_id``."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(32), nullable=False),
        sa.Column("channel_id", sa.String(64), nullable=False),
        sa.Column("community", sa.String(64), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("snapshot", Json, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("deadline", Time, nullable=True),
        sa.Column("created_at", Time, nullable=False),
        sa.Column("updated_at", Time, nullable=False),
        sa.CheckConstraint(
            "status IN ('registering', 'running', 'finished', 'cancelled')",
            name=op.f("ck_tournaments_status"),
        ),
        sa.CheckConstraint("kind IN ('okey', 'turkish', 'acik')", name=op.f("ck_tournaments_kind")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_index("ix_tournaments_platform_channel_id", "tournaments", ["platform", "channel_id"])
    # a plain indexed column (no foreign key, like `community`): SQLite adds and drops it in
    # place, where a batch copy of `tables` would drop the table the action log points at
    op.add_column("tables", sa.Column("tournament_id", sa.Integer(), nullable=True))
    op.create_index("ix_tables_tournament_id", "tables", ["tournament_id"])


def downgrade() -> None:
    """Drop ``tables.tournament_id`` and ``tournaments``."""
    op.drop_index("ix_tables_tournament_id", "tables")
    if op.get_bind().dialect.name == "sqlite":  # SQLite >= 3.35 drops a column in place
        op.execute("ALTER TABLE tables DROP COLUMN tournament_id")
    else:
        op.drop_column("tables", "tournament_id")
    op.drop_index("ix_tournaments_platform_channel_id", "tournaments")
    op.drop_index("ix_tournaments_status", "tournaments")
    op.drop_table("tournaments")
