"""Win tallies: each player's count of won results per community, kept by ``Store.commit``, so
the wins boards read one row per player and community instead of counting ``game_results``.

The tally is filled from the results already stored. Results without a community are counted
under the community '' (a primary key column cannot be null). The two partial indexes of 0004
that counted wins in ``game_results`` served only the wins boards: they go.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WON = sa.text("chips_delta > 0")

# benchmarks/bench_history.py runs this too, after its bulk fill (it loads this file).
BACKFILL = (
    "INSERT INTO win_tallies (player_id, community, wins)"
    " SELECT player_id, coalesce(community, ''), count(*) FROM game_results"
    " WHERE chips_delta > 0 GROUP BY player_id, coalesce(community, '')"
)


def upgrade() -> None:
    """Create ``win_tallies``, fill it from ``game_results`` and drop the wins partial indexes."""
    op.create_table(
        "win_tallies",
        sa.Column("player_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("community", sa.String(64), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_win_tallies_player_id_players")
        ),
        sa.PrimaryKeyConstraint("player_id", "community", name=op.f("pk_win_tallies")),
    )
    op.execute(BACKFILL)
    op.create_index("ix_win_tallies_community_wins", "win_tallies", ["community", "wins"])
    op.drop_index("ix_game_results_wins", "game_results")
    op.drop_index("ix_game_results_community_wins", "game_results")


def downgrade() -> None:
    """Bring back the wins partial indexes of 0004 and drop ``win_tallies``."""
    op.create_index(
        "ix_game_results_community_wins",
        "game_results",
        ["community", "player_id"],
        sqlite_where=WON,
        postgresql_where=WON,
    )
    op.create_index(
        "ix_game_results_wins",
        "game_results",
        ["player_id"],
        sqlite_where=WON,
        postgresql_where=WON,
    )
    op.drop_index("ix_win_tallies_community_wins", "win_tallies")
    op.drop_table("win_tallies")
