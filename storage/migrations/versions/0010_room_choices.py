"""Room choices: the shared room each user last opened the Discord Activity on, per platform and
channel, with the time the choice lapses (``room_choices``), so that the web sign-in of any
process finds the choice a button press made on another one.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

Time = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Create ``room_choices`` (empty) and its index on the expiry (for pruning)."""
    op.create_table(
        "room_choices",
        sa.Column("platform", sa.String(32), nullable=False),
        sa.Column("channel_id", sa.String(64), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("room", sa.String(64), nullable=False),
        sa.Column("expires_at", Time, nullable=False),
        sa.PrimaryKeyConstraint("platform", "channel_id", "user_id", name=op.f("pk_room_choices")),
    )
    op.create_index("ix_room_choices_expires_at", "room_choices", ["expires_at"])


def downgrade() -> None:
    """Drop ``room_choices``."""
    op.drop_index("ix_room_choices_expires_at", "room_choices")
    op.drop_table("room_choices")
