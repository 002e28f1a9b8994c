"""Small SQL helpers shared by the storage modules (dialect-specific upserts, time values)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection


def upsert(conn: sa.Connection | AsyncConnection, table: sa.Table) -> Any:
    """An INSERT that supports ``on_conflict_do_nothing/do_update`` on the connection's dialect."""
    if conn.dialect.name == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)


def aware(value: datetime) -> datetime:
    """``value`` with UTC attached when the database returned it naive (SQLite does)."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)
