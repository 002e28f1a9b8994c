"""One move, three ways in, side by side in one run: the same computer moves on tables dealt
alike (same seeds), made as a typed command (`/poker raise 40`: the word parser), as a pressed
button (`Core.press`: the button id decoded by `MoveCodec`, the answer in `Press.args`) and as
a typed move (`Core.act`: no text at all). Each on its own SQLite file, every move committed.
The ways take turns move by move. Reported: moves per second of time spent in the core, the
median and 99th percentile latency per move; beside them the codec alone (decoding a button
id, encoding a move), per call.

Run: `.venv/bin/python -m benchmarks.bench_moves [moves]` (default 600 per way). The machine is
shared: numbers vary with load; compare the columns of one run.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
import timeit
from pathlib import Path

from benchmarks.bench_core import PLAYERS, command, seat_table
from bot.core.app import Core
from bot.core.codec import codec
from bot.core.config import CoreConfig
from bot.core.messages import Press, Sender
from bot.core.moves import AMOUNT_KINDS, Ask
from bot.core.table import ai
from bot.core.table.fairness import SeededSource
from games.base import Action
from storage import Store

TABLES = 10
WAYS = ("command", "press", "act")


def typed_line(action: Action) -> str:
    """The move as a player types it."""
    if action.kind == "draw":
        return "/poker draw " + " ".join(action.cards) if action.cards else "/poker pat"
    amount = f" {action.amount}" if action.amount is not None else ""
    return f"/poker {action.kind}{amount}"


def pressed(action: Action) -> tuple[str, tuple[str, ...]]:
    """The button the move's front end presses and the answer it puts in `Press.args`."""
    if action.kind in AMOUNT_KINDS:
        return codec.code(Ask(action.kind)), (str(action.amount),)
    if action.kind == "draw" and action.cards:
        return codec.code(Ask("draw")), action.cards
    return codec.code(action), ()


async def one_move(core: Core, way: str, channel: str) -> float | None:
    """The computer's move at `channel`'s table made `way`: its latency in ms (None: the
    table was (re)seated instead)."""
    live = core.tables.in_channel("bench", channel)
    if live is None:
        await seat_table(core, channel)
        return None
    session = live.session
    if session.actor() is None:  # someone went broke: everyone stands up
        for user in PLAYERS:
            await core.handle(command(user, "/poker leave", channel))
        return None
    index = session.engine.to_act()
    user = session.seat_of_engine(index).user_id
    action = ai.poker_move(session.engine, index, cautious=False)
    table, nonce = str(session.table_id), session.nonce
    t0 = time.perf_counter()
    if way == "command":
        await core.handle(command(user, typed_line(action), channel))
    elif way == "press":
        code, args = pressed(action)
        name = user.capitalize()
        await core.press(Press("bench", channel, user, name, table, code, nonce, args, "en"))
    else:
        who = Sender("bench", channel, user, user.capitalize(), "en")
        await core.act(table, who, nonce, action)
    return (time.perf_counter() - t0) * 1000


async def play(folder: Path, total: int) -> dict[str, dict[str, float]]:
    """`total` computer moves per way across `TABLES` tables dealt alike, the ways taking
    turns move by move (so that the shared machine's load falls on all of them alike)."""
    cores = {}
    for way in WAYS:
        store = await Store.open(f"sqlite+aiosqlite:///{folder}/{way}.db")
        cores[way] = Core(store, CoreConfig(default_locale="en"), seeds=SeededSource("moves"))
    channels = [f"t{i}" for i in range(TABLES)]
    for core in cores.values():
        for channel in channels:
            await seat_table(core, channel)
    latencies: dict[str, list[float]] = {way: [] for way in WAYS}
    spent = dict.fromkeys(WAYS, 0.0)
    while min(len(v) for v in latencies.values()) < total:
        for channel in channels:
            for way, core in cores.items():
                took = await one_move(core, way, channel)
                if took is not None:
                    latencies[way].append(took)
                    spent[way] += took / 1000
    for core in cores.values():
        assert core.store is not None
        await core.store.close()
    rows = {}
    for way, values in latencies.items():
        values.sort()
        rows[way] = {
            "per_second": len(values) / spent[way],
            "p50_ms": statistics.median(values),
            "p99_ms": values[int(len(values) * 0.99) - 1],
        }
    return rows


def codec_alone(rounds: int = 20_000) -> dict[str, float]:
    """Microseconds to decode a button id and to encode a move (the mix a table draws)."""
    moves = [
        Ask("raise"),
        Action("check"),
        Action("discard", cards=("R5",)),
        Action("add", cards=("K13",), amount=7),
    ]
    raws = [codec.encode("123456", "a1b2c3", move) for move in moves]
    decode = timeit.timeit(lambda: [codec.decode(raw) for raw in raws], number=rounds)
    encode = timeit.timeit(
        lambda: [codec.encode("123456", "a1b2c3", move) for move in moves], number=rounds
    )
    calls = rounds * len(moves)
    return {"decode_us": decode / calls * 1e6, "encode_us": encode / calls * 1e6}


async def main(total: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        rows = await play(Path(tmp), total)
    print(f"{'way':<8} {'moves/s':>9} {'p50 ms':>8} {'p99 ms':>8}   ({total} moves each)")
    for way, row in rows.items():
        print(f"{way:<8} {row['per_second']:>9.0f} {row['p50_ms']:>8.2f} {row['p99_ms']:>8.2f}")
    alone = codec_alone()
    print(f"codec: decode {alone['decode_us']:.1f} us, encode {alone['encode_us']:.1f} us")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 600))
