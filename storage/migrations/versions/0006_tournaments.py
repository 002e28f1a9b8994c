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
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("tournament_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_tables_tournament_id_tournaments", "tournaments", ["tournament_id"], ["id"]
        )
        batch.create_index("ix_tables_tournament_id", ["tournament_id"])


def downgrade() -> None:
    """Drop ``tables.tournament_id`` and ``tournaments``."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_tournament_id")
        batch.drop_constraint("fk_tables_tournament_id_tournaments", type_="foreignkey")
        batch.drop_column("tournament_id")
    op.drop_index("ix_tournaments_platform_channel_id", "tournaments")
    op.drop_index("ix_tournaments_status", "tournaments")
    op.drop_table("tournaments")
