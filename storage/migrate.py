"""Drive Alembic programmatically, so migrations run from an installed package without alembic.ini."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.db import WRITE_OPTION

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
# Any fixed number: PostgreSQL processes starting together take turns to migrate.
PG_MIGRATION_LOCK = 731_905_117


def alembic_config(url: str | None = None) -> Config:
    """An Alembic Config pointing at storage/migrations (and at ``url`` when given)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def head_revision() -> str:
    """The newest migration's revision id."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Migrate the database behind ``engine`` up to ``revision`` in one transaction."""
    await _run(engine, lambda config: command.upgrade(config, revision))


async def downgrade(engine: AsyncEngine, revision: str) -> None:
    """Migrate the database behind ``engine`` down to ``revision``."""
    await _run(engine, lambda config: command.downgrade(config, revision))


async def current_revision(engine: AsyncEngine) -> str | None:
    """The revision the database is at, or None when it was never migrated."""
    async with engine.connect() as conn:
        return await conn.run_sync(
            lambda sync_conn: MigrationContext.configure(sync_conn).get_current_revision()
        )


async def _run(engine: AsyncEngine, action: object) -> None:
    async with engine.connect() as conn:
        conn = await conn.execution_options(**{WRITE_OPTION: True})
        async with conn.begin():
            if engine.dialect.name == "postgresql":
                await conn.execute(sa.text(f"SELECT pg_advisory_xact_lock({PG_MIGRATION_LOCK})"))
            await conn.run_sync(_with_connection, action)


def _with_connection(sync_conn: sa.Connection, action: object) -> None:
    config = alembic_config()
    config.attributes["connection"] = sync_conn
    action(config)  # type: ignore[operator]
