"""Table deadlines: every commit writes one, processes claim due tables once, table heads, and the
migration that adds the column to a database with open tables in it."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta, timezone

import pytest
import sqlalchemy as sa

from storage import InvalidRequest, Store, TableHead
from storage.migrate import current_revision, downgrade, head_revision, upgrade
from storage.models import tables
from tests.storage.helpers import funded_player

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


async def stored_deadline(store: Store, table_id: int) -> datetime | None:
    async with store.engine.connect() as conn:
        value = await conn.scalar(sa.select(tables.c.deadline).where(tables.c.id == table_id))
    return None if value is None else value.replace(tzinfo=value.tzinfo or UTC)


async def test_create_commit_and_reset_write_the_deadline(store: Store) -> None:
    table = await store.create_table("discord", "c", "okey", {}, {}, deadline=T0)
    assert await stored_deadline(store, table.id) == T0
    # another time zone is stored as the same instant
    later = (T0 + timedelta(seconds=60)).astimezone(timezone(timedelta(hours=3)))
    await store.commit(table.id, 1, {"n": 1}, deadline=later)
    assert await stored_deadline(store, table.id) == T0 + timedelta(seconds=60)
    await store.commit(table.id, 2, {"n": 2})  # no timer now
    assert await stored_deadline(store, table.id) is None
    await store.commit(table.id, 3, {"n": 3}, deadline=T0)
    moderator = await funded_player(store, "mod", 0)
    await store.reset_table(table.id, moderator, "test")
    assert await stored_deadline(store, table.id) is None


async def test_a_deadline_must_be_aware(store: Store) -> None:
    table = await store.create_table("discord", "c", "okey", {}, {})
    with pytest.raises(InvalidRequest, match="aware"):
        await store.commit(table.id, 1, {}, deadline=datetime(2026, 3, 1, 12, 0))
    with pytest.raises(InvalidRequest, match="aware"):
        await store.create_table("discord", "d", "okey", {}, {}, deadline="soon")  # type: ignore[arg-type]
    assert (await store.get_table(table.id)).version == 1


async def test_table_heads(store: Store) -> None:
    table = await store.create_table("telegram", -100, "turkish", {}, {"big": "x" * 100})
    head = TableHead(table.id, "telegram", "-100", "turkish", "open", 1)
    assert await store.table_head(table.id) == head
    assert await store.channel_head("telegram", -100) == head
    assert await store.channel_head("discord", -100) is None
    assert await store.table_head(table.id + 1) is None
    await store.commit(table.id, 1, {}, status="closed")
    assert await store.table_head(table.id) == TableHead(
        table.id, "telegram", "-100", "turkish", "closed", 2
    )
    assert await store.channel_head("telegram", -100) is None


async def test_claim_takes_due_open_tables_earliest_first_once_per_lease(store: Store) -> None:
    due_late = await store.create_table("discord", "a", "okey", {}, {}, deadline=T0)
    due_early = await store.create_table(
        "discord", "b", "okey", {}, {}, deadline=T0 - timedelta(seconds=5)
    )
    future = await store.create_table(
        "discord", "c", "okey", {}, {}, deadline=T0 + timedelta(seconds=1)
    )
    await store.create_table("discord", "d", "okey", {}, {})  # no timer
    closed = await store.create_table("discord", "e", "okey", {}, {}, deadline=T0)
    await store.commit(closed.id, 1, {}, status="closed", deadline=T0)
    lease = timedelta(seconds=30)

    claimed = await store.claim_due(T0, lease=lease)
    assert [(h.id, h.version) for h in claimed] == [(due_early.id, 1), (due_late.id, 1)]
    assert await store.claim_due(T0 + timedelta(seconds=2), lease=lease) == [
        await store.table_head(future.id)
    ]
    # a claimer that never commits (it crashed) loses the tables when the lease ends
    assert await store.claim_due(T0 + timedelta(seconds=29), lease=lease) == []
    again = await store.claim_due(T0 + lease, lease=lease)
    assert {h.id for h in again} == {due_early.id, due_late.id}
    # a commit's own deadline replaces the lease
    await store.commit(due_late.id, 1, {}, deadline=T0 + lease)
    assert [h.id for h in await store.claim_due(T0 + lease)] == [due_late.id]


async def test_claim_filters_platforms_and_limits(store: Store) -> None:
    ids = {}
    for n, platform in enumerate(["discord", "telegram", "discord", "telegram"]):
        table = await store.create_table(
            platform, f"c{n}", "okey", {}, {}, deadline=T0 + timedelta(seconds=n)
        )
        ids[n] = table.id
    late = T0 + timedelta(seconds=10)
    first = await store.claim_due(late, platforms=("telegram",), limit=1)
    assert [h.id for h in first] == [ids[1]]
    assert [h.id for h in await store.claim_due(late, platforms=["telegram"])] == [ids[3]]
    assert [h.id for h in await store.claim_due(late, platforms=["discord"])] == [ids[0], ids[2]]
    assert await store.claim_due(late) == []
    with pytest.raises(InvalidRequest):
        await store.claim_due(datetime(2026, 3, 1))


async def test_concurrent_claims_never_share_a_table(db_url: str) -> None:
    stores = [await Store.open(db_url, migrate=False) for _ in range(3)]
    try:
        made = [
            await stores[0].create_table(
                "discord", f"c{n}", "okey", {}, {}, deadline=T0 - timedelta(seconds=n)
            )
            for n in range(30)
        ]
        got: list[int] = []
        for _ in range(4):
            rounds = await asyncio.gather(*(s.claim_due(T0, limit=4) for s in stores))
            got += [h.id for heads in rounds for h in heads]
        assert sorted(got) == sorted(t.id for t in made)
    finally:
        for s in stores:
            await s.close()


async def test_postgresql_claims_skip_a_locked_row(backend: str, store: Store) -> None:
    if backend != "postgresql":
        pytest.skip("SKIP LOCKED is PostgreSQL's; SQLite has one writer at a time")
    one = await store.create_table("discord", "a", "okey", {}, {}, deadline=T0)
    two = await store.create_table("discord", "b", "okey", {}, {}, deadline=T0)
    async with store.engine.connect() as conn, conn.begin():
        await conn.execute(sa.select(tables.c.id).where(tables.c.id == one.id).with_for_update())
        claimed = await asyncio.wait_for(store.claim_due(T0), 10)
    assert [h.id for h in claimed] == [two.id]
    assert [h.id for h in await store.claim_due(T0)] == [one.id]


async def test_rearm_only_at_the_same_version(store: Store) -> None:
    table = await store.create_table("discord", "a", "okey", {}, {}, deadline=T0)
    assert await store.claim_due(T0)
    assert await store.rearm(table.id, 1, T0 + timedelta(hours=1))
    assert await stored_deadline(store, table.id) == T0 + timedelta(hours=1)
    await store.commit(table.id, 1, {}, deadline=T0)
    assert not await store.rearm(table.id, 1, None)  # the table moved on: its commit decides
    assert await stored_deadline(store, table.id) == T0


async def test_migration_from_0001_fills_deadlines_of_open_tables(unmigrated_url: str) -> None:
    store = await Store.open(unmigrated_url, migrate=False)
    try:
        await upgrade(store.engine, "0001")
        old = sa.table(
            "tables",
            *(sa.column(c) for c in ("id", "platform", "channel_id", "game", "status")),
            *(sa.column(c) for c in ("version", "last_seq", "created_at", "updated_at")),
            sa.column("options", sa.JSON()),
            sa.column("snapshot", sa.JSON()),
        )
        turn = "2026-03-01T12:01:00+00:00"
        touched = "2026-03-01T12:00:00+00:00"
        rows = [
            ("a", "open", {"phase": "playing", "deadline": turn, "touched": touched}),
            ("b", "open", {"phase": "waiting", "deadline": None, "touched": touched}),
            ("c", "open", {"phase": "playing", "deadline": None, "touched": touched}),
            ("d", "closed", {"phase": "closed", "deadline": turn, "touched": touched}),
        ]
        async with store.engine.begin() as conn:
            for channel, status, snapshot in rows:
                await conn.execute(
                    old.insert().values(
                        platform="discord",
                        channel_id=channel,
                        game="okey",
                        status=status,
                        version=3,
                        last_seq=2,
                        created_at=T0,
                        updated_at=T0,
                        options={},
                        snapshot=snapshot,
                    )
                )
        await upgrade(store.engine)
        assert await current_revision(store.engine) == head_revision()
        assert await stored_deadline(store, 1) == datetime.fromisoformat(turn)
        assert await stored_deadline(store, 2) == T0 + timedelta(seconds=900)
        assert await stored_deadline(store, 3) is None
        assert await stored_deadline(store, 4) is None
        table = await store.get_table(1)
        assert (table.version, table.snapshot["deadline"]) == (3, turn)  # nothing else changed
        assert [h.id for h in await store.claim_due(T0 + timedelta(hours=1))] == [1, 2]
        await downgrade(store.engine, "0001")
        async with store.engine.connect() as conn:  # the 0001 schema: read it column by column
            status = await conn.scalar(sa.text("SELECT status FROM tables WHERE id = 2"))
        assert status == "open"  # kept, without its deadline
    finally:
        await store.close()
