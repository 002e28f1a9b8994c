"""Restart tests of the table games: the same script played twice on SQLite files with the same
seeded deals, the second time with a restart (a new store connection and a new core, as after
a crash or a deploy) at some step; everything answered after it must be what the first play
answered, and the table must end the same."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot.core.messages import OutKind
from bot.core.table.fairness import SeededSource
from storage import Store, escrow
from testkit.drive import live_session
from testkit.helpers import cmd, make_core, public_text

Trace = list[list[tuple[OutKind, str | None, str]]]  # per step: (kind, user, text) answered
Move = Callable[[Any, random.Random], tuple[str, str]]  # (session, rng) -> (user, command)


async def play_with_restart(
    path: Path,
    seed: str,
    prelude: Sequence[str],
    steps: int,
    move: Move,
    restart_at: int | None,
    move_seed: int = 0,
) -> tuple[Trace, dict[str, Any]]:
    """Play `prelude` (`"user: /command"` lines), then `steps` moves chosen by `move` (with a
    `random.Random(move_seed)`), on a fresh database at `path` with the deals seeded by `seed`;
    before step `restart_at` (None: never) the store is closed and a new core started on it,
    which must say the table is back. What each move answered, and the escrow and the match at
    the end."""
    url = f"sqlite+aiosqlite:///{path}"
    store = await Store.open(url)
    seeds = SeededSource(seed)
    core = make_core(store)
    core.tables.seeds = seeds
    for line in prelude:
        user, _, text = line.partition(": ")
        await core.handle(cmd(user, text))
    trace: Trace = []
    rng = random.Random(move_seed)
    for step in range(steps):
        if step == restart_at:
            await store.close()
            store = await Store.open(url)
            core = make_core(store)
            core.tables.seeds = seeds  # later rounds draw the same seeds as the other play
            assert "is back" in public_text(await core.start())
        user, text = move(live_session(core), rng)
        out = await core.handle(cmd(user, text))
        trace.append([(o.kind, o.user_id, o.text) for o in out])
    session = live_session(core)
    end = {
        "escrow": await store.balance(escrow(session.table_id)),
        "match": session.match.to_dict(),
    }
    await store.close()
    return trace, end


async def resumes_exactly(
    folder: Path,
    seed: str,
    prelude: Sequence[str],
    steps: int,
    move: Move,
    restart_at: int,
    move_seed: int = 0,
) -> Trace:
    """Play the script straight and with a restart before step `restart_at` (see
    `play_with_restart`), assert both answered and ended alike; the straight play's answers."""
    straight = await play_with_restart(
        folder / f"{seed}-straight.db", seed, prelude, steps, move, None, move_seed
    )
    restarted = await play_with_restart(
        folder / f"{seed}-{restart_at}.db", seed, prelude, steps, move, restart_at, move_seed
    )
    assert restarted == straight
    return straight[0]
