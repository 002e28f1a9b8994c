"""Room choices: the shared room a user opened the Discord Activity on in a channel, kept for
every process until it lapses; a newer choice replaces it, None forgets it, and lapsed choices
are deleted when a choice is written (also while another writer holds a row)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
import sqlalchemy as sa

from storage import InvalidRequest, Store
from storage.models import room_choices
from testkit.databases import Clock

ROOM, OTHER = "500#masa-1", "500#masa-2"


async def rows(store: Store) -> set[tuple[str, str, str]]:
    async with store.engine.connect() as conn:
        found = await conn.execute(
            sa.select(room_choices.c.platform, room_choices.c.channel_id, room_choices.c.user_id)
        )
        return {tuple(row) for row in found}


async def test_a_choice_is_read_back_per_platform_channel_and_user(store: Store) -> None:
    assert await store.chosen_room("discord", "500", "7") is None
    await store.choose_room("discord", "500", "7", ROOM)
    assert await store.chosen_room("discord", "500", "7") == ROOM
    assert await store.chosen_room("discord", "500", "8") is None  # the presser's own
    assert await store.chosen_room("discord", "501", "7") is None
    assert await store.chosen_room("telegram", "500", "7") is None


async def test_a_newer_choice_replaces_and_none_forgets(store: Store) -> None:
    await store.choose_room("discord", "500", "7", ROOM)
    await store.choose_room("discord", "500", "7", OTHER)
    assert await store.chosen_room("discord", "500", "7") == OTHER
    await store.choose_room("discord", "500", "7", None)
    assert await store.chosen_room("discord", "500", "7") is None
    await store.choose_room("discord", "500", "7", None)  # nothing to forget: no harm
    assert await rows(store) == set()


async def test_a_choice_lasts_its_hold_only(store: Store, clock: Clock) -> None:
    await store.choose_room("discord", "500", "7", ROOM, hold=timedelta(minutes=1))
    clock.now += timedelta(seconds=50)
    assert await store.chosen_room("discord", "500", "7") == ROOM
    clock.now += timedelta(seconds=10)
    assert await store.chosen_room("discord", "500", "7") is None
    # the default hold is an hour
    await store.choose_room("discord", "500", "8", ROOM)
    clock.now += timedelta(minutes=59)
    assert await store.chosen_room("discord", "500", "8") == ROOM
    clock.now += timedelta(minutes=1)
    assert await store.chosen_room("discord", "500", "8") is None


async def test_lapsed_choices_are_deleted_when_a_choice_is_written(
    store: Store, clock: Clock
) -> None:
    for user in ("1", "2", "3"):
        await store.choose_room("discord", "500", user, ROOM, hold=timedelta(minutes=1))
    await store.choose_room("discord", "500", "4", ROOM)  # an hour
    clock.now += timedelta(minutes=5)
    assert len(await rows(store)) == 4  # nothing deletes on a read
    await store.choose_room("discord", "501", "9", OTHER.replace("500", "501"))
    assert await rows(store) == {("discord", "500", "4"), ("discord", "501", "9")}


async def test_choices_of_many_users_at_once_all_stay(store: Store) -> None:
    users = [str(n) for n in range(12)]
    await asyncio.gather(*(store.choose_room("discord", "500", u, ROOM) for u in users))
    assert [await store.chosen_room("discord", "500", u) for u in users] == [ROOM] * 12


@pytest.mark.parametrize(
    "bad",
    [
        ("discord", "500", "", ROOM),
        ("discord", "500", "7", "x" * 65),
        ("discord", "5" * 65, "7", ROOM),
    ],
)
async def test_arguments_are_checked(store: Store, bad: tuple[str, str, str, str]) -> None:
    with pytest.raises(InvalidRequest):
        await store.choose_room(*bad)
    assert await rows(store) == set()


async def test_pruning_skips_a_row_another_transaction_holds(
    store: Store, clock: Clock, backend: str
) -> None:
    """PostgreSQL: a lapsed choice locked by another transaction is left for a later write
    instead of waited for (processes pruning at once never wait on each other)."""
    if backend != "postgresql":
        pytest.skip("row locks: PostgreSQL only (SQLite has one writer at a time)")
    for user in ("1", "2"):
        await store.choose_room("discord", "500", user, ROOM, hold=timedelta(minutes=1))
    clock.now += timedelta(minutes=5)
    async with store.engine.connect() as other, other.begin():
        held = room_choices.c.user_id == "1"
        await other.execute(sa.select(room_choices).where(held).with_for_update())
        await asyncio.wait_for(store.choose_room("discord", "500", "3", ROOM), timeout=30)
        assert await rows(store) == {("discord", "500", "1"), ("discord", "500", "3")}
