"""The scale benchmark's worker: it plays whole hands from the driver's commands and presses, and
today every message of a table is routed to the process that opened it."""

from __future__ import annotations

import random
from pathlib import Path

from benchmarks.bench_scale import Worker, route
from bot.core.app import Core
from bot.core.config import CoreConfig
from bot.core.table.fairness import SeededSource
from storage import Store


async def test_worker_plays_hands_from_commands_and_presses(tmp_path: Path) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/bot.db")
    try:
        worker = Worker(Core(store, CoreConfig(default_locale="en"), seeds=SeededSource("t")))
        state = await worker.serve({"kind": "seat", "channel": "c"})
        moves = presses = seats = 0
        for turn in range(120):
            if state["seat"]:
                state = await worker.serve({"kind": "seat", "channel": "c"})
                seats += 1
                continue
            as_press = turn % 2 == 1 and state["button"] is not None
            state = await worker.serve(
                {
                    "kind": "press" if as_press else "command",
                    "channel": "c",
                    "user": state["user"],
                    "line": state["line"],
                    "button": state["button"],
                }
            )
            assert state["refused"] == 0
            moves += 1
            presses += as_press
        assert moves > 100 and presses > 30
        assert await store.audit() == []
    finally:
        await store.close()


def test_route_keeps_a_table_on_its_owner() -> None:
    rng = random.Random(1)
    assert {route(f"t{i}", i % 3, 3, rng) for i in range(9)} == {0, 1, 2}
    assert all(route("t", 2, 3, rng) == 2 for _ in range(20))
