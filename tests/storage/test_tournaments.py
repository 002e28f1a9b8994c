"""Tournament rows (issue 19) on SQLite and PostgreSQL: create, compare-and-set commits with
their fee transfers, a stale version or a finished tournament refused (nothing written), the
live tournament of a channel, the open and due lists, a tournament's tables, and the audit of a
finished tournament whose escrow still holds chips."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from storage import (
    InsufficientFunds,
    InvalidRequest,
    NotFound,
    StaleVersion,
    Store,
    TournamentOver,
    Transfer,
    tournament_escrow,
    wallet,
)
from tests.storage.helpers import funded_player

AT = datetime(2026, 1, 1, 21, 30, tzinfo=UTC)


def fee(player: int, tournament: int, chips: int) -> Transfer:
    return Transfer(wallet(player), tournament_escrow(tournament), chips, "tournament fee")


def prize(tournament: int, player: int, chips: int) -> Transfer:
    return Transfer(tournament_escrow(tournament), wallet(player), chips, "tournament prize")


async def test_create_starts_registering_at_version_one(store: Store) -> None:
    record = await store.create_tournament(
        "discord", 77, "okey", {"n": 0}, community="g1", deadline=AT
    )
    assert (record.platform, record.channel_id, record.community) == ("discord", "77", "g1")
    assert (record.kind, record.status, record.version) == ("okey", "registering", 1)
    assert record.snapshot == {"n": 0} and record.deadline == AT
    again = await store.get_tournament(record.id)
    assert again == record
    with pytest.raises(NotFound):
        await store.get_tournament(record.id + 1)
    with pytest.raises(InvalidRequest):
        await store.create_tournament("discord", 77, "chess", {})
    with pytest.raises(InvalidRequest):
        await store.create_tournament("discord", 77, "okey", {}, deadline=datetime(2026, 1, 1))


async def test_a_commit_moves_the_version_and_the_fees_together(store: Store) -> None:
    a = await funded_player(store, "a", 300)
    b = await funded_player(store, "b", 300)
    t = await store.create_tournament("telegram", -100, "okey", {"n": 0})
    version = await store.commit_tournament(t.id, 1, {"n": 1}, transfers=[fee(a, t.id, 100)])
    assert version == 2
    version = await store.commit_tournament(
        t.id, 2, {"n": 2}, status="running", transfers=[fee(b, t.id, 100)]
    )
    stored = await store.get_tournament(t.id)
    assert (stored.version, stored.status, stored.snapshot) == (3, "running", {"n": 2})
    assert await store.balance(tournament_escrow(t.id)) == 200
    assert await store.balance(wallet(a)) == 200
    await store.commit_tournament(
        t.id, 3, {"n": 3}, status="finished", transfers=[prize(t.id, a, 140), prize(t.id, b, 60)]
    )
    assert await store.balance(tournament_escrow(t.id)) == 0
    assert await store.balance(wallet(a)) == 340
    assert await store.audit() == []


async def test_a_stale_version_is_refused_and_writes_nothing(store: Store) -> None:
    a = await funded_player(store, "a", 300)
    t = await store.create_tournament("discord", 5, "okey", {"n": 0})
    await store.commit_tournament(t.id, 1, {"n": 1})
    with pytest.raises(StaleVersion):
        await store.commit_tournament(t.id, 1, {"n": 99}, transfers=[fee(a, t.id, 100)])
    stored = await store.get_tournament(t.id)
    assert (stored.version, stored.snapshot) == (2, {"n": 1})
    assert await store.balance(wallet(a)) == 300
    with pytest.raises(InsufficientFunds):  # a fee the player cannot pay: nothing either
        await store.commit_tournament(t.id, 2, {"n": 2}, transfers=[fee(a, t.id, 301)])
    assert (await store.get_tournament(t.id)).version == 2
    with pytest.raises(NotFound):
        await store.commit_tournament(t.id + 1, 1, {})


async def test_a_finished_or_cancelled_tournament_no_longer_changes(store: Store) -> None:
    a = await funded_player(store, "a", 300)
    for status in ("finished", "cancelled"):
        t = await store.create_tournament("discord", 6, "okey", {})
        await store.commit_tournament(t.id, 1, {}, status=status)
        with pytest.raises(TournamentOver):
            await store.commit_tournament(t.id, 2, {"late": 1}, transfers=[fee(a, t.id, 10)])
        assert (await store.get_tournament(t.id)).snapshot == {}
    assert await store.balance(wallet(a)) == 300
    with pytest.raises(InvalidRequest):
        await store.commit_tournament(t.id, 2, {}, status="paused")


async def test_the_channels_live_tournament_and_the_open_list(store: Store) -> None:
    first = await store.create_tournament("discord", 9, "okey", {})
    assert (await store.tournament_in_channel("discord", "9")).id == first.id
    assert await store.tournament_in_channel("telegram", "9") is None  # another platform
    assert await store.tournament_in_channel("discord", 10) is None
    await store.commit_tournament(first.id, 1, {}, status="cancelled")
    assert await store.tournament_in_channel("discord", 9) is None
    second = await store.create_tournament("discord", 9, "turkish", {})
    running = await store.create_tournament("telegram", -5, "okey", {})
    await store.commit_tournament(running.id, 1, {}, status="running")
    assert (await store.tournament_in_channel("discord", 9)).id == second.id
    assert [t.id for t in await store.open_tournaments()] == [second.id, running.id]


async def test_due_tournaments_are_those_registering_whose_start_time_came(store: Store) -> None:
    early = await store.create_tournament("discord", 1, "okey", {}, deadline=AT)
    late = await store.create_tournament("discord", 2, "okey", {}, deadline=AT + timedelta(hours=1))
    await store.create_tournament("discord", 3, "okey", {})  # no start time
    started = await store.create_tournament("discord", 4, "okey", {}, deadline=AT)
    await store.commit_tournament(started.id, 1, {}, status="running")
    assert await store.due_tournaments(AT - timedelta(seconds=1)) == []
    assert [t.id for t in await store.due_tournaments(AT)] == [early.id]
    due = await store.due_tournaments(AT + timedelta(hours=2))
    assert [t.id for t in due] == [early.id, late.id]
    # a commit keeps the start time only when given it again; without, it is spent
    await store.commit_tournament(late.id, 1, {"joined": 1}, deadline=late.deadline)
    await store.commit_tournament(early.id, 1, {"joined": 1})
    assert [t.id for t in await store.due_tournaments(AT + timedelta(hours=2))] == [late.id]


async def test_a_tournaments_tables_are_found_by_it(store: Store) -> None:
    t = await store.create_tournament("discord", 1, "okey", {})
    other = await store.create_tournament("discord", 2, "okey", {})
    one = await store.create_table("discord", "1#1.1", "okey", {"slot": 1}, {}, tournament=t.id)
    two = await store.create_table("discord", "1#1.2", "okey", {"slot": 2}, {}, tournament=t.id)
    await store.create_table("discord", "3", "okey", {}, {})  # an ordinary table
    await store.create_table("discord", "2#2.1", "okey", {}, {}, tournament=other.id)
    await store.commit(one.id, 1, {"over": 1}, status="closed")
    found = await store.tournament_tables(t.id)
    assert [(r.id, r.status) for r in found] == [(one.id, "closed"), (two.id, "open")]
    assert [r.options for r in found] == [{"slot": 1}, {"slot": 2}]
    assert await store.tournament_tables(other.id + 1) == []


async def test_the_audit_flags_a_finished_tournament_whose_escrow_still_holds_chips(
    store: Store,
) -> None:
    a = await funded_player(store, "a", 300)
    t = await store.create_tournament("discord", 1, "okey", {})
    await store.commit_tournament(t.id, 1, {}, transfers=[fee(a, t.id, 100)])
    assert await store.audit() == []  # registering: the escrow holds the fees, as it should
    await store.commit_tournament(t.id, 2, {}, status="finished", transfers=[prize(t.id, a, 70)])
    [problem] = await store.audit()
    assert problem == f"{tournament_escrow(t.id)}: the tournament is over but holds 30"
