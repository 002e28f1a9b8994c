"""Racing writers: one version wins, two stores (two processes' worth) share one database safely."""

from __future__ import annotations

import asyncio

from storage import InsufficientFunds, StaleVersion, Store, Transfer, escrow, wallet
from tests.storage.helpers import funded_player


async def test_racing_commits_on_one_version_apply_once(store: Store) -> None:
    a = await funded_player(store, "a", 100)
    table = await store.create_table("discord", "c", "turkish", {}, {"n": 0})
    await store.buy_in(table.id, a, 100)

    async def press(n: int) -> int | None:
        try:
            return await store.commit(
                table.id,
                1,
                {"n": n},
                transfers=[Transfer(escrow(table.id), wallet(a), 10, "pot")],
            )
        except StaleVersion:
            return None

    outcomes = await asyncio.gather(*(press(n) for n in range(20)))
    assert outcomes.count(None) == 19
    assert [o for o in outcomes if o is not None] == [2]
    assert len(await store.actions(table.id)) == 0
    assert await store.balance(escrow(table.id)) == 90


async def test_two_stores_on_one_database(stores: list[Store]) -> None:
    first, second = stores
    a = await funded_player(first, "a", 1000)
    b = await funded_player(first, "b", 1000)

    async def pay(store: Store, src: int, dst: int) -> bool:
        try:
            return await store.transfer(wallet(src), wallet(dst), 7, "x")
        except InsufficientFunds:
            return False

    jobs = [pay(first, a, b) for _ in range(150)] + [pay(second, b, a) for _ in range(150)]
    jobs += [pay(second, a, b) for _ in range(150)]
    done = await asyncio.gather(*jobs)
    assert all(isinstance(x, bool) for x in done)
    assert await first.audit() == []
    assert await first.balance(wallet(a)) + await second.balance(wallet(b)) == 2000
    assert min(await first.balance(wallet(a)), await first.balance(wallet(b))) >= 0


async def test_memory_store_reads_never_overlap_a_write(memory_store: Store) -> None:
    """One shared connection holds the in-memory database: a read started while a write is
    open on it must wait, or its BEGIN fails ("cannot start a transaction within a
    transaction"), as a web table's view read beside a press's commit once did."""
    a = await funded_player(memory_store, "a", 100)
    b = await funded_player(memory_store, "b", 0)
    table = await memory_store.create_table("web", "c", "turkish", {}, {"n": 0})

    async def look() -> int:
        return (await memory_store.get_table(table.id)).version

    done = await asyncio.gather(
        memory_store.commit(table.id, 1, {"n": 1}),
        *(memory_store.transfer(wallet(a), wallet(b), 1, "x") for _ in range(10)),
        *(look() for _ in range(10)),
        *(memory_store.balance(wallet(b)) for _ in range(10)),
    )
    assert done[0] == 2
    assert await memory_store.balance(wallet(b)) == 10
    assert await memory_store.audit() == []
