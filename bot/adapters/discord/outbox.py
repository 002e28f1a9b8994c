"""Outgoing traffic that is not an interaction's answer: one queue ("lane") per destination.

A lane is a channel (its posts, table writes and notices) or a user (their direct messages and
edits of their private messages). Each lane sends one thing at a time, in the order it was put,
from a task of its own, so an interaction's answer never waits behind channel traffic, and a
failing or slow channel never holds up another one. New posts in a channel are paced to
Discord's limit (5 per 5 seconds per channel) before discord.py would have to wait on a 429.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable

import aiohttp
import discord

from bot.logs import kv

log = logging.getLogger("bot.discord.outbox")

# What a Discord call may raise besides a refusal: connection resets (errno 104 is not retried by
# discord.py), server disconnects, time-outs. `asyncio.TimeoutError` is `TimeoutError` (an
# `OSError`) on Python 3.11, named for clarity.
TRANSPORT_ERRORS: tuple[type[BaseException], ...] = (
    discord.HTTPException,
    aiohttp.ClientError,
    OSError,
    asyncio.TimeoutError,
)


def status_of(exc: BaseException) -> object:
    """What to log of a failed call: Discord's HTTP status, else the exception's type name."""
    return getattr(exc, "status", type(exc).__name__)


POSTS_PER_WINDOW = 5
POST_WINDOW = 5.0

Job = Callable[[], Awaitable[object]]


def channel_lane(channel_id: int | str) -> tuple[str, int]:
    """The lane of a channel's posts and table writes."""
    return ("channel", int(channel_id))


def user_lane(user_id: int | str) -> tuple[str, int]:
    """The lane of one user's direct messages and private-message edits."""
    return ("user", int(user_id))


class Lanes:
    """Per-destination FIFO queues, each drained by one task; a failing job is logged and the
    lane goes on with the next one."""

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        posts_per_window: int = POSTS_PER_WINDOW,
        window: float = POST_WINDOW,
    ) -> None:
        self.clock = clock
        self.sleep = sleep
        self.posts_per_window = posts_per_window
        self.window = window
        self._queues: dict[Hashable, deque[Job]] = {}
        self._workers: dict[Hashable, asyncio.Task[None]] = {}
        self._posted: dict[Hashable, deque[float]] = {}

    def put(self, lane: Hashable, job: Job) -> None:
        """Queue `job` (a coroutine function) on `lane`; it runs after everything queued there
        before it."""
        self._queues.setdefault(lane, deque()).append(job)
        worker = self._workers.get(lane)
        if worker is None or worker.done():
            self._workers[lane] = asyncio.create_task(self._drain(lane))

    async def _drain(self, lane: Hashable) -> None:
        queue = self._queues[lane]
        while queue:
            job = queue.popleft()
            try:
                await job()
            except asyncio.CancelledError:
                raise
            except Exception:
                # lanes are (kind, id) tuples (channel_lane, user_lane)
                kind = lane[0] if lane else lane  # type: ignore[index]
                log.exception(kv(event="outgoing_failed", lane=kind))
        # No await since the queue was found empty: nothing can have been put in between.
        del self._queues[lane]
        del self._workers[lane]

    async def pace(self, lane: Hashable) -> None:
        """Wait until one more new message fits in `lane`'s window, and count it."""
        sent = self._posted.setdefault(lane, deque())
        while len(sent) >= self.posts_per_window:
            wait = sent[0] + self.window - self.clock()
            if wait > 0:
                await self.sleep(wait)
            sent.popleft()
        sent.append(self.clock())

    def busy(self) -> int:
        """How many lanes still have work queued or running."""
        return sum(1 for worker in self._workers.values() if not worker.done())

    async def settle(self) -> None:
        """Wait until every lane is empty (jobs may queue more jobs: wait for those too)."""
        while True:
            workers = [w for w in self._workers.values() if not w.done()]
            if not workers:
                return
            await asyncio.gather(*workers, return_exceptions=True)

    def cancel(self) -> None:
        """Drop everything still queued (shutdown after a flush that ran out of time)."""
        for worker in self._workers.values():
            worker.cancel()
        self._workers.clear()
        self._queues.clear()
