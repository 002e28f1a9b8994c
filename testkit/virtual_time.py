"""An asyncio event loop on virtual time, so that a benchmark of minutes of chat play (think times,
rate limiters that space requests over a minute) runs in seconds while every wait still counts.

How it stays safe: the loop's clock is the real monotonic clock plus an offset. When the loop would
sleep until its next timer, it first polls its sockets; if nothing is ready and no outside work is
in flight, nothing can happen before that timer, so the offset jumps to it instead of sleeping.
"Outside work" is what completes without the loop's timers: a worker thread (`run_in_executor`,
aiosqlite's connection thread) or an HTTP request on its way to a loopback fake server (python-
telegram-bot's httpx requests, aiohttp client requests as discord.py makes them). Both
are counted (`VirtualTimeLoop.busy`, via `track_outside_work()`); while any is in flight the loop
waits for real, so a slow thread or a slow socket can never make virtual time jump past it.
Everything on the loop's clock (`asyncio.sleep`, `loop.call_later`, aiolimiter, which python-
telegram-bot's `AIORateLimiter` uses, `wait_for` time-outs) then runs on virtual time; code that
reads `time.monotonic()` directly does not, so the benchmark injects `loop.time` where a clock is
taken (the Discord adapter's `Boards`).
"""

from __future__ import annotations

import asyncio
import functools
import selectors
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

GRACE = 0.0005  # seconds of real time the sockets are polled before time jumps


class _JumpingSelector(selectors.BaseSelector):
    """A selector that, when idle, moves its loop's clock forward instead of sleeping."""

    def __init__(self, inner: selectors.BaseSelector) -> None:
        self.inner = inner
        self.loop: VirtualTimeLoop | None = None

    def register(self, fileobj: Any, events: int, data: Any = None) -> selectors.SelectorKey:
        return self.inner.register(fileobj, events, data)

    def unregister(self, fileobj: Any) -> selectors.SelectorKey:
        return self.inner.unregister(fileobj)

    def modify(self, fileobj: Any, events: int, data: Any = None) -> selectors.SelectorKey:
        return self.inner.modify(fileobj, events, data)

    def get_map(self) -> Any:
        return self.inner.get_map()

    def close(self) -> None:
        self.inner.close()

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        loop = self.loop
        if loop is None or timeout is None or timeout <= 0 or loop.busy:
            return self.inner.select(timeout)
        deadline = loop.time() + timeout
        events = self.inner.select(min(timeout, GRACE))
        if events or loop.busy:
            return events
        loop.offset += max(0.0, deadline - loop.time())
        return []


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """A selector event loop whose clock jumps over idle waits (see the module docstring)."""

    def __init__(self) -> None:
        selector = _JumpingSelector(selectors.DefaultSelector())
        super().__init__(selector)
        selector.loop = self
        self.offset = 0.0
        self.busy = 0  # outside work in flight: threads, HTTP requests

    def time(self) -> float:
        """Real monotonic time plus the idle time skipped so far."""
        return time.monotonic() + self.offset

    def run_in_executor(self, executor: Any, func: Callable[..., T], *args: Any) -> Any:
        """Run `func` in a thread, counted as outside work until it is done."""
        future = super().run_in_executor(executor, func, *args)
        self.busy += 1
        future.add_done_callback(lambda _f: self._done())
        return future

    def _done(self) -> None:
        self.busy -= 1


def _counted(method: Callable[..., Awaitable[T]]) -> Callable[..., Coroutine[Any, Any, T]]:
    """`method` wrapped so that the running virtual-time loop counts it as outside work."""

    @functools.wraps(method)
    async def wrapper(*args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        if not isinstance(loop, VirtualTimeLoop):
            return await method(*args, **kwargs)
        loop.busy += 1
        try:
            return await method(*args, **kwargs)
        finally:
            loop.busy -= 1

    wrapper.__wrapped_for_virtual_time__ = True  # type: ignore[attr-defined]
    return wrapper


def outside_work_wrappers() -> list[tuple[type, str, Callable[..., Any]]]:
    """(class, method name, wrapped method) for aiosqlite's thread calls and the HTTP requests of
    python-telegram-bot (httpx) and discord.py (aiohttp), so that a virtual-time loop counts them
    as outside work."""
    import aiohttp
    import aiosqlite
    from telegram.request import HTTPXRequest

    out: list[tuple[type, str, Callable[..., Any]]] = []
    for owner, name in (
        (aiosqlite.Connection, "_execute"),
        (aiosqlite.Connection, "_connect"),
        (HTTPXRequest, "do_request"),
        (aiohttp.ClientSession, "_request"),  # discord.py's HTTP client
    ):
        method = getattr(owner, name)
        if not getattr(method, "__wrapped_for_virtual_time__", False):
            out.append((owner, name, _counted(method)))
    return out


def track_outside_work() -> None:
    """Install `outside_work_wrappers()` for the rest of the process (idempotent; on a normal
    loop the wrappers change nothing)."""
    for owner, name, wrapped in outside_work_wrappers():
        setattr(owner, name, wrapped)


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to completion on a fresh virtual-time loop."""
    track_outside_work()
    loop = VirtualTimeLoop()
    try:
        asyncio.set_event_loop(loop)
        return loop.run_until_complete(main)
    finally:
        try:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.run_until_complete(loop.shutdown_default_executor())
        finally:
            asyncio.set_event_loop(None)
            loop.close()
