"""Chips: transfers, idempotency, daily grants, buy-in and cash-out."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from storage import (
    HOUSE,
    InsufficientFunds,
    InvalidRequest,
    NotFound,
    Store,
    TableClosed,
    escrow,
    wallet,
)
from tests.storage.helpers import DAY, funded_player, ledger_rows


async def test_daily_grant_once_per_day(store: Store) -> None:
    player = (await store.player("discord", 1, "Ali")).id
    assert await store.daily_grant(player, 500, DAY)
    assert not await store.daily_grant(player, 500, DAY)
    assert await store.daily_grant(player, 500, DAY + timedelta(days=1))
    assert await store.balance(wallet(player)) == 1000
    assert await store.balance(HOUSE) == -1000
    assert await store.audit() == []


async def test_transfer_moves_chips(store: Store) -> None:
    a = await funded_player(store, "a", 100)
    b = await funded_player(store, "b", 0)
    assert await store.transfer(wallet(a), wallet(b), 30, "gift")
    assert await store.balance(wallet(a)) == 70
    assert await store.balance(wallet(b)) == 30
    assert await store.audit() == []


async def test_overdraft_is_refused_and_writes_nothing(store: Store) -> None:
    a = await funded_player(store, "a", 100)
    b = await funded_player(store, "b", 0)
    rows = await ledger_rows(store)
    with pytest.raises(InsufficientFunds, match=r"player:\d+ holds 100 chips but 101 are needed"):
        await store.transfer(wallet(a), wallet(b), 101, "gift", idempotency_key="k")
    assert await store.balance(wallet(a)) == 100
    assert await store.balance(wallet(b)) == 0
    assert await ledger_rows(store) == rows
    # The refused key was not consumed: the same key works once funds suffice.
    assert await store.transfer(wallet(a), wallet(b), 100, "gift", idempotency_key="k")


async def test_same_key_applies_once(store: Store) -> None:
    a = await funded_player(store, "a", 100)
    b = await funded_player(store, "b", 0)
    assert await store.transfer(wallet(a), wallet(b), 10, "x", idempotency_key="once")
    assert not await store.transfer(wallet(a), wallet(b), 10, "x", idempotency_key="once")
    assert await store.balance(wallet(b)) == 10


@pytest.mark.parametrize(
    ("src", "dst", "amount", "reason"),
    [
        ("player:1", "player:1", 5, "x"),
        ("player:1", "bank", 5, "x"),
        ("player:01", HOUSE, 5, "x"),
        ("table:", HOUSE, 5, "x"),
        ("player:1", HOUSE, 0, "x"),
        ("player:1", HOUSE, -3, "x"),
        ("player:1", HOUSE, 2.5, "x"),
        ("player:1", HOUSE, True, "x"),
        ("player:1", HOUSE, 5, " "),
    ],
)
async def test_malformed_transfer_is_refused(
    store: Store, src: str, dst: str, amount: object, reason: str
) -> None:
    await funded_player(store, "a", 100)
    with pytest.raises(InvalidRequest):
        await store.transfer(src, dst, amount, reason)  # type: ignore[arg-type]
    assert await store.balance("player:1") == 100


async def test_transfer_to_unknown_player_is_not_found(store: Store) -> None:
    a = await funded_player(store, "a", 100)
    with pytest.raises(NotFound, match="no player with id 77"):
        await store.transfer(wallet(a), wallet(77), 5, "x")
    assert await store.balance(wallet(a)) == 100


async def test_account_helpers() -> None:
    assert wallet(3) == "player:3"
    assert escrow(4) == "table:4"
    with pytest.raises(InvalidRequest):
        wallet(0)
    with pytest.raises(InvalidRequest):
        escrow(-1)


async def test_balance_of_unused_account_is_zero(store: Store) -> None:
    assert await store.balance(wallet(5)) == 0
    with pytest.raises(InvalidRequest):
        await store.balance("nobody")


async def test_buy_in_and_cash_out(store: Store) -> None:
    a = await funded_player(store, "a", 100)
    table = await store.create_table("discord", "c1", "okey", {}, {})
    assert await store.buy_in(table.id, a, 60, "buy-1")
    assert not await store.buy_in(table.id, a, 60, "buy-1")
    assert await store.balance(escrow(table.id)) == 60
    with pytest.raises(InsufficientFunds):
        await store.cash_out(table.id, a, 61, "out-1")
    assert await store.cash_out(table.id, a, 50, "out-1")
    assert await store.balance(wallet(a)) == 90
    assert await store.audit() == []


async def test_buy_in_needs_an_open_table(store: Store) -> None:
    a = await funded_player(store, "a", 100)
    table = await store.create_table("discord", "c1", "okey", {}, {})
    with pytest.raises(NotFound):
        await store.buy_in(table.id + 1, a, 10)
    await store.buy_in(table.id, a, 10)
    await store.commit(table.id, 1, {}, status="closed")
    with pytest.raises(TableClosed):
        await store.buy_in(table.id, a, 10)
    # Chips left on a closed table can still go home.
    assert await store.cash_out(table.id, a, 10)
    assert await store.balance(wallet(a)) == 100


async def test_daily_grant_checks_its_arguments(store: Store) -> None:
    a = await funded_player(store, "a", 0)
    with pytest.raises(InvalidRequest):
        await store.daily_grant(a, 0, DAY)
    with pytest.raises(InvalidRequest):
        await store.daily_grant(a, 10, "2026-01-01")  # type: ignore[arg-type]
    with pytest.raises(NotFound):
        await store.daily_grant(a + 1, 10, date(2026, 1, 2))
