"""Outgoing traffic that is not an interaction's answer: one queue ("lane") per destination.

A lane is a channel (its posts, table writes and notices) or a user (their direct messages and
edits of their private messages). Each lane sends one thing at a time, in the order it was put,
from a task of its own, so an interaction's answer never waits behind channel traffic, and a
failing or slow channel never holds up another one. New posts in a channel are paced to
Discord's limit (5 per 5 seconds per channel) before discord.py would have to wait on a 429.

Play goes first (issue 25): a job is `Priority.TABLE` (the table message, announcements, turn
prompts; in the order they were put) or `Priority.ANSWER` (an answer to one member posted in
the channel); a lane runs every waiting TABLE job before the next ANSWER job. An ANSWER job whose
`same` key is already waiting is not queued twice, and each lane holds at most `max_queue` jobs:
beyond it the oldest of the lowest priority is dropped and logged (never its content).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from enum import IntEnum
from typing import Any

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


async def answer_privately(interaction: Any, words: str, failed_event: str) -> None:
    """Tell the interaction's user alone (ephemeral): its answer, or a follow-up when it was
    answered already; a failed send is logged as `failed_event` (the answer is not queued)."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(words, ephemeral=True)
        else:
            await interaction.response.send_message(words, ephemeral=True)
    except TRANSPORT_ERRORS as exc:
        log.warning(kv(event=failed_event, error=repr(exc)))


POSTS_PER_WINDOW = 5
POST_WINDOW = 5.0
MAX_QUEUE = 100  # waiting jobs per lane

Job = Callable[[], Awaitable[object]]


class Priority(IntEnum):
    """Which traffic of a lane goes first; higher first."""

    ANSWER = 0  # an answer to one member, posted in the channel
    TABLE = 1  # the table message, announcements, turn prompts, private messages of play


class _Queue:
    """One lane's waiting jobs: a FIFO per priority, with the `same` key of each job."""

    def __init__(self) -> None:
        self.lanes: dict[Priority, deque[tuple[Job, Hashable | None]]] = {
            p: deque() for p in Priority
        }

    def __len__(self) -> int:
        return sum(len(lane) for lane in self.lanes.values())

    def __bool__(self) -> bool:
        return any(self.lanes.values())

    def holds(self, same: Hashable) -> bool:
        """Whether a job with this `same` key waits."""
        return any(key == same for lane in self.lanes.values() for _, key in lane)

    def popleft(self) -> Job:
        """The next job: the oldest of the highest priority waiting."""
        for priority in sorted(Priority, reverse=True):
            if self.lanes[priority]:
                return self.lanes[priority].popleft()[0]
        raise IndexError("pop from an empty lane")

    def drop_lowest(self) -> Priority:
        """Drop the oldest job of the lowest priority waiting; its priority."""
        for priority in sorted(Priority):
            if self.lanes[priority]:
                self.lanes[priority].popleft()
                return priority
        raise IndexError("drop from an empty lane")


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
        max_queue: int = MAX_QUEUE,
    ) -> None:
        self.clock = clock
        self.sleep = sleep
        self.posts_per_window = posts_per_window
        self.window = window
        self.max_queue = max_queue
        self._queues: dict[Hashable, _Queue] = {}
        self._workers: dict[Hashable, asyncio.Task[None]] = {}
        self._posted: dict[Hashable, deque[float]] = {}
        self.on_wait: Callable[[], object] | None = None  # told each time `pace` must wait

    def put(
        self,
        lane: Hashable,
        job: Job,
        *,
        priority: Priority = Priority.TABLE,
        same: Hashable | None = None,
    ) -> None:
        """Queue `job` (a coroutine function) on `lane`; it runs after everything of its
        priority queued there before it, and after every waiting job of a higher priority.
        `same`: an identical job already waiting makes this one redundant."""
        queue = self._queues.setdefault(lane, _Queue())
        if same is not None and queue.holds(same):
            log.debug(kv(event="outgoing_merged", lane=_kind(lane)))
        else:
            queue.lanes[priority].append((job, same))
        while len(queue) > self.max_queue:
            dropped = queue.drop_lowest()
            log.warning(
                kv(event="outgoing_dropped", lane=_kind(lane), priority=dropped.name.lower())
            )
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
                log.exception(kv(event="outgoing_failed", lane=_kind(lane)))
        # No await since the queue was found empty: nothing can have been put in between.
        del self._queues[lane]
        del self._workers[lane]

    async def pace(self, lane: Hashable) -> None:
        """Wait until one more new message fits in `lane`'s window, and count it."""
        sent = self._posted.setdefault(lane, deque())
        while len(sent) >= self.posts_per_window:
            wait = sent[0] + self.window - self.clock()
            if wait > 0:
                if self.on_wait is not None:
                    self.on_wait()
                await self.sleep(wait)
            sent.popleft()
        sent.append(self.clock())

    def waiting(self, lane: Hashable) -> int:
        """How many jobs wait on `lane` (not counting one running)."""
        queue = self._queues.get(lane)
        return 0 if queue is None else len(queue)

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


def _kind(lane: Hashable) -> object:
    """What to log of a lane: its kind (`channel`, `user`), never an id or a content."""
    return lane[0] if isinstance(lane, tuple) and lane else lane
