"""Table messages: read and compare-and-set write of the message that shows a table, shared by
every process (an older state never replaces the record of a newer one), and the migration."""

from __future__ import annotations

import asyncio

import pytest

from storage import InvalidRequest, Store
from storage.migrate import current_revision, downgrade, head_revision, upgrade


async def test_a_table_without_a_message_reads_none(store: Store) -> None:
    assert await store.table_message("telegram", "7") is None


async def test_the_first_write_is_read_back(store: Store) -> None:
    done = await store.put_table_message("telegram", 7, -100500, 41, 3, picture=True)
    assert done.written and done.other is None
    got = await store.table_message("telegram", "7")
    assert got is not None
    assert (got.platform, got.table_id, got.chat_id, got.message_id) == (
        "telegram",
        "7",
        "-100500",
        "41",
    )
    assert (got.version, got.picture) == (3, True)
    assert got.updated_at.tzinfo is not None
    # another platform's record of the same table id is its own
    assert await store.table_message("discord", "7") is None


async def test_a_newer_version_replaces_and_names_the_replaced_one(store: Store) -> None:
    await store.put_table_message("discord", "7", "600", "41", 3)
    done = await store.put_table_message("discord", "7", "600", "42", 5)
    assert done.written and done.other is not None and done.other.message_id == "41"
    got = await store.table_message("discord", "7")
    assert got is not None and (got.message_id, got.version, got.picture) == ("42", 5, False)


async def test_the_same_version_replaces(store: Store) -> None:
    await store.put_table_message("discord", "7", "600", "41", 5)
    done = await store.put_table_message("discord", "7", "600", "43", 5)  # posted again
    assert done.written
    got = await store.table_message("discord", "7")
    assert got is not None and got.message_id == "43"


async def test_an_older_version_never_replaces_a_newer_one(store: Store) -> None:
    await store.put_table_message("telegram", "7", "-1", "50", 9)
    done = await store.put_table_message("telegram", "7", "-1", "49", 8)
    assert not done.written
    assert done.other is not None and (done.other.message_id, done.other.version) == ("50", 9)
    got = await store.table_message("telegram", "7")
    assert got is not None and (got.message_id, got.version) == ("50", 9)


async def test_racing_writers_leave_the_newest(store: Store) -> None:
    writes = [store.put_table_message("telegram", "8", "-1", str(100 + v), v) for v in range(1, 9)]
    results = await asyncio.gather(*writes)
    got = await store.table_message("telegram", "8")
    assert got is not None and (got.message_id, got.version) == ("108", 8)
    assert results[-1].written


@pytest.mark.parametrize(
    "args",
    [
        ("", "7", "1", "2", 1),
        ("telegram", "", "1", "2", 1),
        ("telegram", "7", "", "2", 1),
        ("telegram", "7", "1", "", 1),
        ("telegram", "7", "1", "2", -1),
        ("telegram", "7", "1", "2", True),
        ("telegram", "7" * 65, "1", "2", 1),
    ],
)
async def test_bad_values_are_refused_and_write_nothing(store: Store, args: tuple) -> None:
    with pytest.raises(InvalidRequest):
        await store.put_table_message(*args)
    assert await store.table_message("telegram", "7") is None


async def test_migration_0003_adds_and_drops_the_table(store: Store) -> None:
    await store.put_table_message("telegram", "7", "-1", "50", 9)
    await downgrade(store.engine, "0002")
    assert await current_revision(store.engine) == "0002"
    await upgrade(store.engine)
    assert await current_revision(store.engine) == head_revision()  # 0003 and later ones
    assert await store.table_message("telegram", "7") is None  # created empty
