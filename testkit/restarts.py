"""Restart tests of the table games: the same script played twice on SQLite files with the same
seeded deals, the second time with restarts (a new store connection and a new core, as after a
crash or a deploy) before some steps; everything answered after them must be what the first play
answered, and at every restart and at the end the table must be the same for every viewer and
the books (ledger, results, penalties, seeds, action log, snapshot) the same row for row."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from bot.core.app import Core, view_of
from bot.core.messages import OutKind
from bot.core.table.fairness import SeededSource
from storage import Store
from testkit.drive import live_session
from testkit.helpers import cmd, make_core, public_text
from testkit.stores import STORE_TIME

Trace = list[list[tuple[OutKind, str | None, str]]]  # per step: (kind, user, text) answered
Move = Callable[[Any, random.Random], tuple[str, str]]  # (session, rng) -> (user, command)

SPECTATOR = "zeynep"  # a viewer who sits at no table
# Every row a step writes, in a fixed order. Player rows are left out: their `last_seen` is the
# wall clock's; everything else is on the test's clocks.
BOOKS = {
    "tables": "id",
    "wallets": "account",
    "ledger": "id",
    "applied_keys": "key",
    "action_log": "id",
    "game_results": "id",
    "win_tallies": "player_id, community",
    "okey101_tallies": "player_id, community",
    "okey_penalties": "id",
    "hand_seeds": "hand_id",
}


@dataclass
class Play:
    """What one play answered at each step, and its state (`state_of`) before each checkpoint
    step and at the end (key `None`)."""

    trace: Trace = field(default_factory=list)
    states: dict[int | None, dict[str, Any]] = field(default_factory=dict)


def unnonced(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A session snapshot without its turn nonce (random in every play, `secrets`)."""
    return {name: value for name, value in snapshot.items() if name != "nonce"}


async def books(store: Store) -> dict[str, list[dict[str, Any]]]:
    """Every row of the tables in `BOOKS`, in key order (a table's snapshot without its nonce)."""
    out: dict[str, list[dict[str, Any]]] = {}
    async with store.engine.connect() as conn:
        for table, order in BOOKS.items():
            rows = await conn.execute(sa.text(f"SELECT * FROM {table} ORDER BY {order}"))
            out[table] = [dict(row._mapping) for row in rows]
    for row in out["tables"]:
        row["snapshot"] = unnonced(json.loads(row["snapshot"]))
    return out


async def state_of(core: Core, store: Store, users: Sequence[str]) -> dict[str, Any]:
    """The table as each of `users` and a spectator sees it (`TableView`), the match's snapshot
    and every seat's engine view, the session's snapshot, and the books (no turn nonce)."""
    session = live_session(core)
    match = session.match
    return {
        "views": {user: replace(view_of(session, user), nonce="") for user in [*users, SPECTATOR]},
        "match": None if match is None else match.to_dict(),
        "seat_views": None
        if match is None or match.round is None
        else [match.view(seat) for seat in [None, *range(len(match.players))]],
        "session": unnonced(session.to_dict()),
        "books": await books(store),
    }


async def play_with_restart(
    path: Path,
    seed: str,
    prelude: Sequence[str],
    steps: int,
    move: Move,
    restarts: Collection[int],
    checkpoints: Collection[int],
    move_seed: int = 0,
) -> Play:
    """Play `prelude` (`"user: /command"` lines), then `steps` moves chosen by `move` (with a
    `random.Random(move_seed)`), on a fresh database at `path` with the deals seeded by `seed`;
    before each step of `restarts` the store is closed and a new core started on it, which must
    say the table is back. The state is taken before each step of `checkpoints` (after the
    restart there is one) and at the end."""
    url = f"sqlite+aiosqlite:///{path}"
    store = await Store.open(url, clock=lambda: STORE_TIME)
    seeds = SeededSource(seed)
    core = make_core(store)
    core.tables.seeds = seeds
    users: list[str] = []
    for line in prelude:
        user, _, text = line.partition(": ")
        users += [] if user in users else [user]
        await core.handle(cmd(user, text))
    play = Play()
    rng = random.Random(move_seed)
    for step in range(steps):
        if step in restarts:
            await store.close()
            store = await Store.open(url, clock=lambda: STORE_TIME)
            core = make_core(store)
            core.tables.seeds = seeds  # later rounds draw the same seeds as the other play
            assert "is back" in public_text(await core.start())
        if step in checkpoints:
            play.states[step] = await state_of(core, store, users)
        user, text = move(live_session(core), rng)
        out = await core.handle(cmd(user, text))
        play.trace.append([(o.kind, o.user_id, o.text) for o in out])
    play.states[None] = await state_of(core, store, users)
    await store.close()
    return play


async def resumes_exactly(
    folder: Path,
    seed: str,
    prelude: Sequence[str],
    steps: int,
    move: Move,
    restarts: Collection[int],
    move_seed: int = 0,
) -> Play:
    """Play the script straight and with restarts before the steps `restarts` (see
    `play_with_restart`), assert both answered alike at every step and were in the same state
    at every restart and at the end; the straight play."""
    straight = await play_with_restart(
        folder / f"{seed}-straight.db", seed, prelude, steps, move, (), restarts, move_seed
    )
    restarted = await play_with_restart(
        folder / f"{seed}-restarted.db", seed, prelude, steps, move, restarts, restarts, move_seed
    )
    for step, answers in enumerate(straight.trace):
        assert restarted.trace[step] == answers, f"step {step} answered otherwise"
    for step, state in straight.states.items():
        for part, value in state.items():
            assert restarted.states[step][part] == value, f"{part} differs at {step}"
    return straight
