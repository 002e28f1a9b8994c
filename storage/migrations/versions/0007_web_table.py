"""The web table: ``web_secrets`` (a signing key the bot generated, shared by every process) and
``rack_layouts`` (each Okey player's rack arrangement on the web table, per table and round).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

Json = sa.JSON().with_variant(JSONB(), "postgresql")
Time = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Create ``web_secrets`` and ``rack_layouts`` (both empty)."""
    op.create_table(
        "web_secrets",
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("value", sa.String(128), nullable=False),
        sa.Column("created_at", Time, nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_web_secrets")),
    )
    op.create_table(
        "rack_layouts",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.String(64), nullable=False),
        sa.Column("slots", Json, nullable=False),
        sa.Column("updated_at", Time, nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_rack_layouts_table_id_tables")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_rack_layouts_player_id_players")
        ),
        sa.PrimaryKeyConstraint("table_id", "player_id", name=op.f("pk_rack_layouts")),
    )


def downgrade() -> None:
    """Drop ``rack_layouts`` and ``web_secrets``."""
    op.drop_table("rack_layouts")
    op.drop_table("web_secrets")
