"""Seasons: a community's current season (``seasons``: number, length, start, end and the
timer every process claims) and the final standings of each finished season per game
(``season_standings``); docs/seasons.md.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

Time = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Create ``seasons`` and ``season_standings``."""
    op.create_table(
        "seasons",
        sa.Column("platform", sa.String(32), nullable=False),
        sa.Column("community", sa.String(64), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("length_days", sa.Integer(), nullable=True),
        sa.Column("started_at", Time, nullable=False),
        sa.Column("ends_at", Time, nullable=False),
        sa.Column("deadline", Time, nullable=False),
        sa.Column("channel_id", sa.String(64), nullable=True),
        sa.Column("locale", sa.String(8), nullable=True),
        sa.PrimaryKeyConstraint("platform", "community", name="pk_seasons"),
    )
    op.create_index("ix_seasons_deadline", "seasons", ["deadline"])
    op.create_table(
        "season_standings",
        sa.Column("platform", sa.String(32), nullable=False),
        sa.Column("community", sa.String(64), nullable=False),
        sa.Column("season", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("rank", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint(
            "platform", "community", "season", "game", "rank", name="pk_season_standings"
        ),
    )


def downgrade() -> None:
    """Drop both tables."""
    op.drop_table("season_standings")
    op.drop_index("ix_seasons_deadline", "seasons")
    op.drop_table("seasons")
