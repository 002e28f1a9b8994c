"""101 tallies: each player's 101 Okey rounds and their scores added up, per community, kept by
``Store.commit``, so the 101 board (average score per round) reads one row per player and
community instead of the round results.

The tally is filled from the round results already stored (``game_results`` of game
``okey101`` whose ``detail.kind`` is "round"). Results without a community count under the
community '' (a primary key column cannot be null), as in ``win_tallies``.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

Json = sa.JSON().with_variant(JSONB(), "postgresql")
RESULTS = sa.table(
    "game_results",
    sa.column("player_id", sa.Integer()),
    sa.column("community", sa.String()),
    sa.column("game", sa.String()),
    sa.column("detail", Json),
)
TALLIES = sa.table(
    "okey101_tallies",
    sa.column("player_id", sa.Integer()),
    sa.column("community", sa.String()),
    sa.column("rounds", sa.Integer()),
    sa.column("penalty", sa.BigInteger()),
)


def backfill() -> sa.Insert:
    """``INSERT INTO okey101_tallies SELECT`` the stored 101 rounds, counted and added up per
    player and community (JSON read as each dialect reads it)."""
    community = sa.func.coalesce(RESULTS.c.community, "")
    detail = RESULTS.c.detail
    rounds = sa.select(
        RESULTS.c.player_id,
        community,
        sa.func.count(),
        sa.func.sum(sa.func.coalesce(detail["penalty"].as_integer(), 0)),
    ).where(RESULTS.c.game == "okey101", detail["kind"].as_string() == "round")
    grouped = rounds.group_by(RESULTS.c.player_id, community)
    return TALLIES.insert().from_select(["player_id", "community", "rounds", "penalty"], grouped)


def upgrade() -> None:
    """Create ``okey101_tallies`` and fill it from ``game_results``."""
    op.create_table(
        "okey101_tallies",
        sa.Column("player_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("community", sa.String(64), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("penalty", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_okey101_tallies_player_id_players")
        ),
        sa.PrimaryKeyConstraint("player_id", "community", name=op.f("pk_okey101_tallies")),
    )
    op.execute(backfill())
    op.create_index(
        "ix_okey101_tallies_community_rounds",
        "okey101_tallies",
        ["community", "rounds", "penalty"],
    )


def downgrade() -> None:
    """Drop ``okey101_tallies``."""
    op.drop_index("ix_okey101_tallies_community_rounds", "okey101_tallies")
    op.drop_table("okey101_tallies")
