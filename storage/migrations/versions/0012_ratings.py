"""Skill ratings: each player's openskill rating (``mu``, ``sigma``, games rated) per game and
community, plus a global row per game (community ``*``), kept by ``Store.commit`` with the
rated results; and ``rating_opponents``, the first distinct people each player met in a game,
for the alt-account rule (docs/ratings.md). Nothing is backfilled: ratings start with the
results committed after this migration.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create ``ratings`` with its board index, and ``rating_opponents``."""
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("community", sa.String(64), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("conservative", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_ratings_player_id_players")
        ),
        sa.PrimaryKeyConstraint("player_id", "game", "community", name=op.f("pk_ratings")),
    )
    op.create_index(
        "ix_ratings_game_community_conservative",
        "ratings",
        ["game", "community", "conservative", "player_id"],
    )
    op.create_table(
        "rating_opponents",
        sa.Column("player_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("opponent_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_rating_opponents_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["opponent_id"], ["players.id"], name=op.f("fk_rating_opponents_opponent_id_players")
        ),
        sa.PrimaryKeyConstraint(
            "player_id", "game", "opponent_id", name=op.f("pk_rating_opponents")
        ),
    )


def downgrade() -> None:
    """Drop ``rating_opponents`` and ``ratings``."""
    op.drop_table("rating_opponents")
    op.drop_index("ix_ratings_game_community_conservative", "ratings")
    op.drop_table("ratings")
