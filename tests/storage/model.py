"""A random workload for the Store and a plain-Python model of what it must do.

Used by the property tests: the same operations run on the database and on the model, and the
outcomes (returned values, errors) and final balances must agree.
"""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta

from hypothesis import strategies as st

from storage import (
    HOUSE,
    ChannelBusy,
    InsufficientFunds,
    StaleVersion,
    StorageError,
    Store,
    TableClosed,
    Transfer,
    escrow,
    wallet,
)
from storage.tables import scaled_refunds

PLAYERS = 4
CHANNELS = 2
KEYS = [None, None, None, "k0", "k1", "k2", "k3"]
DAY0 = date(2026, 1, 1)

player_ix = st.integers(0, PLAYERS - 1)
channel_ix = st.integers(0, CHANNELS - 1)
amount = st.integers(1, 400)
key = st.sampled_from(KEYS)
party = st.one_of(st.just("escrow"), st.just("house"), player_ix)
operation = st.one_of(
    st.tuples(st.just("grant"), player_ix, amount, st.integers(0, 3)),
    st.tuples(st.just("transfer"), st.one_of(player_ix, st.just("house")), player_ix, amount, key),
    st.tuples(st.just("open"), channel_ix),
    st.tuples(st.just("buy"), channel_ix, player_ix, amount, key),
    st.tuples(st.just("cash"), channel_ix, player_ix, amount, key),
    st.tuples(
        st.just("settle"),
        channel_ix,
        st.lists(st.tuples(party, party, amount), min_size=1, max_size=5),
        key,
    ),
    st.tuples(st.just("reset"), channel_ix, player_ix),
    st.tuples(st.just("close"), channel_ix),
)


def random_operation(rng: random.Random) -> tuple:
    """One operation drawn from ``rng`` (for the big concurrent run, outside hypothesis)."""
    kind = rng.choice(
        ["grant", "transfer", "open", "buy", "buy", "cash", "settle", "settle", "reset"]
    )
    p = lambda: rng.randrange(PLAYERS)  # noqa: E731
    c = rng.randrange(CHANNELS)
    a = rng.randint(1, 400)
    k = rng.choice([None, None, f"k{rng.randrange(200)}"])
    if kind == "grant":
        return ("grant", p(), a, rng.randrange(4))
    if kind == "transfer":
        return ("transfer", p(), p(), a, k)
    if kind == "open":
        return ("open", c)
    if kind in ("buy", "cash"):
        return (kind, c, p(), a, k)
    if kind == "settle":
        parties = ["escrow", "house", *range(PLAYERS)]
        moves = [(rng.choice(parties), rng.choice(parties), rng.randint(1, 200)) for _ in range(5)]
        return ("settle", c, moves, k)
    return ("reset", c, p())


@dataclass
class Model:
    """What the store must hold after a sequence of operations."""

    player_ids: list[int]
    balances: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    keys: dict[str, int | None] = field(default_factory=dict)
    tables: dict[int, int] = field(default_factory=dict)  # channel -> latest table id
    versions: dict[int, int] = field(default_factory=dict)
    closed: set[int] = field(default_factory=set)
    deposits: dict[int, dict[int, int]] = field(default_factory=lambda: defaultdict(dict))

    def transfers_ok(self, items: list[Transfer]) -> bool:
        after = dict(self.balances)
        for t in items:
            after[t.src] = after.get(t.src, 0) - t.amount
            after[t.dst] = after.get(t.dst, 0) + t.amount
        return all(v >= 0 for a, v in after.items() if a != HOUSE)

    def apply(self, items: list[Transfer]) -> None:
        for t in items:
            self.balances[t.src] -= t.amount
            self.balances[t.dst] += t.amount
            for table_id in self.versions:
                pot = escrow(table_id)
                for pid in self.player_ids:
                    if (t.src, t.dst) == (wallet(pid), pot):
                        self.deposits[table_id][pid] = (
                            self.deposits[table_id].get(pid, 0) + t.amount
                        )
                    elif (t.src, t.dst) == (pot, wallet(pid)):
                        self.deposits[table_id][pid] = (
                            self.deposits[table_id].get(pid, 0) - t.amount
                        )

    def account(self, who: object, table_id: int) -> str:
        if who == "escrow":
            return escrow(table_id)
        if who == "house":
            return HOUSE
        return wallet(self.player_ids[who])  # type: ignore[index]


async def run_op(store: Store, model: Model, op: tuple) -> object:
    """Apply ``op`` to the store and to the model; return the store's outcome for comparison."""
    kind = op[0]
    ids = model.player_ids
    if kind == "grant":
        _, p, amt, day = op
        got = await store.daily_grant(ids[p], amt, DAY0 + timedelta(days=day))
        k = f"daily:{ids[p]}:{(DAY0 + timedelta(days=day)).isoformat()}"
        return _expect_transfer(model, [Transfer(HOUSE, wallet(ids[p]), amt, "g")], k, got)
    if kind == "transfer":
        _, src, dst, amt, k = op
        src_acc = HOUSE if src == "house" else wallet(ids[src])
        if src_acc == wallet(ids[dst]):
            return None
        items = [Transfer(src_acc, wallet(ids[dst]), amt, "t")]
        return await _run_transfer(
            model, items, k, store.transfer(src_acc, wallet(ids[dst]), amt, "t", k)
        )
    if kind == "open":
        channel = op[1]
        current = model.tables.get(channel)
        try:
            record = await store.create_table("test", str(channel), "okey", {}, {"v": 1})
        except ChannelBusy:
            assert current is not None and current not in model.closed
            return "busy"
        assert current is None or current in model.closed
        model.tables[channel] = record.id
        model.versions[record.id] = 1
        return "opened"
    table_id = model.tables.get(op[1])
    if table_id is None:
        return None
    if kind in ("buy", "cash"):
        _, _, p, amt, k = op
        if kind == "buy":
            items = [Transfer(wallet(ids[p]), escrow(table_id), amt, "buy-in")]
            if table_id in model.closed and (k is None or k not in model.keys):
                return await _expect_error(store.buy_in(table_id, ids[p], amt, k), TableClosed)
            return await _run_transfer(model, items, k, store.buy_in(table_id, ids[p], amt, k))
        items = [Transfer(escrow(table_id), wallet(ids[p]), amt, "cash-out")]
        return await _run_transfer(model, items, k, store.cash_out(table_id, ids[p], amt, k))
    if kind == "settle":
        _, _, moves, k = op
        items = [
            Transfer(model.account(a, table_id), model.account(b, table_id), amt, "settle")
            for a, b, amt in moves
            if model.account(a, table_id) != model.account(b, table_id)
        ]
        version = model.versions[table_id]
        call = store.commit(
            table_id, version, {"v": version + 1}, transfers=items, idempotency_key=k
        )
        if k is not None and k in model.keys:
            got = await call
            assert got == (model.keys[k] or 0)
            return "repeat"
        if table_id in model.closed:
            return await _expect_error(call, TableClosed)
        if not model.transfers_ok(items):
            return await _expect_error(call, InsufficientFunds)
        got = await call
        assert got == version + 1
        model.versions[table_id] = got
        model.apply(items)
        if k is not None:
            model.keys[k] = got
        return "settled"
    if kind == "reset":
        _, _, mod = op
        if table_id in model.closed:
            return await _expect_error(store.reset_table(table_id, ids[mod], "test"), TableClosed)
        held = model.balances[escrow(table_id)]
        expected = scaled_refunds(model.deposits[table_id], held)
        got = await store.reset_table(table_id, ids[mod], "test")
        assert got == expected
        items = [Transfer(escrow(table_id), wallet(p), c, "reset") for p, c in got.items()]
        if held and not got:
            items.append(Transfer(escrow(table_id), HOUSE, held, "reset"))
        model.apply(items)
        model.closed.add(table_id)
        model.versions[table_id] += 1
        return "reset"
    if kind == "close":
        version = model.versions[table_id]
        call = store.commit(table_id, version, {}, status="closed")
        if table_id in model.closed:
            return await _expect_error(call, TableClosed)
        assert await call == version + 1
        model.versions[table_id] += 1
        model.closed.add(table_id)
        return "closed"
    raise AssertionError(op)


async def _run_transfer(model: Model, items: list[Transfer], k: str | None, call: object) -> object:
    if k is not None and k in model.keys:
        assert await call is False  # type: ignore[misc]
        return False
    if not model.transfers_ok(items):
        return await _expect_error(call, InsufficientFunds)
    assert await call is True  # type: ignore[misc]
    model.apply(items)
    if k is not None:
        model.keys[k] = None
    return True


def _expect_transfer(model: Model, items: list[Transfer], k: str, got: bool) -> bool:
    assert got is (k not in model.keys)
    if got:
        model.apply(items)
        model.keys[k] = None
    return got


async def _expect_error(call: object, error: type[Exception]) -> str:
    try:
        await call  # type: ignore[misc]
    except error:
        return error.__name__
    raise AssertionError(f"expected {error.__name__}")


async def make_players(store: Store) -> list[int]:
    """Create the workload's players."""
    return [(await store.player("test", f"u{i}", f"P{i}")).id for i in range(PLAYERS)]


async def run_loose(store: Store, player_ids: list[int], op: tuple, retries: int = 200) -> None:
    """Apply ``op`` with no model, tolerating refusals; settlements retry on a stale version."""
    kind = op[0]
    try:
        if kind == "grant":
            await store.daily_grant(player_ids[op[1]], op[2], DAY0 + timedelta(days=op[3]))
        elif kind == "transfer" and op[1] != op[2]:
            await store.transfer(
                wallet(player_ids[op[1]]), wallet(player_ids[op[2]]), op[3], "t", op[4]
            )
        elif kind == "open":
            await store.create_table("test", str(op[1]), "okey", {}, {})
        elif kind in ("buy", "cash", "settle", "reset"):
            table = await store.table_in_channel("test", str(op[1]))
            if table is None:
                return
            if kind == "buy":
                await store.buy_in(table.id, player_ids[op[2]], op[3], op[4])
            elif kind == "cash":
                await store.cash_out(table.id, player_ids[op[2]], op[3], op[4])
            elif kind == "reset":
                await store.reset_table(table.id, player_ids[op[2]], "test")
            else:
                await _settle_with_retry(store, player_ids, table.id, op, retries)
    except (InsufficientFunds, ChannelBusy, TableClosed, StaleVersion):
        pass


async def _settle_with_retry(
    store: Store, player_ids: list[int], table_id: int, op: tuple, retries: int
) -> None:
    model = Model(player_ids)
    items = [
        Transfer(model.account(a, table_id), model.account(b, table_id), amt, "settle")
        for a, b, amt in op[2]
        if model.account(a, table_id) != model.account(b, table_id)
    ]
    for _ in range(retries):
        version = (await store.get_table(table_id)).version
        try:
            await store.commit(table_id, version, {}, transfers=items, idempotency_key=op[3])
            return
        except StaleVersion:
            await asyncio.sleep(0)
    raise StorageError("gave up after repeated stale versions")
