"""The fast commit path: big all-or-nothing commits, and SQLite's group commit of concurrent tables."""

from __future__ import annotations

import asyncio
import hashlib
import threading
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from storage import (
    ActionEntry,
    GameResult,
    InsufficientFunds,
    NotFound,
    SeedRecord,
    StaleVersion,
    Store,
    Transfer,
    escrow,
    wallet,
)
from tests.storage.helpers import AT, funded_player, ledger_rows

SEED = bytes(range(32))


def act(player: int | None) -> ActionEntry:
    return ActionEntry(seat=0, player_id=player, action={"kind": "call"}, at=AT)


async def seated_table(store: Store, channel: str, player: int, chips: int) -> int:
    """An open table holding ``chips`` of ``player`` in its escrow."""
    table = await store.create_table("discord", channel, "turkish", {}, {"n": 0})
    await store.buy_in(table.id, player, chips)
    return table.id


async def test_twenty_transfers_with_a_failing_last_one_leave_nothing(store: Store) -> None:
    a = await funded_player(store, "a", 1_000)
    b = await funded_player(store, "b", 1_000)
    table = await seated_table(store, "c", a, 100)
    rows_before = await ledger_rows(store)
    transfers = [Transfer(wallet(b), escrow(table), 10, "bet") for _ in range(19)]
    transfers.append(Transfer(escrow(table), wallet(a), 291, "one chip too many"))
    seed = SeedRecord("h1", table, hashlib.sha256(SEED).hexdigest())
    with pytest.raises(InsufficientFunds) as refused:
        await store.commit(
            table,
            1,
            {"n": 1},
            action=act(a),
            transfers=transfers,
            results=[GameResult(a, "turkish", 291)],
            seeds=[seed],
            idempotency_key="hand-1",
        )
    assert (refused.value.account, refused.value.balance) == (escrow(table), 100)
    assert (await store.get_table(table)).snapshot == {"n": 0}
    assert (await store.get_table(table)).version == 1
    assert await store.actions(table) == []
    assert await ledger_rows(store) == rows_before
    assert await store.seed("h1") is None
    assert [await store.balance(x) for x in (wallet(a), wallet(b), escrow(table))] == [
        900,
        1000,
        100,
    ]
    assert await store.audit() == []
    # The refused call did not consume its key: the corrected hand goes through under it.
    transfers[-1] = Transfer(escrow(table), wallet(a), 290, "pot")
    assert (
        await store.commit(table, 1, {"n": 1}, transfers=transfers, idempotency_key="hand-1") == 2
    )
    assert await store.balance(escrow(table)) == 0


async def test_concurrent_commits_fail_alone(store: Store, backend: str) -> None:
    """Eight tables commit at once; the stale, the broke and the unknown player fail by themselves."""
    player = await funded_player(store, "p", 10_000)
    tables = [await seated_table(store, f"c{i}", player, 100) for i in range(8)]
    commits = _count_commits(store)

    def hand(i: int) -> Any:
        table = tables[i]
        pot = Transfer(escrow(table), wallet(player), 100, "pot")
        if i == 2:  # stale: expects a version the table never had
            return store.commit(table, 7, {"n": i}, action=act(player), transfers=[pot])
        if i == 4:  # broke: the escrow holds 100, not 101
            over = Transfer(escrow(table), wallet(player), 101, "pot")
            return store.commit(table, 1, {"n": i}, action=act(player), transfers=[over])
        if i == 6:  # an action by a player who does not exist
            return store.commit(table, 1, {"n": i}, action=act(999_999), transfers=[pot])
        return store.commit(table, 1, {"n": i}, action=act(player), transfers=[pot])

    outcomes = await asyncio.gather(*(hand(i) for i in range(8)), return_exceptions=True)

    assert isinstance(outcomes[2], StaleVersion)
    assert isinstance(outcomes[4], InsufficientFunds)
    assert isinstance(outcomes[6], NotFound)
    for i, table in enumerate(tables):
        record = await store.get_table(table)
        if i in (2, 4, 6):
            assert (record.version, record.snapshot, await store.actions(table)) == (
                1,
                {"n": 0},
                [],
            )
            assert await store.balance(escrow(table)) == 100
        else:
            assert outcomes[i] == 2
            assert (record.version, record.snapshot) == (2, {"n": i})
            assert [a.seq for a in await store.actions(table)] == [1]
            assert await store.balance(escrow(table)) == 0
    assert await store.balance(wallet(player)) == 10_000 - 3 * 100
    assert await store.audit() == []
    if backend == "sqlite":  # the first commit ran alone, the seven queued behind it shared one
        assert commits == [1, 7]


async def test_a_cancelled_commit_still_queued_never_runs(store: Store, backend: str) -> None:
    if backend != "sqlite":
        pytest.skip("group commit is SQLite's")
    player = await funded_player(store, "p", 1_000)
    first, second = [await seated_table(store, f"c{i}", player, 100) for i in range(2)]
    running = asyncio.create_task(store.commit(first, 1, {"n": 1}))
    queued = asyncio.create_task(store.commit(second, 1, {"n": 1}))
    await asyncio.sleep(0)  # both start: the first runs in the writer thread, the second queues
    queued.cancel()
    assert await running == 2
    with pytest.raises(asyncio.CancelledError):
        await queued
    assert await store.commit(first, 2, {"n": 2}) == 3  # the writer carries on
    assert (await store.get_table(second)).version == 1


async def test_a_cancelled_group_leader_still_hands_out_the_results(
    store: Store, backend: str
) -> None:
    """The task running a group is cancelled mid-transaction: the group ends and answers all."""
    if backend != "sqlite":
        pytest.skip("group commit is SQLite's")
    player = await funded_player(store, "p", 1_000)
    tables = [await seated_table(store, f"c{i}", player, 100) for i in range(3)]
    entered, release = threading.Event(), threading.Event()

    @sa.event.listens_for(store.write_engine, "before_cursor_execute")
    def _hold(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.startswith("UPDATE tables") and not release.is_set():
            entered.set()
            release.wait()

    leader = asyncio.create_task(store.commit(tables[0], 1, {"n": 1}))
    assert await asyncio.to_thread(
        entered.wait, 60
    )  # the leader's transaction is held in the thread
    followers = [asyncio.create_task(store.commit(t, 1, {"n": 1})) for t in tables[1:]]
    await asyncio.sleep(0)  # they queue behind it
    leader.cancel()
    await asyncio.sleep(0)
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await leader
    assert await asyncio.gather(*followers) == [2, 2]
    # The thread finished the leader's transaction: it committed although its caller left.
    assert [(await store.get_table(t)).version for t in tables] == [2, 2, 2]


def _count_commits(store: Store) -> list[int]:
    """Records, for each COMMIT of the writer, how many commits of the store it carried."""
    counts: list[int] = []
    pending = [0]

    @sa.event.listens_for(store.write_engine, "before_cursor_execute")
    def _count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.startswith("UPDATE tables"):
            pending[0] += 1

    @sa.event.listens_for(store.write_engine, "commit")
    def _commit(_conn: Any) -> None:
        if pending[0]:
            counts.append(pending[0])
            pending[0] = 0

    return counts


async def _drop_the_store_connections(store: Store) -> None:
    """The server ends every session of the store's database (as a restart would)."""
    engine = create_async_engine(store.engine.url)
    try:
        async with engine.connect() as conn:
            ended = await conn.scalar(
                sa.text(
                    # each kill waits (up to 5 s) until that session is gone; only client
                    # sessions (an autovacuum worker of the database is not ours to end)
                    "SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                    "AND backend_type = 'client backend'"
                )
            )
            assert ended
    finally:
        await engine.dispose()


async def test_an_idle_pooled_connection_is_checked_before_use(
    store: Store, backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if backend != "postgresql":
        pytest.skip("PostgreSQL's connection pool")
    monkeypatch.setattr("storage.db.PING_AFTER_IDLE_S", 0.0)  # every connection counts as idle
    player = await funded_player(store, "p", 100)
    table = await seated_table(store, "c", player, 50)
    await _drop_the_store_connections(store)
    assert await store.commit(table, 1, {"n": 1}) == 2


async def test_connections_killed_between_two_writes_cost_no_write(
    store: Store, backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if backend != "postgresql":
        pytest.skip("PostgreSQL's connection pool")
    monkeypatch.setattr("storage.db.PING_AFTER_IDLE_S", 3600.0)  # never idle long enough
    player = await funded_player(store, "p", 100)
    table = await seated_table(store, "c", player, 50)
    await _drop_the_store_connections(store)
    assert await store.commit(table, 1, {"n": 1}) == 2  # a closed pooled one is replaced
    assert (await store.get_table(table)).version == 2
    await _drop_the_store_connections(store)
    assert (await store.get_table(table)).snapshot == {"n": 1}  # a read, too
    await _drop_the_store_connections(store)
    assert await store.commit(table, 2, {"n": 2}) == 3
    with pytest.raises(StaleVersion):  # nothing was applied twice
        await store.commit(table, 2, {"n": 2})


async def test_a_dead_connection_not_yet_noticed_is_retried_once_on_a_fresh_one(
    store: Store, backend: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    if backend != "postgresql":
        pytest.skip("PostgreSQL's connection pool")
    monkeypatch.setattr("storage.db.PING_AFTER_IDLE_S", 3600.0)
    player = await funded_player(store, "p", 100)
    table = await seated_table(store, "c", player, 50)
    # The kill races the next write: the client has not read the server's goodbye yet.
    monkeypatch.setattr("storage.db.known_closed", lambda connection: False)
    await _drop_the_store_connections(store)
    with caplog.at_level("INFO", logger="storage"):
        assert await store.commit(table, 1, {"n": 1}) == 2
    assert "retried once on a fresh connection" in caplog.text
    monkeypatch.undo()
    assert (await store.get_table(table)).version == 2
    with pytest.raises(StaleVersion):
        await store.commit(table, 1, {"n": 1})
    assert await store.audit() == []


async def test_a_read_on_a_connection_killed_unnoticed_is_run_again(
    store: Store, backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The milliseconds between a server-side kill and the client reading the goodbye: the
    pooled connection still looks open, so only its first statement finds it dead."""
    if backend != "postgresql":
        pytest.skip("PostgreSQL's connection pool")
    monkeypatch.setattr("storage.db.PING_AFTER_IDLE_S", 3600.0)  # never idle long enough
    player = await funded_player(store, "p", 100)
    table = await seated_table(store, "c", player, 50)
    assert await store.commit(table, 1, {"n": 1}) == 2
    monkeypatch.setattr("storage.db.known_closed", lambda _connection: False)  # not read yet
    await _drop_the_store_connections(store)
    assert (await store.get_table(table)).snapshot == {"n": 1}
    await _drop_the_store_connections(store)
    assert await store.balance(f"player:{player}") == 50
    await _drop_the_store_connections(store)
    assert [name for name, _chips in await store.leaderboard("chips")] == ["P"]
    await _drop_the_store_connections(store)
    await store.ping()
    await _drop_the_store_connections(store)
    assert await store.commit(table, 2, {"n": 2}) == 3  # and a write, as before
