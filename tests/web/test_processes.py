"""Several processes on one PostgreSQL database: a page connected to one process sees a move
another process commits (LISTEN/NOTIFY on the table version). Each "process" is a core with a
store of its own (its own connections, as in `testkit.scale`); skipped without
TEST_DATABASE_URL, and on SQLite (one process: nothing to listen to)."""

from __future__ import annotations

import pytest

from storage import Store
from storage.notify import asyncpg_dsn, parse_payload
from testkit.helpers import cmd, make_core
from testkit.web import receive_until, serve_web


def test_payloads_and_addresses():
    assert parse_payload("12:7") == (12, 7)
    assert parse_payload("x:7") is None and parse_payload("12") is None
    assert asyncpg_dsn("postgresql+asyncpg://u@h:1/d") == "postgresql://u@h:1/d"
    assert asyncpg_dsn("sqlite+aiosqlite:///x.db") is None


async def test_a_page_on_one_process_sees_a_move_committed_by_another(db_url, backend):
    if backend != "postgresql":
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's")
    store_a = await Store.open(db_url, migrate=True)
    store_b = await Store.open(db_url, migrate=False)
    try:
        core_a, core_b = make_core(store_a), make_core(store_b)
        for line in ("/okey start", "/okey join"):
            await core_b.handle(cmd("ayse", line))
        for user in ("mehmet", "cem", "deniz"):
            await core_b.handle(cmd(user, "/okey join"))
        await core_b.handle(cmd("ayse", "/okey begin"))
        table = str(core_b.tables.in_channel("test", "c1").id)
        async with serve_web(core_a) as web:  # the page talks to process A only
            pages = {u: await web.viewer(u, table) for u in ("ayse", "mehmet", "cem", "deniz")}
            user, (ws, first) = next((u, p) for u, p in pages.items() if p[1]["view"]["actions"])
            tile = first["view"]["mine"][0]
            # process B makes the move (as the chat's /okey discard would)
            out = await core_b.handle(cmd(user, f"/okey discard {tile}"))
            assert not [o for o in out if o.kind.name == "ERROR"], out
            state = await receive_until(ws, "state", timeout=10)
            assert state["view"]["nonce"] != first["view"]["nonce"]
            assert len(state["view"]["mine"]) == 14
    finally:
        await store_a.close()
        await store_b.close()
