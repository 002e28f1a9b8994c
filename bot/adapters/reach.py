"""Reaching a chat platform at start-up: while the Bot API or Discord cannot be reached, say so
in one log line and try again with a capped, jittered exponential backoff, until it answers or
a stop signal comes (then the runner stops cleanly, exit code 0)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from bot.logs import kv

T = TypeVar("T")

FIRST_DELAY = 1.0  # seconds before the second attempt
MAX_DELAY = 60.0  # the wait between attempts never grows past this
ERROR_CHARS = 200  # how much of an error's text the log line keeps

# Waits `seconds` or until `stop` is set; True when it was stopped (tests pass their own).
Wait = Callable[[asyncio.Event, float], Awaitable[bool]]


async def wait_or_stop(stop: asyncio.Event, seconds: float) -> bool:
    """Sleep `seconds`, cut short by `stop`; returns whether `stop` is set."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
    return stop.is_set()


@dataclass
class Backoff:
    """Exponential delays from `first` to at most `cap` seconds, each shortened by a random
    part of up to `jitter` of itself (so many bots restarting together do not retry in step)."""

    first: float = FIRST_DELAY
    cap: float = MAX_DELAY
    factor: float = 2.0
    jitter: float = 0.25
    rng: random.Random = field(default_factory=random.Random)

    def delay(self, failures: int) -> float:
        """The wait after the `failures`-th failed attempt in a row (from 1)."""
        base = min(self.cap, self.first * self.factor ** max(0, failures - 1))
        return base * (1.0 - self.jitter * self.rng.random())


def describe(exc: BaseException) -> str:
    """An error in one short line (its type and text; never a traceback)."""
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    return text[:ERROR_CHARS]


async def keep_trying(
    attempt: Callable[[], Awaitable[T]],
    *,
    platform: str,
    target: str,
    unreachable: Callable[[BaseException], bool],
    stop: asyncio.Event,
    log: logging.Logger,
    backoff: Backoff | None = None,
    wait: Wait = wait_or_stop,
    before_retry: Callable[[], Awaitable[object]] | None = None,
    cancel_on_stop: bool = True,
) -> T | None:
    """Await `attempt()` until it succeeds and return its result; None once `stop` is set
    (an attempt in progress is cancelled). An error for which `unreachable(error)` holds is
    retried after the backoff's delay: the first one is logged as one WARNING line naming the
    platform and `target` (host, never a URL with a token), later ones at DEBUG, and success
    after failures at INFO. Any other error is raised (a rejected token must stop the bot).
    `before_retry` cleans up what a failed attempt left (e.g. a half-open session). With
    `cancel_on_stop=False` an attempt in progress is left to end by itself (it is stopped
    another way, e.g. by closing its client); only the waits between attempts end at `stop`."""
    backoff = backoff or Backoff()
    failures = 0
    while not stop.is_set():
        trying = asyncio.ensure_future(attempt())
        stopping = asyncio.ensure_future(stop.wait() if cancel_on_stop else asyncio.sleep(0))
        try:
            await asyncio.wait({trying, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if not cancel_on_stop:
                await asyncio.wait({trying})
        finally:
            stopping.cancel()
        if not trying.done():
            trying.cancel()
            with contextlib.suppress(BaseException):
                await trying
            return None
        error = trying.exception()
        if error is None:
            if failures:
                log.info(kv(event="reachable", platform=platform, target=target, after=failures))
            return trying.result()
        if not unreachable(error):
            raise error
        failures += 1
        delay = backoff.delay(failures)
        fields = dict(platform=platform, target=target, error=describe(error))
        if failures == 1:
            log.warning(kv(event="unreachable", **fields, retry_in=f"{delay:.1f}s"))
        else:
            log.debug(kv(event="still_unreachable", **fields, attempt=failures, retry_in=delay))
        if before_retry is not None:
            await before_retry()
        if await wait(stop, delay):
            return None
    return None
