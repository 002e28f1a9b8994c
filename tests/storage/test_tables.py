"""Tables: create, find, commit (the one write path of play), action log, results, seeds."""

from __future__ import annotations

import hashlib

import pytest

import storage.table_create as table_create
from storage import (
    HOUSE,
    ActionEntry,
    ChannelBusy,
    GameResult,
    InsufficientFunds,
    InvalidRequest,
    NotFound,
    PenaltyEntry,
    SeedRecord,
    StaleVersion,
    Store,
    TableClosed,
    Transfer,
    escrow,
    wallet,
)
from tests.storage.helpers import AT, funded_player, ledger_rows

SEED = bytes(range(32))
SEED_HASH = hashlib.sha256(SEED).hexdigest()


def act(seat: int, player: int | None, kind: str = "check") -> ActionEntry:
    return ActionEntry(seat=seat, player_id=player, action={"kind": kind}, at=AT)


async def test_create_and_find_tables(store: Store) -> None:
    table = await store.create_table("discord", 555, "turkish", {"limit": "pot"}, {"hand": 0})
    assert (table.version, table.status, table.channel_id) == (1, "open", "555")
    assert table.options == {"limit": "pot"}
    assert await store.table_in_channel("discord", 555) == table
    assert await store.table_in_channel("telegram", 555) is None
    assert await store.get_table(table.id) == table
    assert await store.load_open_tables() == [table]
    with pytest.raises(NotFound):
        await store.get_table(table.id + 1)


async def test_one_open_table_per_channel(store: Store) -> None:
    table = await store.create_table("discord", "c", "okey", {}, {})
    with pytest.raises(ChannelBusy, match=f"already has open table {table.id}"):
        await store.create_table("discord", "c", "okey", {}, {})
    await store.commit(table.id, 1, {"end": True}, status="closed")
    assert await store.table_in_channel("discord", "c") is None
    assert await store.load_open_tables() == []
    second = await store.create_table("discord", "c", "acik", {}, {})
    assert second.id != table.id
    assert (await store.get_table(table.id)).status == "closed"


async def test_create_table_refuses_non_json(store: Store) -> None:
    with pytest.raises(InvalidRequest, match="snapshot is not JSON-safe"):
        await store.create_table("discord", "c", "okey", {}, {"x": {1, 2}})
    with pytest.raises(InvalidRequest, match="options must be a dict"):
        await store.create_table("discord", "c", "okey", [], {})  # type: ignore[arg-type]
    assert await store.load_open_tables() == []


async def test_commit_writes_snapshot_log_and_transfers(store: Store) -> None:
    a = await funded_player(store, "a", 100)
    b = await funded_player(store, "b", 100)
    table = await store.create_table("discord", "c", "turkish", {}, {"n": 0})
    await store.buy_in(table.id, a, 50)
    await store.buy_in(table.id, b, 50)
    version = await store.commit(
        table.id,
        1,
        {"n": 1},
        action=act(0, a, "bet"),
        transfers=[Transfer(escrow(table.id), wallet(a), 70, "pot")],
        results=[GameResult(a, "turkish", 20, hand_id="h1"), GameResult(b, "turkish", -20)],
    )
    assert version == 2
    version = await store.commit(table.id, 2, {"n": 2}, action=act(1, b))
    assert version == 3
    stored = await store.get_table(table.id)
    assert (stored.version, stored.snapshot) == (3, {"n": 2})
    log = await store.actions(table.id)
    assert [(e.seq, e.seat, e.player_id, e.action) for e in log] == [
        (1, 0, a, {"kind": "bet"}),
        (2, 1, b, {"kind": "check"}),
    ]
    assert log[0].at == AT
    assert await store.balance(wallet(a)) == 120
    assert await store.balance(escrow(table.id)) == 30
    assert await store.audit() == []


async def test_stale_version_writes_nothing(store: Store) -> None:
    a = await funded_player(store, "a", 100)
    table = await store.create_table("discord", "c", "turkish", {}, {"n": 0})
    await store.buy_in(table.id, a, 50)
    await store.commit(table.id, 1, {"n": 1}, action=act(0, a))
    rows = await ledger_rows(store)
    with pytest.raises(StaleVersion, match="is at version 2, not 1") as info:
        await store.commit(
            table.id,
            1,
            {"n": 99},
            action=act(0, a),
            transfers=[Transfer(escrow(table.id), wallet(a), 5, "x")],
            seeds=[SeedRecord("h9", table.id, SEED_HASH)],
        )
    assert (info.value.expected, info.value.current) == (1, 2)
    stored = await store.get_table(table.id)
    assert (stored.version, stored.snapshot) == (2, {"n": 1})
    assert len(await store.actions(table.id)) == 1
    assert await ledger_rows(store) == rows
    assert await store.seed("h9") is None


async def test_insufficient_funds_in_commit_writes_nothing(store: Store) -> None:
    a = await funded_player(store, "a", 100)
    table = await store.create_table("discord", "c", "turkish", {}, {"n": 0})
    await store.buy_in(table.id, a, 50)
    with pytest.raises(InsufficientFunds):
        await store.commit(
            table.id,
            1,
            {"n": 1},
            action=act(0, a),
            transfers=[
                Transfer(escrow(table.id), wallet(a), 40, "ok"),
                Transfer(escrow(table.id), HOUSE, 20, "too much"),
            ],
        )
    assert (await store.get_table(table.id)).version == 1
    assert await store.actions(table.id) == []
    assert await store.balance(escrow(table.id)) == 50


async def test_transfers_in_one_commit_count_net(store: Store) -> None:
    a = await funded_player(store, "a", 10)
    b = await funded_player(store, "b", 0)
    table = await store.create_table("discord", "c", "turkish", {}, {})
    # b pays out 10 it only receives within the same transaction: fine, all or nothing.
    await store.commit(
        table.id,
        1,
        {},
        transfers=[
            Transfer(wallet(a), wallet(b), 10, "x"),
            Transfer(wallet(b), escrow(table.id), 10, "y"),
        ],
    )
    assert await store.balance(escrow(table.id)) == 10


async def test_commit_key_applies_once(store: Store) -> None:
    a = await funded_player(store, "a", 100)
    table = await store.create_table("discord", "c", "turkish", {}, {})
    await store.buy_in(table.id, a, 50)
    first = await store.commit(
        table.id,
        1,
        {"n": 1},
        action=act(0, a),
        transfers=[Transfer(escrow(table.id), wallet(a), 5, "x")],
        idempotency_key="press-1",
    )
    again = await store.commit(
        table.id,
        1,
        {"n": 1},
        action=act(0, a),
        transfers=[Transfer(escrow(table.id), wallet(a), 5, "x")],
        idempotency_key="press-1",
    )
    assert first == again == 2
    assert len(await store.actions(table.id)) == 1
    assert await store.balance(escrow(table.id)) == 45


async def test_commit_on_closed_or_missing_table(store: Store) -> None:
    table = await store.create_table("discord", "c", "okey", {}, {})
    with pytest.raises(NotFound):
        await store.commit(table.id + 1, 1, {})
    await store.commit(table.id, 1, {}, status="closed")
    with pytest.raises(TableClosed):
        await store.commit(table.id, 2, {})


@pytest.mark.parametrize(
    "kwargs",
    [
        {"status": "paused"},
        {"snapshot": {"x": float("nan")}},
        {"transfers": [Transfer(HOUSE, HOUSE, 1, "x")]},
        {"transfers": [("house", "player:1", 1, "x")]},
        {"action": {"kind": "check"}},
        {"results": [GameResult(1, "okey", 1.5)]},  # type: ignore[arg-type]
        {"penalties": [PenaltyEntry(1, 20, "")]},
        {"seeds": [SeedRecord("h", 1, "zz")]},
        {"seeds": [SeedRecord("h", 1, SEED_HASH, "00" * 32)]},
        {"seeds": [SeedRecord("h", 2, SEED_HASH)]},
        {"expected_version": 0},
    ],
)
async def test_bad_commit_is_refused(store: Store, kwargs: dict) -> None:
    table = await store.create_table("discord", "c", "okey", {}, {"n": 0})
    args = {"expected_version": 1, "snapshot": {"n": 1}} | kwargs
    with pytest.raises(InvalidRequest):
        await store.commit(table.id, **args)
    assert (await store.get_table(table.id)).snapshot == {"n": 0}


async def test_unknown_player_in_commit_writes_nothing(store: Store) -> None:
    table = await store.create_table("discord", "c", "okey", {}, {"n": 0})
    with pytest.raises(NotFound, match="no player with id 5"):
        await store.commit(table.id, 1, {"n": 1}, action=act(0, 5))
    with pytest.raises(NotFound):
        await store.commit(table.id, 1, {"n": 1}, penalties=[PenaltyEntry(5, 20, "m")])
    assert (await store.get_table(table.id)).version == 1


async def test_seed_hash_first_seed_at_hand_end(store: Store) -> None:
    table = await store.create_table("discord", "c", "turkish", {}, {})
    v = await store.commit(table.id, 1, {}, seeds=[SeedRecord("hand-1", table.id, SEED_HASH)])
    assert await store.seed("hand-1") == SeedRecord("hand-1", table.id, SEED_HASH, None)
    bad = SeedRecord("hand-1", table.id, hashlib.sha256(b"other").hexdigest(), None)
    with pytest.raises(InvalidRequest, match="another table or seed hash"):
        await store.commit(table.id, v, {}, seeds=[bad])
    v = await store.commit(
        table.id, v, {}, seeds=[SeedRecord("hand-1", table.id, SEED_HASH, SEED.hex())]
    )
    assert (await store.seed("hand-1")).seed_hex == SEED.hex()  # type: ignore[union-attr]
    # Repeating the reveal is harmless.
    await store.commit(
        table.id, v, {}, seeds=[SeedRecord("hand-1", table.id, SEED_HASH, SEED.hex())]
    )
    assert await store.seed("nope") is None


async def test_penalty_totals_and_okey_leaderboard(store: Store) -> None:
    a = await funded_player(store, "a", 0)
    b = await funded_player(store, "b", 0)
    c = await funded_player(store, "c", 0, platform="telegram")
    table = await store.create_table("discord", "c", "okey", {}, {})
    v = await store.commit(
        table.id, 1, {}, penalties=[PenaltyEntry(a, 20, "m1"), PenaltyEntry(b, 0, "m1")]
    )
    # A later total for the same match replaces the earlier one.
    v = await store.commit(table.id, v, {}, penalties=[PenaltyEntry(a, 60, "m1")])
    v = await store.commit(
        table.id, v, {}, penalties=[PenaltyEntry(b, 40, "m2"), PenaltyEntry(c, 10, "m2")]
    )
    assert await store.leaderboard("okey") == [("C", 10), ("B", 40), ("A", 60)]
    assert await store.leaderboard("okey", platform="discord", limit=1) == [("B", 40)]


async def test_chips_leaderboard(store: Store) -> None:
    await funded_player(store, "a", 10)
    await funded_player(store, "b", 30)
    await funded_player(store, "c", 20, platform="telegram")
    assert await store.leaderboard("chips") == [("B", 30), ("C", 20), ("A", 10)]
    assert await store.leaderboard("chips", limit=2, platform="discord") == [("B", 30), ("A", 10)]
    with pytest.raises(InvalidRequest):
        await store.leaderboard("karma")  # type: ignore[arg-type]
    with pytest.raises(InvalidRequest):
        await store.leaderboard("chips", limit=0)


async def test_ids_must_be_positive_integers(store: Store) -> None:
    for call in (
        store.get_table("1"),  # type: ignore[arg-type]
        store.get_player(0),
        store.actions(-2),
        store.set_locale(True, "tr"),  # type: ignore[arg-type]
        store.reset_table(1, "mod", "x"),  # type: ignore[arg-type]
        store.buy_in(0, 1, 5),
    ):
        with pytest.raises(InvalidRequest):
            await call


async def test_racing_open_in_one_channel_is_channel_busy(store: Store, monkeypatch) -> None:
    """Another writer's table appears between the check and the insert: ChannelBusy, not a crash."""
    first = await store.create_table("discord", 9, "okey", {}, {})
    real = table_create.open_table_id_sync
    calls = iter([None])  # the check in the insert's transaction misses the other writer's table

    def _first_then_real(conn, platform, channel):
        try:
            return next(calls)
        except StopIteration:
            return real(conn, platform, channel)

    monkeypatch.setattr(table_create, "open_table_id_sync", _first_then_real)
    with pytest.raises(ChannelBusy) as info:
        await store.create_table("discord", 9, "okey", {}, {})
    assert info.value.table_id == first.id


async def test_racing_table_closed_again_lets_the_open_go_through(
    store: Store, monkeypatch
) -> None:
    """The racing table closes before we look again: the channel is free, the open succeeds."""
    mod = await funded_player(store, "mod", 0)
    other = await store.create_table("discord", 10, "okey", {}, {})
    real, real_sync = table_create.open_table_id, table_create.open_table_id_sync
    calls = 0

    def missing(conn, platform, channel):
        nonlocal calls
        calls += 1
        if calls == 1:  # inside the insert transaction: miss the open table
            return None
        return real_sync(conn, platform, channel)

    async def racing(conn, platform, channel):
        nonlocal calls
        calls += 1
        if calls == 2:  # the re-read after the unique index refused: the other table closes now
            await store.reset_table(other.id, mod, "closed meanwhile")
        return await real(conn, platform, channel)

    monkeypatch.setattr(table_create, "open_table_id_sync", missing)
    monkeypatch.setattr(table_create, "open_table_id", racing)
    table = await store.create_table("discord", 10, "okey", {}, {})
    assert table.id != other.id and table.status == "open"
    assert (await store.table_in_channel("discord", 10)).id == table.id
