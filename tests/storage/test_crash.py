"""A process killed (SIGKILL) in the middle of a settlement leaves all of it or none of it."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlalchemy as sa

from storage import Store, escrow, wallet
from storage.models import action_log, game_results, ledger
from testkit.databases import Clock, clear_postgres
from tests.storage.crash_child import NET_WIN, PLAYERS, TRANSFERS

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")


async def _prepare(backend: str, url: str) -> int:
    if backend == "postgresql":
        await clear_postgres(url)
    store = await Store.open(url, clock=Clock())
    try:
        ids = [(await store.player("test", f"u{i}", f"P{i}")).id for i in range(2)]
        assert tuple(ids) == PLAYERS
        table = await store.create_table("test", "crash", "turkish", {}, {"hand": 0})
        for player in ids:
            await store.transfer("house", wallet(player), 10_000, "grant")
            await store.buy_in(table.id, player, 5_000)
        return table.id
    finally:
        await store.close()


async def _state(url: str, table_id: int) -> dict:
    store = await Store.open(url, migrate=False)
    try:
        async with store.engine.connect() as conn:
            counts = {
                t.name: await conn.scalar(sa.select(sa.func.count()).select_from(t))
                for t in (ledger, action_log, game_results)
            }
        table = await store.get_table(table_id)
        return {
            "version": table.version,
            "hand": table.snapshot["hand"],
            "escrow": await store.balance(escrow(table_id)),
            "wallets": [await store.balance(wallet(p)) for p in PLAYERS],
            "audit": await store.audit(),
            **counts,
        }
    finally:
        await store.close()


def _child(url: str, table_id: int, mode: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.storage.crash_child", url, str(table_id), mode],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def _kill_after(child: subprocess.Popen[str], wanted: Callable[[str], bool]) -> list[str]:
    lines = []
    assert child.stdout is not None
    for line in child.stdout:
        lines.append(line.strip())
        if wanted(line) or len(lines) > 20:
            break
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert lines and wanted(lines[-1]), f"child ended early: {lines}, rc={child.returncode}"
    return lines


def test_kill_midway_writes_nothing(backend: str, url_factory: Callable[..., str]) -> None:
    url = url_factory()
    table_id = asyncio.run(_prepare(backend, url))
    before = asyncio.run(_state(url, table_id))
    _kill_after(_child(url, table_id, "hook"), lambda line: line.startswith("MIDWAY"))
    after = asyncio.run(_state(url, table_id))
    assert after == before
    assert after["audit"] == []

    async def play_on() -> int:
        store = await Store.open(url)
        try:
            return await store.commit(table_id, before["version"], {"hand": 1})
        finally:
            await store.close()

    # Nothing stays locked: the interrupted version is still the current one.
    assert asyncio.run(play_on()) == before["version"] + 1


def test_kill_at_any_moment_keeps_whole_settlements(
    backend: str, url_factory: Callable[..., str]
) -> None:
    url = url_factory()
    table_id = asyncio.run(_prepare(backend, url))
    before = asyncio.run(_state(url, table_id))
    lines = _kill_after(_child(url, table_id, "loop"), lambda line: line.startswith("COMMITTED 4"))
    assert lines[-1] == f"COMMITTED {before['version'] + 3}"
    after = asyncio.run(_state(url, table_id))
    done = after["version"] - before["version"]
    # Three settlements were confirmed; more may have committed before the kill landed. Whatever
    # the count, each one is there completely: its log entry, its 400 transfers, its results.
    assert done >= 3
    assert after["action_log"] - before["action_log"] == done
    assert after["ledger"] - before["ledger"] == done * TRANSFERS
    assert after["game_results"] - before["game_results"] == done * len(PLAYERS)
    assert after["escrow"] == before["escrow"]
    p1, p2 = before["wallets"]
    assert after["wallets"] == [p1 + done * NET_WIN, p2 - done * NET_WIN]
    assert after["audit"] == []
