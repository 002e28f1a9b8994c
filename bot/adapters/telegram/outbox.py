"""Group traffic, one queue per chat, sent in the background by one worker per chat.

Telegram lets a bot send about 20 messages a minute into one group (edits and deletions count),
and python-telegram-bot's rate limiter makes a call wait when that budget is spent. If update
handlers awaited those calls, a button press would be answered seconds late and the private
messages of the same update would wait behind the group's. So handlers only put group jobs here
and return; a worker per chat runs them in order.

- Jobs of one chat run in the order they were posted, one at a time.
- A job with a `key` replaces an older pending job with the same key (the older one is dropped
  and the new one goes to the end of the queue): only the newest state of a message is written,
  and a new message posted before it keeps its place before it.
- `later(delay, ...)` posts a job after a delay (the injected `sleep`), e.g. deleting a short
  reply after a few seconds.
- A worker ends when its queue is empty; `flush` runs what is due and waits for every worker, so
  nothing is left running at shutdown.
- Play goes first (issue 25): a job is `Priority.TABLE` (the table message, announcements, turn
  prompts: in the order they were posted) or `Priority.ANSWER` (answers to one member, prompts to
  start the private chat); a worker runs every waiting TABLE job before the next ANSWER job, so a
  member's flood of commands never holds the table message up.
- An ANSWER job with a `same` key that is already waiting is not queued twice (identical answers
  are merged).
- Each chat's queue is bounded (`max_queue`): beyond it the oldest job of the lowest priority
  waiting is dropped and logged (its chat and priority, never its content).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from enum import IntEnum

from bot.logs import kv

log = logging.getLogger("bot.telegram")

Run = Callable[[], Awaitable[object]]  # what the job returns is not used
Sleep = Callable[[float], Awaitable[None]]


MAX_QUEUE = 50  # waiting jobs per chat; Telegram sends about 20 a minute into a group


class Priority(IntEnum):
    """Which group traffic goes first; higher first."""

    ANSWER = 0  # an answer to one member, a prompt to start the private chat
    TABLE = 1  # the table message, announcements, turn prompts


@dataclass
class Job:
    """One piece of group traffic: `run` makes the Bot API call(s)."""

    run: Run
    key: str | None = None
    priority: Priority = Priority.TABLE
    same: Hashable | None = None  # identical answers share it: one of them waits at a time
    dropped: Callable[[], None] | None = None  # told when the job is dropped from a full queue


class ChatQueue:
    """One chat's waiting jobs, a FIFO per priority."""

    def __init__(self) -> None:
        self.lanes: dict[Priority, deque[Job]] = {p: deque() for p in Priority}

    def __len__(self) -> int:
        return sum(len(lane) for lane in self.lanes.values())

    def __bool__(self) -> bool:
        return any(self.lanes.values())

    def __iter__(self):  # type: ignore[no-untyped-def]
        for priority in sorted(Priority, reverse=True):
            yield from self.lanes[priority]

    def append(self, job: Job) -> None:
        """Queue `job` after the others of its priority."""
        self.lanes[job.priority].append(job)

    def remove(self, job: Job) -> None:
        """Take a waiting job out."""
        self.lanes[job.priority].remove(job)

    def popleft(self) -> Job:
        """The next job to run: the oldest of the highest priority waiting."""
        for priority in sorted(Priority, reverse=True):
            if self.lanes[priority]:
                return self.lanes[priority].popleft()
        raise IndexError("pop from an empty chat queue")

    def drop_lowest(self) -> Job:
        """Take out the oldest job of the lowest priority waiting (the queue is full)."""
        for priority in sorted(Priority):
            if self.lanes[priority]:
                return self.lanes[priority].popleft()
        raise IndexError("drop from an empty chat queue")


class Outbox:
    """Per-chat queues of group jobs, each drained by its own background task."""

    def __init__(self, sleep: Sleep = asyncio.sleep, max_queue: int = MAX_QUEUE) -> None:
        self._sleep = sleep
        self.max_queue = max_queue
        self._queues: dict[int, ChatQueue] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._timers: dict[asyncio.Task[None], tuple[int, Run, Priority]] = {}

    def post(
        self,
        chat_id: int,
        run: Run,
        key: str | None = None,
        *,
        priority: Priority = Priority.TABLE,
        same: Hashable | None = None,
        dropped: Callable[[], None] | None = None,
    ) -> None:
        """Queue a job for the chat and make sure its worker is running (never waits). `key`:
        a newer state of the same message replaces the waiting one; `same`: an identical
        answer already waiting makes this one redundant; `dropped` is called if the job is
        dropped from a full queue."""
        queue = self._queues.setdefault(chat_id, ChatQueue())
        if same is not None and any(job.same == same for job in queue):
            log.debug(kv(event="group_job_merged", chat=chat_id))
            return
        if key is not None:
            for old in [job for job in queue if job.key == key]:
                queue.remove(old)
        queue.append(Job(run, key, priority, same, dropped))
        while len(queue) > self.max_queue:
            gone = queue.drop_lowest()
            log.warning(
                kv(event="group_job_dropped", chat=chat_id, priority=gone.priority.name.lower())
            )
            if gone.dropped is not None:
                gone.dropped()
        if chat_id not in self._workers:
            self._workers[chat_id] = asyncio.create_task(self._work(chat_id))

    def later(
        self,
        delay: float,
        chat_id: int,
        run: Run,
        *,
        priority: Priority = Priority.TABLE,
        dropped: Callable[[], None] | None = None,
    ) -> None:
        """Queue a job for the chat once `delay` seconds have passed."""

        async def wait_then_post() -> None:
            await self._sleep(delay)
            self._timers.pop(task, None)
            self.post(chat_id, run, priority=priority, dropped=dropped)

        task = asyncio.create_task(wait_then_post())
        self._timers[task] = (chat_id, run, priority)

    def last(self, chat_id: int, priority: Priority = Priority.TABLE) -> Job | None:
        """The chat's newest waiting job of `priority` (not yet started), if any: a caller may
        still add to it without changing the order of anything."""
        queue = self._queues.get(chat_id)
        lane = queue.lanes[priority] if queue is not None else None
        return lane[-1] if lane else None

    def waiting(self, chat_id: int) -> int:
        """How many jobs wait in the chat's queue."""
        queue = self._queues.get(chat_id)
        return 0 if queue is None else len(queue)

    async def _work(self, chat_id: int) -> None:
        queue = self._queues[chat_id]
        try:
            while queue:
                job = queue.popleft()
                try:
                    await job.run()
                except Exception as exc:  # one failed call never stops the chat's traffic
                    log.warning(kv(event="group_send_failed", chat=chat_id, error=repr(exc)))
        finally:
            # No await between the empty check and here: a job posted later starts a new worker.
            del self._workers[chat_id]
            if not queue:
                del self._queues[chat_id]

    async def drain(self, timeout: float) -> None:
        """Wait until every queue is empty (delayed jobs keep waiting); after `timeout` seconds
        the workers are cancelled and what they had not sent is dropped (and logged)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self._workers:
            left = deadline - loop.time()
            done, _ = await asyncio.wait(list(self._workers.values()), timeout=max(left, 0))
            if not done and left <= 0:
                dropped = sum(len(queue) for queue in self._queues.values())
                log.warning(kv(event="group_traffic_dropped", jobs=dropped))
                workers = list(self._workers.values())
                for worker in workers:
                    worker.cancel()
                for worker in workers:
                    with contextlib.suppress(asyncio.CancelledError):
                        await worker
                self._queues.clear()
                return

    async def flush(self, timeout: float) -> None:
        """Send everything now: delayed jobs are due at once, then wait for every queue to
        empty (at most `timeout` seconds, see `drain`). No task of the outbox is left running."""
        for task, (chat_id, run, priority) in list(self._timers.items()):
            del self._timers[task]
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
            self.post(chat_id, run, priority=priority)
        await self.drain(timeout)
