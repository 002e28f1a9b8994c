"""Moderator reset: escrow refunded, table closed, the reset logged."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from storage import (
    HOUSE,
    InvalidRequest,
    NotFound,
    StaleVersion,
    Store,
    TableClosed,
    Transfer,
    escrow,
    wallet,
)
from storage.tables import scaled_refunds
from tests.storage.helpers import funded_player


async def test_reset_refunds_net_deposits(store: Store) -> None:
    a = await funded_player(store, "a", 100)
    b = await funded_player(store, "b", 100)
    mod = await funded_player(store, "mod", 0)
    table = await store.create_table("discord", "c", "turkish", {}, {})
    await store.buy_in(table.id, a, 60)
    await store.buy_in(table.id, b, 40)
    await store.cash_out(table.id, a, 10)
    refunded = await store.reset_table(table.id, mod, "bot stuck")
    assert refunded == {a: 50, b: 40}
    assert await store.balance(escrow(table.id)) == 0
    assert await store.balance(wallet(a)) == 100
    stored = await store.get_table(table.id)
    assert (stored.status, stored.version) == ("closed", 2)
    entry = (await store.actions(table.id))[-1]
    assert entry.player_id == mod
    assert entry.action == {
        "kind": "reset",
        "moderator_id": mod,
        "reason": "bot stuck",
        "refunds": {str(a): 50, str(b): 40},
    }
    with pytest.raises(TableClosed):
        await store.reset_table(table.id, mod, "again")
    # A play still in flight on the old version cannot land on the closed table.
    with pytest.raises(TableClosed):
        await store.commit(table.id, 1, {})
    assert await store.audit() == []


async def test_reset_scales_when_escrow_shrank(store: Store) -> None:
    a = await funded_player(store, "a", 100)
    b = await funded_player(store, "b", 100)
    table = await store.create_table("discord", "c", "turkish", {}, {})
    await store.buy_in(table.id, a, 50)
    await store.buy_in(table.id, b, 50)
    await store.commit(table.id, 1, {}, transfers=[Transfer(escrow(table.id), HOUSE, 33, "rake")])
    assert await store.reset_table(table.id, a, "end") == {a: 34, b: 33}
    assert await store.balance(escrow(table.id)) == 0


async def test_reset_with_explicit_refunds(store: Store) -> None:
    a = await funded_player(store, "a", 100)
    b = await funded_player(store, "b", 100)
    table = await store.create_table("discord", "c", "turkish", {}, {})
    await store.buy_in(table.id, a, 50)
    await store.buy_in(table.id, b, 50)
    with pytest.raises(InvalidRequest, match="add up to 90 but table"):
        await store.reset_table(table.id, a, "x", refunds={a: 50, b: 40})
    with pytest.raises(NotFound):
        await store.reset_table(table.id, a, "x", refunds={a: 50, 999: 50})
    with pytest.raises(NotFound):
        await store.reset_table(table.id, 999, "x")
    with pytest.raises(InvalidRequest):
        await store.reset_table(table.id, a, "x", refunds={a: -1})
    assert (await store.get_table(table.id)).status == "open"
    assert await store.reset_table(table.id, b, "stacks", refunds={a: 80, b: 20}) == {a: 80, b: 20}
    assert await store.balance(wallet(a)) == 130
    assert await store.audit() == []


async def test_reset_returns_house_chips_to_the_house(store: Store) -> None:
    mod = await funded_player(store, "mod", 0)
    table = await store.create_table("discord", "c", "okey", {}, {})
    await store.transfer(HOUSE, escrow(table.id), 25, "prize pool")
    assert await store.reset_table(table.id, mod, "cancelled") == {}
    assert await store.balance(escrow(table.id)) == 0
    assert await store.balance(HOUSE) == 0
    assert await store.audit() == []


async def test_reset_empty_table_and_stale_writer(store: Store) -> None:
    mod = await funded_player(store, "mod", 0)
    table = await store.create_table("discord", "c", "okey", {}, {})
    assert await store.reset_table(table.id, mod, "idle") == {}
    with pytest.raises((StaleVersion, TableClosed)):
        await store.commit(table.id, 1, {})


@given(
    deposits=st.dictionaries(st.integers(1, 50), st.integers(-100, 10_000), max_size=8),
    held=st.integers(0, 50_000),
)
def test_scaled_refunds_pay_out_the_escrow_exactly(deposits: dict[int, int], held: int) -> None:
    refunds = scaled_refunds(deposits, held)
    positive = {p: d for p, d in deposits.items() if d > 0}
    if positive and held:
        assert sum(refunds.values()) == held
        assert set(refunds) <= set(positive)
        total = sum(positive.values())
        for player, chips in refunds.items():
            exact = positive[player] * held / total
            assert exact - 1 < chips < exact + 1
    else:
        assert refunds == {}


async def test_reset_computes_refunds_from_the_committed_snapshot(store: Store) -> None:
    a = await funded_player(store, "a", 100)
    b = await funded_player(store, "b", 100)
    table = await store.create_table("discord", "c", "turkish", {}, {"stacks": {}})
    await store.buy_in(table.id, a, 50)
    await store.buy_in(table.id, b, 50)
    # another writer commits a hand: a won 30 of b's chips
    version = (await store.get_table(table.id)).version
    await store.commit(table.id, version, {"stacks": {str(a): 80, str(b): 20}})
    seen: list[dict] = []

    def refunds_of(snapshot: dict) -> dict[int, int]:
        seen.append(snapshot)
        return {int(p): c for p, c in snapshot["stacks"].items()}

    with pytest.raises(InvalidRequest, match="not both"):
        await store.reset_table(table.id, a, "x", refunds={a: 50}, refunds_of=refunds_of)
    assert await store.reset_table(table.id, b, "late", refunds_of=refunds_of) == {a: 80, b: 20}
    assert seen == [{"stacks": {str(a): 80, str(b): 20}}]
    assert await store.audit() == []
