"""Table messages: the chat message that shows each table, shared by every bot process.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

Time = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Create ``table_messages`` (empty: each process posted its own until now)."""
    op.create_table(
        "table_messages",
        sa.Column("platform", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("chat_id", sa.String(64), nullable=False),
        sa.Column("message_id", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("picture", sa.Boolean(), nullable=False),
        sa.Column("updated_at", Time, nullable=False),
        sa.PrimaryKeyConstraint("platform", "table_id", name=op.f("pk_table_messages")),
    )


def downgrade() -> None:
    """Drop ``table_messages``."""
    op.drop_table("table_messages")
