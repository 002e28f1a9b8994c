"""Commands per second with 1, 2 and 3 bot processes on one PostgreSQL database.

Each worker is an OS process with its own Store and bot Core (bot.core.app.Core) serving requests
on a Unix socket. The driver (this process) plays whole Türk pokeri hands on 8 tables per worker
(distinct channels, 3 players each): it sends each table's next move, alternately as a typed
command and as a press of the table message's button, and the worker answers with the move that
follows (read from its own, just updated table). `route` alone decides which worker serves a
message: today the worker that opened the table (a process serves only its own tables); once any
process can serve any table, route to a random worker there instead. Setup (opening and seating,
topping up wallets) is not counted; commands/s counts the moves served during the timed window.

Run: ``.venv/bin/python -m benchmarks.bench_scale [--seconds S] [--tables T]`` (about a minute by
default). PostgreSQL: BENCH_DATABASE_URL (its tables are dropped) or a fresh database of the
throwaway cluster of `.ci/postgres.sh` (see benchmarks/scratch_postgres.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.bench_storage import drop_all
from benchmarks.scratch_postgres import scratch_database
from bot.core.app import Core
from bot.core.config import CoreConfig
from bot.core.messages import Command, Outgoing, OutKind, Press
from bot.core.table.fairness import SeededSource
from storage import HOUSE, Store, wallet
from testkit.drive import ai_move  # the computer's move as a typed command

PLATFORM = "bench"
PLAYERS = ("ayse", "mehmet", "cem")
PROCESS_COUNTS = (1, 2, 3)


def route(channel: str, owner: int, workers: int, rng: random.Random) -> int:
    """The worker that serves the next message of ``channel`` (opened by worker ``owner``).

    Today a process serves only the tables it opened. When any process can serve any table,
    ``return rng.randrange(workers)`` spreads every message over all of them.
    """
    del channel, workers, rng
    return owner


# -- worker: one process, one Store, one Core ---------------------------------------------------


class Worker:
    """A bot process: its own Store and Core, serving the driver's requests."""

    def __init__(self, core: Core) -> None:
        self.core = core

    async def serve(self, request: dict[str, Any]) -> dict[str, Any]:
        """Handle one request: ``seat`` a table, or play a ``command`` or a ``press``."""
        channel = request["channel"]
        if request["kind"] == "seat":
            await self._seat(channel)
            return self._next(channel, [])
        user, line = request["user"], request["line"]
        words = line.lstrip("/").split()
        if request["kind"] == "press":
            button = request["button"]
            out = await self.core.press(
                Press(
                    PLATFORM,
                    channel,
                    user,
                    user,
                    button[0],
                    button[1],
                    button[2],
                    tuple(words[2:]),
                    "en",
                )
            )
        else:
            out = await self.core.handle(
                Command(PLATFORM, channel, user, user, words[0], tuple(words[1:]), "en")
            )
        return self._next(channel, out)

    def _next(self, channel: str, out: list[Outgoing]) -> dict[str, Any]:
        """What the driver plays next on ``channel``: a move with its button, or a re-seat."""
        live = self.core.tables.in_channel(PLATFORM, channel)
        refused = sum(1 for o in out if o.kind is OutKind.ERROR)
        if live is None or live.session.actor() is None:
            return {"seat": True, "refused": refused}
        user, line = ai_move(live.session)
        kind = line.split()[1]
        buttons = _buttons(out)
        button = buttons.get(kind)
        return {
            "seat": False,
            "user": user,
            "line": line,
            "button": None if button is None else [button.table_id, button.action, button.nonce],
            "refused": refused,
        }

    async def _seat(self, channel: str) -> None:
        """Open a table in ``channel`` (everyone standing up first if one is stuck) and deal."""
        live = self.core.tables.in_channel(PLATFORM, channel)
        if live is not None:  # someone went broke: everyone stands up, the table closes
            for user in PLAYERS:
                await self.core.handle(_command(user, "/poker leave", channel))
        for user in PLAYERS:
            player = await self.core.store.player(PLATFORM, user, user)
            if await self.core.store.balance(wallet(player.id)) < 300:
                await self.core.store.transfer(HOUSE, wallet(player.id), 1000, "benchmark top-up")
        await self.core.handle(_command(PLAYERS[0], "/poker open turkish 5", channel))
        for user in PLAYERS:
            await self.core.handle(_command(user, "/poker join 300", channel))
        await self.core.handle(_command(PLAYERS[0], "/poker start", channel))


def _command(user: str, line: str, channel: str) -> Command:
    words = line.lstrip("/").split()
    return Command(PLATFORM, channel, user, user, words[0], tuple(words[1:]), "en")


def _buttons(out: list[Outgoing]) -> dict[str, Any]:
    for item in reversed(out):
        if item.kind is OutKind.EDIT_TABLE and item.buttons:
            return {b.action: b for row in item.buttons for b in row}
    return {}


async def run_worker(url: str, socket_path: str, index: int) -> None:
    """The worker process: serve JSON-line requests on a Unix socket until the driver leaves."""
    store = await Store.open(url, migrate=False)
    core = Core(store, CoreConfig(default_locale="en"), seeds=SeededSource(f"scale-{index}"))
    await core.start()
    worker = Worker(core)
    finished = asyncio.Event()

    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        pending: set[asyncio.Task[None]] = set()

        async def answer(line: bytes) -> None:
            request = json.loads(line)
            try:
                reply = await worker.serve(request)
            except Exception as exc:  # the driver stops and shows it rather than wait forever
                reply = {"error": f"{type(exc).__name__}: {exc}"}
            writer.write(json.dumps({"id": request["id"], **reply}).encode() + b"\n")

        while line := await reader.readline():
            task = asyncio.create_task(answer(line))  # tables are served concurrently
            pending.add(task)
            task.add_done_callback(pending.discard)
        await asyncio.gather(*pending)
        writer.close()
        finished.set()

    server = await asyncio.start_unix_server(client, socket_path)
    print("ready", flush=True)
    async with server:
        await finished.wait()
    await store.close()


# -- driver -------------------------------------------------------------------------------------


@dataclass
class Connection:
    """The driver's line to one worker: requests out, replies matched by id."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    waiting: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    ids: itertools.count = field(default_factory=itertools.count)

    async def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Send ``request`` and wait for its reply."""
        number = next(self.ids)
        reply = self.waiting[number] = asyncio.get_running_loop().create_future()
        self.writer.write(json.dumps({"id": number, **request}).encode() + b"\n")
        return await reply

    async def read_replies(self) -> None:
        """Hand each reply to the request waiting for it."""
        while line := await self.reader.readline():
            reply = json.loads(line)
            waiting = self.waiting.pop(reply.pop("id"))
            if "error" in reply:
                waiting.set_exception(RuntimeError(f"worker failed: {reply['error']}"))
            else:
                waiting.set_result(reply)


async def drive(links: list[Connection], tables: int, seconds: float) -> dict[str, float]:
    """Play every table until ``seconds`` have passed: moves, presses, refusals and moves/s."""
    rng = random.Random(17)
    counts = {"moves": 0, "refused": 0, "presses": 0}
    channels = [(w, f"w{len(links)}-{w}-t{t}") for w in range(len(links)) for t in range(tables)]
    # Setup, not timed: every table opened, seated and dealt by the worker that owns it.
    states = await asyncio.gather(
        *(links[w].ask({"kind": "seat", "channel": channel}) for w, channel in channels)
    )
    begin = time.perf_counter()
    deadline = begin + seconds

    async def play(owner: int, channel: str, state: dict[str, Any]) -> None:
        for turn in itertools.count():
            if time.perf_counter() >= deadline:
                return
            link = links[route(channel, owner, len(links), rng)]
            if state["seat"]:
                state = await link.ask({"kind": "seat", "channel": channel})
                continue
            as_press = turn % 2 == 1 and state["button"] is not None
            state = await link.ask(
                {
                    "kind": "press" if as_press else "command",
                    "channel": channel,
                    "user": state["user"],
                    "line": state["line"],
                    "button": state["button"],
                }
            )
            counts["moves"] += 1
            counts["presses"] += as_press
            counts["refused"] += state["refused"]

    await asyncio.gather(*(play(w, c, s) for (w, c), s in zip(channels, states, strict=True)))
    return {**counts, "per_second": counts["moves"] / (time.perf_counter() - begin)}


async def measure(
    url: str, workers: int, tables: int, seconds: float, folder: Path
) -> dict[str, float]:
    """Commands per second with ``workers`` processes (fresh database tables)."""
    await drop_all(url)
    await (await Store.open(url)).close()  # migrate once, before the workers start
    procs, links, readers = [], [], []
    try:
        for index in range(workers):
            path = str(folder / f"w{workers}-{index}.sock")
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "benchmarks.bench_scale",
                "--worker",
                url,
                path,
                str(index),
                stdout=asyncio.subprocess.PIPE,
            )
            procs.append(proc)
            assert proc.stdout is not None
            if (await proc.stdout.readline()).strip() != b"ready":
                raise RuntimeError(f"worker {index} did not start")
            reader, writer = await asyncio.open_unix_connection(path)
            links.append(Connection(reader, writer))
        readers = [asyncio.create_task(link.read_replies()) for link in links]
        return await drive(links, tables, seconds)
    finally:
        for link in links:
            link.writer.close()
        for proc in procs:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(proc.wait(), 30)
            if proc.returncode is None:
                proc.kill()
        for task in readers:
            task.cancel()


async def main() -> None:
    """Measure and print commands/s for each process count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="timed window per count")
    parser.add_argument("--tables", type=int, default=8, help="tables per process")
    args = parser.parse_args()
    url, source = await scratch_database("ttb_bench_scale")
    if url is None:
        print(f"bench_scale skipped: {source}")
        return
    print(
        f"commands/s of whole Türk pokeri hands, {args.tables} tables per process, "
        f"{args.seconds:.0f} s each, one PostgreSQL ({source})"
    )
    print(
        f"  {'processes':>9} {'commands/s':>11} {'per process':>12} {'presses':>8} {'refused':>8}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for workers in PROCESS_COUNTS:
            got = await measure(url, workers, args.tables, args.seconds, Path(tmp))
            rate, moves = got["per_second"], got["moves"]
            print(
                f"  {workers:>9} {rate:>11.0f} {rate / workers:>12.0f} "
                f"{got['presses'] / max(moves, 1):>8.0%} {got['refused']:>8.0f}"
            )
    await drop_all(url)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        asyncio.run(run_worker(sys.argv[2], sys.argv[3], int(sys.argv[4])))
    else:
        asyncio.run(main())
