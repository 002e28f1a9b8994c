"""A command budget per user and chat, so that one member cannot flood a group (issue 25).

Each (platform, chat, user) has a token bucket: `burst` commands at once, refilled at `rate`
commands a second. A command that finds the bucket empty is not run: the first such command
gets one private "slow down" (`Verdict.WARN`), every later one is ignored in silence
(`Verdict.SILENT`) until a token has come back, after which the next refusal warns again.

Button presses have a bucket of their own, more generous (a press is already bounded by its turn
nonce); an empty one refuses the press with the same words (a press is always answered, as a
pop-up only the presser sees, so that costs the chat nothing).

Memory stays bounded: a bucket that has refilled is the same as a new one, so buckets idle longer
than their refill time are forgotten, and at most `max_buckets` are kept (the least recently
used go first). The clock is injected (seconds, e.g. the core clock's timestamp).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from datetime import datetime
from enum import Enum

MAX_BUCKETS = 100_000


class Verdict(Enum):
    """What to do with one command."""

    OK = "ok"  # run it
    WARN = "warn"  # refuse it with one "slow down" to the sender
    SILENT = "silent"  # drop it: the sender was told already


@dataclass
class _Bucket:
    tokens: float
    at: float  # when `tokens` was last brought up to date
    warned: bool = False


class Throttle:
    """Token buckets keyed by whatever the caller chooses (the core: platform, chat, user)."""

    def __init__(
        self,
        burst: int,
        rate: float,
        clock: Callable[[], float],
        *,
        max_buckets: int = MAX_BUCKETS,
    ) -> None:
        if burst < 1 or rate <= 0:
            raise ValueError("a throttle needs burst >= 1 and rate > 0")
        self.burst = burst
        self.rate = rate
        self.clock = clock
        self.max_buckets = max_buckets
        self._buckets: OrderedDict[Hashable, _Bucket] = OrderedDict()  # least recently used first

    @property
    def refill_seconds(self) -> float:
        """How long an empty bucket takes to fill up again."""
        return self.burst / self.rate

    def take(self, key: Hashable) -> Verdict:
        """Spend one token of `key`'s bucket, if it has one."""
        now = self.clock()
        self._forget_idle(now)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(float(self.burst), now)
        else:
            self._buckets.move_to_end(key)
            bucket.tokens = min(self.burst, bucket.tokens + max(0.0, now - bucket.at) * self.rate)
            bucket.at = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            bucket.warned = False
            return Verdict.OK
        if bucket.warned:
            return Verdict.SILENT
        bucket.warned = True
        return Verdict.WARN

    def __len__(self) -> int:
        return len(self._buckets)

    def _forget_idle(self, now: float) -> None:
        """Drop buckets that have refilled (untouched for the refill time), oldest first, and
        the least recently used beyond `max_buckets`."""
        buckets = self._buckets
        while buckets:
            key, oldest = next(iter(buckets.items()))
            if now - oldest.at < self.refill_seconds and len(buckets) < self.max_buckets:
                return
            del buckets[key]


def budget_of(burst: int, refill_seconds: float, clock: Callable[[], datetime]) -> Throttle | None:
    """A budget of `burst` at once and one more every `refill_seconds` on the core's clock;
    None (no budget) when `burst` is 0."""
    if burst <= 0:
        return None
    return Throttle(burst, 1.0 / refill_seconds, lambda: clock().timestamp())
