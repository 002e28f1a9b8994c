"""Where the time of one command goes, for `bench_core --breakdown`: the core's functions are
wrapped (in this benchmark process only) and each call's time is charged to its part, less the
time of the wrapped calls inside it, so that the parts add up to the command's time.

Parts: `parse` (the route of the words, the sender's record and language), `engine` (the
session's change: rules, the engine's move, seat bookkeeping), `snapshot` (the session as JSON
data for the commit), `store` (awaiting the store: the version read, the commit's transaction
in the writer thread and its fsync), `render` (the table message and the private lines, their
buttons), `delivery` (pictures and the tournament hand-over after the step; the adapter's
sending is not part of the core), `rest` (the dispatch, the table's lock, logging, the event
loop). Wall time and the CPU time of the event loop's thread are kept apart: the store's wall
time is mostly the writer thread and the disk.
"""

from __future__ import annotations

import functools
import inspect
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

PARTS = ("parse", "engine", "snapshot", "store", "render", "delivery", "rest")


class Breakdown:
    """Wall and CPU seconds charged to each part (exclusive of wrapped calls inside)."""

    def __init__(self) -> None:
        self.wall: defaultdict[str, float] = defaultdict(float)
        self.cpu: defaultdict[str, float] = defaultdict(float)
        self._stack: list[list[float]] = []  # per open call: [wall of children, cpu of children]
        self._undo: list[Callable[[], None]] = []
        self.active = False  # charged only while a measured command runs
        # the writer thread's transactions (wall): all of it, and from COMMIT on (the fsync)
        self.writer = 0.0
        self.writer_commit = 0.0
        self._commit_at: float | None = None

    def _enter(self) -> tuple[float, float]:
        self._stack.append([0.0, 0.0])
        return time.perf_counter(), time.thread_time()

    def _leave(self, part: str, started: tuple[float, float]) -> None:
        wall = time.perf_counter() - started[0]
        cpu = time.thread_time() - started[1]
        inner = self._stack.pop()
        self.wall[part] += wall - inner[0]
        self.cpu[part] += cpu - inner[1]
        if self._stack:
            self._stack[-1][0] += wall
            self._stack[-1][1] += cpu

    def wrap(self, owner: Any, name: str, part: str) -> None:
        """Charge the calls of `owner.name` (a function or coroutine function) to `part`."""
        real = getattr(owner, name)
        if inspect.iscoroutinefunction(real):

            @functools.wraps(real)
            async def timed_async(*args: Any, **kwargs: Any) -> Any:
                if not self.active:
                    return await real(*args, **kwargs)
                started = self._enter()
                try:
                    return await real(*args, **kwargs)
                finally:
                    self._leave(part, started)

            setattr(owner, name, timed_async)
        else:

            @functools.wraps(real)
            def timed(*args: Any, **kwargs: Any) -> Any:
                if not self.active:
                    return real(*args, **kwargs)
                started = self._enter()
                try:
                    return real(*args, **kwargs)
                finally:
                    self._leave(part, started)

            setattr(owner, name, timed)
        self._undo.append(lambda: setattr(owner, name, real))

    def watch_writer(self, group_module: Any, engine: Any) -> None:
        """Time the transactions of the writer thread (`storage.group`), and their COMMIT."""
        import sqlalchemy as sa

        real = group_module._run_in_thread

        def timed(conn: Any, *rest: Any) -> Any:
            started = time.perf_counter()
            try:
                return real(conn, *rest)
            finally:
                ended = time.perf_counter()
                if self.active:
                    self.writer += ended - started
                    if self._commit_at is not None:
                        self.writer_commit += ended - self._commit_at
                self._commit_at = None

        def committing(_conn: Any) -> None:
            self._commit_at = time.perf_counter()

        group_module._run_in_thread = timed
        sa.event.listen(engine, "commit", committing)
        self._undo.append(lambda: setattr(group_module, "_run_in_thread", real))
        self._undo.append(lambda: sa.event.remove(engine, "commit", committing))

    def total(self, wall: float, cpu: float) -> None:
        """Charge what the wrapped parts did not take of the commands' `wall` and `cpu` time
        to `rest`."""
        self.wall["rest"] += wall - sum(self.wall.values())
        self.cpu["rest"] += cpu - sum(self.cpu.values())

    def undo(self) -> None:
        """Put every wrapped function back."""
        while self._undo:
            self._undo.pop()()


def instrument(core: Any) -> Breakdown:
    """Wrap the parts of `core` (a `bot.core.app.Core`) and of the modules it calls."""
    import bot.core.app as app
    import bot.core.table.service as service
    from storage import Store

    parts = Breakdown()
    parts.wrap(app, "route", "parse")
    parts.wrap(type(core.accounts), "who", "parse")
    parts.wrap(service.TableService, "_apply", "engine")
    for kind in {k for k in core.tables.kinds.values()}:
        for klass in kind.__mro__:
            if "to_dict" in vars(klass) and klass.__module__.startswith("bot.core"):
                parts.wrap(klass, "to_dict", "snapshot")
    for name, _method in inspect.getmembers(Store, inspect.iscoroutinefunction):
        if not name.startswith("_"):  # the Store's own and its parts' (StoreReads, ...)
            parts.wrap(Store, name, "store")
    import bot.core.table.deliver as deliver

    parts.wrap(service, "deliver", "render")
    parts.wrap(deliver, "deliver", "render")  # (also made while a commit runs, if so)
    parts.wrap(service, "table_message", "render")
    parts.wrap(app, "draw_pictures", "delivery")
    parts.wrap(type(core), "_settle", "delivery")
    import storage.group as group

    parts.watch_writer(group, core.store.write_engine)
    return parts
