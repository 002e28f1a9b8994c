"""The live web table under load: from a commit to the last viewer's frame, memory per viewer,
bytes per update.

1. One process: a bot process (a child, `--serve`) runs the core and the web table on a SQLite
   file; 50 Türk pokeri tables of 2 players each, 10 pages on each (the 2 players and 8
   spectators: 500 sockets), opened by this driver process over loopback. Each table plays
   `MOVES` moves, all tables at once, each after a think time of 50-300 ms (players do not
   answer within a millisecond; without it every table moves in lockstep and the figure is a
   queue's length): the player to act sends `act` on their socket, the bot
   commits it and sends every page its state. The latency of one step runs from its commit
   (the core's listener, in the bot process) to the moment the table's last page got the new
   state (in this process; one wall clock for both, `time.time_ns`). Memory per viewer: the
   bot process's resident memory after the 500 pages said hello, minus before, over 500. Bytes
   per update: the state frames of one step to all 10 pages of its table.
2. Two processes on PostgreSQL (when TEST_DATABASE_URL is set): the same pages on a bot process
   A; the moves are committed by another bot process B (`--commit`, a core of its own on the
   same database, pressing the buttons as a chat would; the driver tells it which). A's pages
   learn of them through LISTEN/NOTIFY.

Run: `.venv/bin/python -m benchmarks.bench_web` (under 2 minutes). The machine is shared:
numbers vary with load; the driver's own event loop (500 sockets) is part of the measure.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import aiohttp

TABLES = 50
SPECTATORS = 8
MOVES = 10
MOVES_PG = 5  # fewer across processes: the whole run stays under two minutes
THINK = (0.05, 0.3)  # seconds a player takes before each move (uniform; seeded)
PLATFORM = "bench"
SECRET = "bench-web-secret-0123456789"
PLAYERS = ("ayse", "mehmet")


# --- the bot process ----------------------------------------------------------------------------


async def serve(url: str) -> None:
    """`--serve URL`: a core and the web table on the database at URL, on a free loopback port
    (printed as `port N`); every commit's (table, nonce, time) is kept and printed as JSON when
    a line `dump` comes on stdin; end of input stops it."""
    from bot.adapters.web.server import Front, WebConfig, WebTable
    from bot.adapters.web.tokens import Signer
    from bot.core.app import Core
    from bot.core.config import CoreConfig
    from storage import Store

    store = await Store.open(url, migrate=False)
    core = Core(store, CoreConfig(default_locale="en"))
    commits: list[tuple[str, str, int]] = []

    def committed(table_id: str, _version: int) -> None:
        info = core.table_info(table_id)
        if info is not None:
            commits.append((table_id, info.nonce, time.time_ns()))

    core.subscribe(committed)
    web = WebTable(
        {PLATFORM: Front(core)}, Signer(SECRET), WebConfig(max_viewers=1000, default_locale="en")
    )
    await web.start("127.0.0.1", 0)
    print(f"port {web.port}", flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        if line.strip() == b"dump":
            print(json.dumps(commits), flush=True)
    await web.stop()
    await store.close()


# --- tables -------------------------------------------------------------------------------------


async def make_tables(url: str, migrate: bool) -> tuple[Any, Any, list[str]]:
    """50 dealt Türk pokeri tables of two players on the database at `url`: its store, a core
    on it and the table ids."""
    from bot.core.app import Core
    from bot.core.config import CoreConfig
    from bot.core.messages import Command
    from storage import Store

    store = await Store.open(url, migrate=migrate)
    core = Core(store, CoreConfig(default_locale="en"))
    ids = []
    for n in range(TABLES):
        channel = f"room{n}"
        lines = ["/poker open turkish 10", "/poker join 400"]
        for words in [line[1:].split() for line in lines]:
            await core.handle(_command(channel, PLAYERS[0], words, Command))
        await core.handle(_command(channel, PLAYERS[1], ["poker", "join", "400"], Command))
        await core.handle(_command(channel, PLAYERS[0], ["poker", "start"], Command))
        ids.append(str(core.tables.in_channel(PLATFORM, channel).id))
    return store, core, ids


def _command(channel: str, user: str, words: list[str], kind: Any) -> Any:
    return kind(PLATFORM, channel, f"{user}-{channel}", user, words[0], tuple(words[1:]), "en")


def move_of(view: dict[str, Any]) -> dict[str, Any] | None:
    """A quiet legal move for the viewer (check, call, pass, stand pat, else fold), or None."""
    kinds = [a["kind"] for a in view["actions"]]
    for kind in ("check", "call", "pass", "draw", "fold"):
        if kind in kinds:
            return {"type": "act", "ref": 1, "kind": kind, "cards": [], "nonce": view["nonce"]}
    return None


# --- the pages ----------------------------------------------------------------------------------


class Page:
    """One socket: its table, its user and the states it got (nonce -> arrival, bytes)."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, table: str, user: str) -> None:
        self.ws, self.table, self.user = ws, table, user
        self.view: dict[str, Any] = {}
        self.arrived: dict[str, tuple[int, int]] = {}
        self.changed = asyncio.Event()

    async def listen(self) -> None:
        async for message in self.ws:
            if message.type is not aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(message.data)
            if data["type"] == "state":
                self.view = data["view"]
                self.arrived.setdefault(self.view["nonce"], (time.time_ns(), len(message.data)))
                self.changed.set()


async def open_pages(base: str, ids: list[str]) -> tuple[aiohttp.ClientSession, list[Page]]:
    """10 pages per table, each said hello and got its first state."""
    from bot.adapters.web.tokens import Identity, Signer

    signer = Signer(SECRET)
    http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))  # 500 sockets at once
    pages = []
    for n, table in enumerate(ids):
        channel = f"room{n}"
        users = [f"{p}-{channel}" for p in PLAYERS] + [
            f"zed{i}-{channel}" for i in range(SPECTATORS)
        ]
        for user in users:
            session = signer.session(Identity(PLATFORM, user, user, table, "en"))
            ws = await http.ws_connect(f"{base}/ws", headers={"Origin": base})
            await ws.send_json({"type": "hello", "session": session})
            page = Page(ws, table, user)
            pages.append(page)
    tasks = [asyncio.create_task(p.listen()) for p in pages]
    while not all(p.view for p in pages):
        await asyncio.sleep(0.05)
    for page in pages:
        page.task = tasks[pages.index(page)]  # type: ignore[attr-defined]
    return http, pages


async def play_table(pages: list[Page], commit: Any = None, moves: int = MOVES) -> None:
    """`moves` moves at one table; each waits until every page has the new state (at most 5 s).
    `commit`: make the move in another process (B) instead of sending it on the socket."""
    rng = random.Random(pages[0].table)
    for _ in range(moves):
        await asyncio.sleep(rng.uniform(*THINK))
        actor = next((p for p in pages if p.view.get("actions")), None)
        if actor is None:
            return
        move = move_of(actor.view)
        if move is None:
            return
        old = actor.view["nonce"]
        for page in pages:
            page.changed.clear()
        if commit is None:
            await actor.ws.send_json(move)
        else:
            await commit(actor, move)
        deadline = time.monotonic() + 5
        while not all(p.view["nonce"] != old for p in pages):
            if time.monotonic() > deadline:
                return
            await asyncio.sleep(0.002)


def latencies(
    pages: list[Page], commits: list[tuple[str, str, int]]
) -> tuple[list[float], list[int]]:
    """Per step seen by all its table's pages: commit -> last page's arrival (ms), and the
    bytes its state frames took to all pages."""
    by_table: dict[str, list[Page]] = defaultdict(list)
    for page in pages:
        by_table[page.table].append(page)
    out, sizes = [], []
    for table, nonce, at in commits:
        group = by_table.get(table, [])
        arrivals = [p.arrived.get(nonce) for p in group]
        if not group or any(a is None for a in arrivals):
            continue
        out.append((max(a[0] for a in arrivals if a) - at) / 1e6)
        sizes.append(sum(a[1] for a in arrivals if a))
    return out, sizes


def rss_kb(pid: int) -> int:
    """Resident memory of a process, in kB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def start_server(url: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.bench_web", "--serve", url],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
    )
    assert proc.stdout is not None
    line = await asyncio.to_thread(proc.stdout.readline)
    return proc, f"http://127.0.0.1:{line.split()[1]}"


async def dump(proc: subprocess.Popen[str]) -> list[tuple[str, str, int]]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("dump\n")
    proc.stdin.flush()
    return [tuple(c) for c in json.loads(await asyncio.to_thread(proc.stdout.readline))]


def stop(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None
    proc.stdin.close()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def report(name: str, lat: list[float], sizes: list[int], extra: str = "") -> None:
    if not lat:
        print(f"{name}: no step measured")
        return
    print(
        f"{name}: {len(lat)} steps, commit -> last viewer's frame p50 {statistics.median(lat):.1f} ms,"
        f" p90 {percentile(lat, 90):.1f} ms, p99 {percentile(lat, 99):.1f} ms, max {max(lat):.1f} ms;"
        f" bytes per update (10 pages)"
        f" {statistics.mean(sizes):,.0f} ({statistics.mean(sizes) / 10:,.0f} per page){extra}"
    )


async def one_process() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{tmp}/bench.db"
        store, _core, ids = await make_tables(url, migrate=True)
        await store.close()
        proc, base = await start_server(url)
        try:
            await asyncio.sleep(0.5)
            before = rss_kb(proc.pid)
            began = time.perf_counter()
            http, pages = await open_pages(base, ids)
            opened = time.perf_counter() - began
            after = rss_kb(proc.pid)
            by_table: dict[str, list[Page]] = defaultdict(list)
            for page in pages:
                by_table[page.table].append(page)
            await asyncio.gather(*(play_table(group) for group in by_table.values()))
            commits = await dump(proc)
            lat, sizes = latencies(pages, commits)
            per_viewer = (after - before) / len(pages)
            report(
                f"one process, {len(pages)} viewers over {TABLES} tables",
                lat,
                sizes,
                f"; memory per viewer {per_viewer:.1f} KB (bot RSS {before / 1024:.0f} -> "
                f"{after / 1024:.0f} MB); {len(pages)} pages opened in {opened:.1f} s",
            )
            for page in pages:
                await page.ws.close()
            await http.close()
        finally:
            stop(proc)


async def commit_moves(url: str) -> None:
    """`--commit URL`: process B, a core of its own on the database at URL; each stdin line
    `{"user", "table", "move", "nonce"}` (the move as JSON) is made with `Core.act`
    (concurrently), every commit's (table, nonce, time) kept and printed as JSON on a line
    `dump`."""
    from bot.core.app import Core
    from bot.core.config import CoreConfig
    from bot.core.messages import Sender
    from bot.core.moves import move_of_json
    from storage import Store

    store = await Store.open(url, migrate=False)
    core = Core(store, CoreConfig(default_locale="en"))
    commits: list[tuple[str, str, int]] = []

    def committed(table_id: str, _version: int) -> None:
        info = core.table_info(table_id)
        if info is not None:
            commits.append((table_id, info.nonce, time.time_ns()))

    core.subscribe(committed)
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    running: set[asyncio.Task[Any]] = set()
    while line := await reader.readline():
        if line.strip() == b"dump":
            await asyncio.gather(*running)
            print(json.dumps(commits), flush=True)
            continue
        m = json.loads(line)
        who = Sender(PLATFORM, "x", m["user"], m["user"], "en")
        move = move_of_json(m["move"])
        task = asyncio.create_task(core.act(m["table"], who, m["nonce"], move))
        running.add(task)
        task.add_done_callback(running.discard)
    await store.close()


async def two_processes(url: str) -> None:
    from bot.adapters.web.wire import move_of
    from bot.core.moves import move_json
    from testkit.databases import clear_postgres

    await clear_postgres(url)
    store, _core, ids = await make_tables(url, migrate=True)
    await store.close()
    proc, base = await start_server(url)
    mover = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.bench_web", "--commit", url],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
    )
    assert mover.stdin is not None and mover.stdout is not None
    await asyncio.to_thread(mover.stdout.readline)  # ready
    try:
        http, pages = await open_pages(base, ids)

        async def commit(page: Page, move: dict[str, Any]) -> None:
            typed = move_json(move_of(move))  # what the page sent, read as the server reads it
            line = {"user": page.user, "table": page.table, "move": typed,
                    "nonce": move["nonce"]}  # fmt: skip
            assert mover.stdin is not None
            mover.stdin.write(json.dumps(line) + "\n")
            mover.stdin.flush()

        by_table: dict[str, list[Page]] = defaultdict(list)
        for page in pages:
            by_table[page.table].append(page)
        await asyncio.gather(*(play_table(group, commit, MOVES_PG) for group in by_table.values()))
        lat, sizes = latencies(pages, await dump(mover))
        report(
            f"two processes on PostgreSQL, {len(pages)} viewers on A, moves committed by B",
            lat,
            sizes,
        )
        for page in pages:
            await page.ws.close()
        await http.close()
    finally:
        stop(mover)
        stop(proc)


async def main() -> None:
    began = time.perf_counter()
    await one_process()
    url = os.environ.get("TEST_DATABASE_URL") or os.environ.get("BENCH_DATABASE_URL")
    if url:
        await two_processes(url)
    else:
        print("two processes on PostgreSQL: skipped (TEST_DATABASE_URL is not set)")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"bench_web: {time.perf_counter() - began:.0f} s, load average {load:.1f} on {os.cpu_count()} CPUs"
    )


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        asyncio.run(serve(sys.argv[2]))
    elif len(sys.argv) == 3 and sys.argv[1] == "--commit":
        asyncio.run(commit_moves(sys.argv[2]))
    else:
        asyncio.run(main())
