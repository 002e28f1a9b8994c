"""Initial schema: players, wallets, ledger, tables, action log, results, penalties, seeds.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Json = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
Time = sa.DateTime(timezone=True)
OPEN = sa.text("status = 'open'")


def upgrade() -> None:
    """Create every table of the first release."""
    op.create_table(
        "applied_keys",
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("result", sa.Integer(), nullable=True),
        sa.Column("created_at", Time, nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_applied_keys")),
    )
    op.create_table(
        "ledger",
        sa.Column("id", BigId, nullable=False),
        sa.Column("src", sa.String(40), nullable=False),
        sa.Column("dst", sa.String(40), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("idempotency_key", sa.String(200), nullable=True),
        sa.Column("created_at", Time, nullable=False),
        sa.CheckConstraint("amount > 0", name=op.f("ck_ledger_amount_positive")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger")),
    )
    op.create_index(op.f("ix_ledger_dst"), "ledger", ["dst"])
    op.create_index(op.f("ix_ledger_src"), "ledger", ["src"])
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(32), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("locale", sa.String(16), nullable=True),
        sa.Column("created_at", Time, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("platform", "user_id", name=op.f("uq_players_platform_user_id")),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(32), nullable=False),
        sa.Column("channel_id", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", Json, nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("snapshot", Json, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("last_seq", sa.Integer(), nullable=False),
        sa.Column("created_at", Time, nullable=False),
        sa.Column("updated_at", Time, nullable=False),
        sa.CheckConstraint("status IN ('open', 'closed')", name=op.f("ck_tables_status")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tables")),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_index(
        "uq_tables_open_channel",
        "tables",
        ["platform", "channel_id"],
        unique=True,
        sqlite_where=OPEN,
        postgresql_where=OPEN,
    )
    op.create_table(
        "action_log",
        sa.Column("id", BigId, nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("action", Json, nullable=False),
        sa.Column("at", Time, nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_action_log_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_action_log_table_id_tables")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_action_log")),
        sa.UniqueConstraint("table_id", "seq", name=op.f("uq_action_log_table_id_seq")),
    )
    op.create_table(
        "game_results",
        sa.Column("id", BigId, nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("chips_delta", sa.BigInteger(), nullable=False),
        sa.Column("hand_id", sa.String(64), nullable=True),
        sa.Column("detail", Json, nullable=False),
        sa.Column("at", Time, nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_game_results_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_game_results_table_id_tables")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_results")),
    )
    op.create_index(op.f("ix_game_results_player_id"), "game_results", ["player_id"])
    op.create_table(
        "hand_seeds",
        sa.Column("hand_id", sa.String(64), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seed_hash", sa.String(64), nullable=False),
        sa.Column("seed_hex", sa.String(256), nullable=True),
        sa.Column("created_at", Time, nullable=False),
        sa.Column("revealed_at", Time, nullable=True),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_hand_seeds_table_id_tables")
        ),
        sa.PrimaryKeyConstraint("hand_id", name=op.f("pk_hand_seeds")),
    )
    op.create_index(op.f("ix_hand_seeds_table_id"), "hand_seeds", ["table_id"])
    op.create_table(
        "okey_penalties",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(64), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("updated_at", Time, nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_okey_penalties_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_okey_penalties_table_id_tables")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_okey_penalties")),
        sa.UniqueConstraint(
            "player_id", "match_id", name=op.f("uq_okey_penalties_player_id_match_id")
        ),
    )
    op.create_table(
        "wallets",
        sa.Column("account", sa.String(40), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("table_id", sa.Integer(), nullable=True),
        sa.Column("balance", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", Time, nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_wallets_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_wallets_table_id_tables")
        ),
        sa.PrimaryKeyConstraint("account", name=op.f("pk_wallets")),
    )
    op.create_index(op.f("ix_wallets_player_id"), "wallets", ["player_id"], unique=True)
    op.create_index(op.f("ix_wallets_table_id"), "wallets", ["table_id"], unique=True)


def downgrade() -> None:
    """Drop every table (all data is lost)."""
    for name in (
        "wallets",
        "okey_penalties",
        "hand_seeds",
        "game_results",
        "action_log",
        "tables",
        "players",
        "ledger",
        "applied_keys",
    ):
        op.drop_table(name)
