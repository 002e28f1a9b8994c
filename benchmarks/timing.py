"""Timing the Store's reads in the database benchmarks (`bench_history`, `bench_reads`): each
await of a call in milliseconds, and a result line of their median and 95th percentile."""

from __future__ import annotations

import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any


async def timed(call: Callable[[], Awaitable[Any]], repeat: int) -> list[float]:
    """Milliseconds of each of `repeat` awaits of `call()`."""
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        await call()
        out.append((time.perf_counter() - start) * 1000)
    return out


def summary(name: str, ms: list[float], width: int = 44, digits: int = 7) -> str:
    """One result line: `name` padded to `width`, the median and the 95th percentile (each
    `digits` wide)."""
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    median = statistics.median(ms)
    return f"{name:<{width}} median {median:{digits}.2f} ms   p95 {p95:{digits}.2f} ms"
