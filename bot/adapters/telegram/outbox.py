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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.logs import kv

log = logging.getLogger("bot.telegram")

Run = Callable[[], Awaitable[object]]  # what the job returns is not used
Sleep = Callable[[float], Awaitable[None]]


@dataclass
class Job:
    """One piece of group traffic: `run` makes the Bot API call(s)."""

    run: Run
    key: str | None = None


class Outbox:
    """Per-chat queues of group jobs, each drained by its own background task."""

    def __init__(self, sleep: Sleep = asyncio.sleep) -> None:
        self._sleep = sleep
        self._queues: dict[int, deque[Job]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._timers: dict[asyncio.Task[None], tuple[int, Run]] = {}

    def post(self, chat_id: int, run: Run, key: str | None = None) -> None:
        """Queue a job for the chat and make sure its worker is running (never waits)."""
        queue = self._queues.setdefault(chat_id, deque())
        if key is not None:
            for old in [job for job in queue if job.key == key]:
                queue.remove(old)
        queue.append(Job(run, key))
        if chat_id not in self._workers:
            self._workers[chat_id] = asyncio.create_task(self._work(chat_id))

    def later(self, delay: float, chat_id: int, run: Run) -> None:
        """Queue a job for the chat once `delay` seconds have passed."""

        async def wait_then_post() -> None:
            await self._sleep(delay)
            self._timers.pop(task, None)
            self.post(chat_id, run)

        task = asyncio.create_task(wait_then_post())
        self._timers[task] = (chat_id, run)

    def last(self, chat_id: int) -> Job | None:
        """The chat's newest waiting job (not yet started), if any: a caller may still add to
        it without changing the order of anything."""
        queue = self._queues.get(chat_id)
        return queue[-1] if queue else None

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
        for task, (chat_id, run) in list(self._timers.items()):
            del self._timers[task]
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
            self.post(chat_id, run)
        await self.drain(timeout)
