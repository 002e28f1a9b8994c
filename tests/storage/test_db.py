"""Engine set-up and migrations: SQLite pragmas, Alembic upgrade/downgrade, schema = models."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from storage import InvalidRequest, StorageError, Store, Unavailable
from storage.migrate import current_revision, downgrade, head_revision, upgrade
from storage.models import metadata
from tests.storage.helpers import table_names


async def test_sqlite_folder_and_pragmas(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "bot.db"
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    try:
        assert path.exists()
        async with store.engine.connect() as conn:
            assert (await conn.exec_driver_sql("PRAGMA journal_mode")).scalar() == "wal"
            assert (await conn.exec_driver_sql("PRAGMA foreign_keys")).scalar() == 1
            assert (await conn.exec_driver_sql("PRAGMA busy_timeout")).scalar() > 0
    finally:
        await store.close()


async def test_in_memory_sqlite_works() -> None:
    store = await Store.open("sqlite+aiosqlite:///:memory:")
    try:
        player = await store.player("console", "ali", "Ali")
        assert (await store.get_player(player.id)).name == "Ali"
    finally:
        await store.close()


@pytest.mark.parametrize("url", ["mysql://x/y", "sqlite:///plain.db", "not a url"])
async def test_unsupported_url_is_refused(url: str) -> None:
    with pytest.raises(InvalidRequest):
        await Store.open(url)


async def test_schema_matches_models_and_migrations_round_trip(db_url: str) -> None:
    store = await Store.open(db_url)
    try:
        assert await current_revision(store.engine) == head_revision()
        async with store.engine.connect() as conn:
            diff = await conn.run_sync(
                lambda sync: compare_metadata(MigrationContext.configure(sync), metadata)
            )
        assert diff == []
        await downgrade(store.engine, "base")
        assert await table_names(store) <= {"alembic_version"}
        await upgrade(store.engine)
        assert await current_revision(store.engine) == head_revision()
    finally:
        await store.close()


async def test_open_without_migrate_leaves_schema_alone(unmigrated_url: str) -> None:
    store = await Store.open(unmigrated_url, migrate=False)
    try:
        assert await current_revision(store.engine) is None
    finally:
        await store.close()
    # Opening twice (a restart) is harmless.
    for _ in range(2):
        store = await Store.open(unmigrated_url)
        assert await current_revision(store.engine) == head_revision()
        await store.close()


def test_command_line_upgrade_and_current(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from storage.__main__ import main

    url = f"sqlite+aiosqlite:///{tmp_path}/cli/bot.db"
    assert main(["current", "--url", url]) == 0
    assert "revision none" in capsys.readouterr().out
    assert main(["upgrade", "--url", url]) == 0
    assert f"revision {head_revision()}" in capsys.readouterr().out


@pytest.mark.parametrize(
    "url",
    ["postgresql+asyncpg://nobody@127.0.0.1:1/none", "sqlite+aiosqlite:////proc/no/such/bot.db"],
)
async def test_unreachable_database_is_a_clear_storage_error(url: str) -> None:
    with pytest.raises(Unavailable, match="cannot open the database") as info:
        await Store.open(url)
    assert isinstance(info.value, StorageError)
