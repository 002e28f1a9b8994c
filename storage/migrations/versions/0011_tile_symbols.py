"""Tile symbols: a player's choice to see each tile colour marked with a shape as well
(``players.tile_symbols``, ``/tiles symbols|colours`` and the web page's toggle); NULL for
players who never chose (colours only).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the nullable ``players.tile_symbols`` (every existing player: NULL, colours)."""
    op.add_column("players", sa.Column("tile_symbols", sa.Boolean(), nullable=True))


def downgrade() -> None:
    """Drop ``players.tile_symbols``."""
    if op.get_bind().dialect.name == "sqlite":  # SQLite >= 3.35 drops a column in place
        op.execute("ALTER TABLE players DROP COLUMN tile_symbols")
    else:
        op.drop_column("players", "tile_symbols")
