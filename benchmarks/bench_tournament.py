"""A 64-entrant Okey tournament of computer players, from registration to payout, through the core.

64 players register (`/tournament join`, entry fee 100), the organiser starts it; stage 1 seats
16 tables, each playing a 1-round match. Every entrant times out on the test clock (turn limit
60 s, two time-outs and the computer stands in), so the computer plays everyone; the core's
timer (`tick`) is called with the clock moved on 61 s until the tournament has paid out. Printed:
wall time and CPU time of the whole run, commits, ticks, stages, peak memory (the process's peak resident size, `ru_maxrss`, and the Python heap's growth; tracemalloc
would slow the run several times) and
the ledger audit. SQLite in memory, one process.

Run: `.venv/bin/python -m benchmarks.bench_tournament [entrants]` (default 64).
"""

from __future__ import annotations

import asyncio
import resource
import sys
import time

from bot.core.tournament.state import Tournament
from storage import Store, tournament_escrow
from testkit.helpers import Clock, cmd, errors, make_core


async def run(entrants: int) -> None:
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    store = await Store.open("sqlite+aiosqlite://")
    commits = 0
    original = store.commit

    async def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        nonlocal commits
        commits += 1
        return await original(*args, **kwargs)

    store.commit = counted  # type: ignore[method-assign]
    clock = Clock()
    core = make_core(store, clock=clock)
    wall, cpu = time.perf_counter(), time.process_time()
    await core.handle(cmd("org", "/tournament okey 100 1 16"))
    for i in range(entrants):
        out = await core.handle(cmd(f"p{i}", "/tournament join"))
        assert not errors(out), errors(out)
    registered = time.perf_counter() - wall
    await core.handle(cmd("org", "/tournament start"))
    ticks = 0
    while (await store.get_tournament(1)).status != "finished":
        clock.advance(61)
        await core.tick()
        ticks += 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    rss_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    record = await store.get_tournament(1)
    state = Tournament.from_dict(record.snapshot, 1)
    print(
        f"entrants {entrants}: stages {len(state.stages)} "
        f"(tables per stage {[len(s.tables) for s in state.stages]})"
    )
    print(
        f"wall {wall:.2f} s (registration {registered:.2f} s), CPU {cpu:.2f} s, "
        f"table commits {commits}, ticks {ticks}"
    )
    print(
        f"peak resident memory {rss_peak / 1024:.1f} MB (before the run {rss_before / 1024:.1f} MB)"
    )
    print(
        f"prizes {state.prizes} of pool {state.pool()}; escrow left "
        f"{await store.balance(tournament_escrow(1))}; audit {await store.audit() or 'clean'}"
    )
    await store.close()


if __name__ == "__main__":
    asyncio.run(run(int(sys.argv[1]) if len(sys.argv) > 1 else 64))
