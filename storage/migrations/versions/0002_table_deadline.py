"""Tables get a deadline: when their timer is next due (turn time-out or idle close).

Open tables of 0001 get it from their snapshot: the turn deadline when a player is to act, else
for a table still waiting for players its last change plus the default idle time (900 s).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

Time = sa.DateTime(timezone=True)
IDLE_CLOSE = timedelta(seconds=900)  # the default IDLE_CLOSE_SECONDS when this was written


def upgrade() -> None:
    """Add the nullable, indexed ``tables.deadline`` and fill it in for open tables."""
    op.add_column("tables", sa.Column("deadline", Time, nullable=True))
    op.create_index("ix_tables_deadline", "tables", ["deadline"])
    rows = sa.table(
        "tables",
        sa.column("id", sa.Integer()),
        sa.column("status", sa.String()),
        sa.column("snapshot", sa.JSON()),
        sa.column("deadline", Time),
    )
    bind = op.get_bind()
    found = bind.execute(sa.select(rows.c.id, rows.c.snapshot).where(rows.c.status == "open"))
    for table_id, snapshot in found.all():
        due = snapshot_deadline(snapshot)
        if due is not None:
            bind.execute(sa.update(rows).where(rows.c.id == table_id).values(deadline=due))


def snapshot_deadline(snapshot: Any) -> datetime | None:
    """When an open table's timer is due, as its snapshot tells (UTC), or None."""
    if isinstance(snapshot, str):  # JSON as text, should a driver hand it over undecoded
        snapshot = json.loads(snapshot)
    if not isinstance(snapshot, dict):
        return None
    if snapshot.get("deadline"):
        return _utc(datetime.fromisoformat(snapshot["deadline"]))
    if snapshot.get("phase") == "waiting" and snapshot.get("touched"):
        return _utc(datetime.fromisoformat(snapshot["touched"])) + IDLE_CLOSE
    return None


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def downgrade() -> None:
    """Drop ``tables.deadline``."""
    op.drop_index("ix_tables_deadline", "tables")
    if op.get_bind().dialect.name == "sqlite":  # SQLite >= 3.35 drops a column in place
        op.execute("ALTER TABLE tables DROP COLUMN deadline")
    else:
        op.drop_column("tables", "deadline")
