"""A kept seat (issue 37, item 1): how long a table waits for a dropped player's seat, and how
long the computer that keeps it takes to decide.

Plays tables of Türk pokeri, Açık poker, Okey and 101 Okey through the real core on SQLite files
(`bot.core.app.Core`, the store, the turn timer's `tick`) on a virtual clock: the other players
move at once (`testkit.hidden.random_move`), the dropped player never does. Reports, per game:

- virtual time: how long each of the dropped player's turns held the table up, split into the
  turns before the away decision (the peer: a player who is not away waits out the turn time,
  `turn_seconds`, until `afk_limit` time-outs) and the kept seat's turns (from the away decision,
  and from the step that passed it the turn): 0 s means played within the turn time, in the
  very step that gave it the turn;
- wall clock: the kept seat's decisions (`auto_move` at the `normal` level, the whole turn of
  an Okey seat), median / p99 / worst, side by side with the old stand-in's (`easy` and the
  cautious check or fold) on the same positions, and the whole step from the tick to its
  answer (the commit included).

Run: `.venv/bin/python -m benchmarks.bench_kept [--tables 6] [--seconds 60]`.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

from bot.core.okey.session import OkeySession
from bot.core.okey101.session import Okey101Session
from bot.core.table import ai
from bot.core.table.kept import KEPT_LEVEL
from storage import Store
from testkit.drive import live_session
from testkit.helpers import Clock, cmd, make_core
from testkit.hidden import random_move

TURN = 60.0
AFK_LIMIT = 2
DROPPED = "mehmet"
PRELUDES = {
    "turkish": ["ayse: /poker open turkish 5", "ayse: /poker join 300", "mehmet: /poker join 300",
                "cem: /poker join 300", "ayse: /poker start"],
    "acik": ["ayse: /poker open acik 5", "ayse: /poker join 300", "mehmet: /poker join 300",
             "cem: /poker join 300", "ayse: /poker start"],
    "okey": ["ayse: /okey start 3 10", "mehmet: /okey join", "cem: /okey join",
             "ayse: /okey begin"],
    "okey101": ["ayse: /okey start 101 3 10", "mehmet: /okey join", "cem: /okey join",
                "ayse: /okey begin"],
}  # fmt: skip


class Timings:
    """The kept seat's decisions (ms) at `normal` and the old stand-in's on the same
    positions."""

    def __init__(self) -> None:
        self.kept: list[float] = []
        self.old: list[float] = []


def timed(call: Callable[[], Any], into: list[float]) -> Any:
    """`call()`, its wall-clock time in ms appended to `into`."""
    start = time.perf_counter()
    result = call()
    into.append((time.perf_counter() - start) * 1000)
    return result


def wrap(timings: Timings) -> Callable[[], None]:
    """Time each decision of a kept seat (the only non-cautious `normal` poker moves and Okey
    moves here: no computer player sits at these tables) and the old stand-in's decision on
    the same position (poker: the cautious check or fold; Okey: `easy`); returns the undo."""
    poker_move = ai.poker_move
    okey, okey101 = OkeySession._computer_action, Okey101Session._computer_action

    def poker(engine: Any, seat: int, cautious: bool, level: str = "easy") -> Any:
        if cautious or level != KEPT_LEVEL:
            return poker_move(engine, seat, cautious, level)
        timed(lambda: poker_move(engine, seat, True, "easy"), timings.old)
        return timed(lambda: poker_move(engine, seat, False, level), timings.kept)

    def tiles(original: Any) -> Any:
        def action(self: Any, game: Any, index: int, level: str) -> Any:
            if level != KEPT_LEVEL:
                return original(self, game, index, level)
            timed(lambda: original(self, game, index, "easy"), timings.old)
            return timed(lambda: original(self, game, index, level), timings.kept)

        return action

    ai.poker_move = poker  # type: ignore[assignment]
    OkeySession._computer_action = tiles(okey)  # type: ignore[method-assign]
    Okey101Session._computer_action = tiles(okey101)  # type: ignore[method-assign]

    def undo() -> None:
        ai.poker_move = poker_move  # type: ignore[assignment]
        OkeySession._computer_action = okey  # type: ignore[method-assign]
        Okey101Session._computer_action = okey101  # type: ignore[method-assign]

    return undo


async def one_table(game: str, path: Path, number: int, out: dict[str, list[float]]) -> None:
    """Play one table until the dropped player left or a few hands or rounds went by."""
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    clock = Clock()
    core = make_core(store, seed=f"kept-{game}-{number}", clock=clock, turn_seconds=TURN,
                     afk_limit=AFK_LIMIT)  # fmt: skip
    try:
        for line in PRELUDES[game]:
            user, _, text = line.partition(": ")
            await core.handle(cmd(user, text))
        session = live_session(core)
        table = session.table_id
        dropped = next(s.player_id for s in session.seats if s.user_id == DROPPED)
        rng = random.Random(number)
        for _ in range(3000):
            session = live_session(core)
            if session is None or session.find(dropped) is None or session.hand_no > 4:
                break
            index = session.actor()
            if index is None:
                await core.tick(clock.advance(10))
                continue
            if session.seats[index].player_id == dropped:
                start = time.perf_counter()
                await core.tick(clock.advance(TURN + 1))
                out["step"].append((time.perf_counter() - start) * 1000)
                continue
            user, text = random_move(session, rng)
            await core.handle(cmd(user, text))
        log = await store.actions(table)
        for before, record in pairwise(log):
            if record.player_id != dropped or not record.action.get("auto"):
                continue
            waited = (record.at - before.at).total_seconds()
            if record.action.get("kept"):
                out["kept_from_decision" if record.action.get("timeout") else "kept"].append(
                    0.0 if record.action.get("timeout") else waited
                )
            else:
                out["peer"].append(waited)
    finally:
        await core.close()
        await store.close()


def line(name: str, values: list[float], unit: str) -> str:
    """Median, p99 and worst of `values`."""
    if not values:
        return f"  {name:<44} (none)"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    median = statistics.median(ordered)
    return (
        f"  {name:<44} n={len(values):5}  median {median:8.2f} {unit}  p99 {p99:8.2f} {unit}  "
        f"worst {ordered[-1]:8.2f} {unit}"
    )


async def main(tables: int, seconds: float) -> None:
    """Every game, `tables` tables each (fewer when `seconds` run out)."""
    deadline = time.monotonic() + seconds
    print(f"kept seat: turn {TURN:g} s, away after {AFK_LIMIT} time-outs, virtual clock")
    with tempfile.TemporaryDirectory() as folder:
        for game in PRELUDES:
            timings = Timings()
            undo = wrap(timings)
            found: dict[str, list[float]] = {
                "peer": [], "kept_from_decision": [], "kept": [], "step": []
            }  # fmt: skip
            played = 0
            try:
                for number in range(tables):
                    if time.monotonic() > deadline:
                        break
                    await one_table(game, Path(folder) / f"{game}-{number}.db", number, found)
                    played += 1
            finally:
                undo()
            print(f"{game}: {played} tables")
            print(line("table held up, a turn before away (peer)", found["peer"], "s"))
            print(
                line("table held up, away decision -> kept move", found["kept_from_decision"], "s")
            )
            print(line("table held up, a kept seat's later turn", found["kept"], "s"))
            print(line("decision, kept seat (normal)", timings.kept, "ms"))
            print(line("decision, old stand-in (easy/cautious)", timings.old, "ms"))
            print(line("tick -> answer (time-out step, commit incl.)", found["step"], "ms"))


def run() -> None:
    """Command line entry."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    asyncio.run(main(args.tables, args.seconds))


if __name__ == "__main__":
    run()
