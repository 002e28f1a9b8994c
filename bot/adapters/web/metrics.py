"""Prometheus metrics of one bot process (`GET /metrics`, prometheus-client).

`Metrics` owns its own `CollectorRegistry` (never the library's global one), so every process,
and every test, has its own series. The runner makes one and hands it to what counts:
`MeteredCore` wraps each platform's core (commands, presses, refusals, the answer latency,
the turn timer's failed ticks);
the chat adapters count their platform calls and rate-limit waits through `platform_call` and
`rate_limited` (`bot.adapters.meter`); the web table counts its viewers and frames.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from bot.core.messages import Command, Outgoing, OutKind, Press, Sender
from bot.core.moves import Move

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Metrics:
    """The process's series, in a registry of its own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.commands = Counter("bot_commands", "Commands handled", ["platform"], registry=r)
        self.presses = Counter(
            "bot_presses", "Button presses handled (web moves included)", ["platform"], registry=r
        )
        self.refusals = Counter(
            "bot_refusals", "Commands and presses refused", ["platform"], registry=r
        )
        self.latency = Histogram(
            "bot_answer_seconds",
            "Time from a command or press to its answer",
            ["platform", "kind"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.platform_calls = Counter(
            "bot_platform_calls", "Calls to a chat platform's API", ["platform"], registry=r
        )
        self.rate_limit_waits = Counter(
            "bot_rate_limit_waits",
            "Times a chat platform's rate limit made the bot wait",
            ["platform"],
            registry=r,
        )
        self.tick_failures = Counter(
            "bot_tick_failures",
            "Turn-timer ticks that failed (the database away or busy), by error",
            ["error"],
            registry=r,
        )
        self.open_tables = Gauge("bot_open_tables", "Open tables in this process", registry=r)
        self.viewers = Gauge("bot_web_viewers", "Web table pages connected", registry=r)
        self.web_frames = Counter(
            "bot_web_state_frames", "State frames sent to web viewers", registry=r
        )
        self.web_bytes = Counter(
            "bot_web_state_bytes", "Bytes of state frames sent to web viewers", registry=r
        )
        self._gauges: list[Callable[[], None]] = []

    def watch(self, update: Callable[[], None]) -> None:
        """Run `update` before each scrape (it sets the gauges from live counts)."""
        self._gauges.append(update)

    def render(self) -> bytes:
        """The Prometheus text exposition of every series."""
        for update in self._gauges:
            update()
        return bytes(generate_latest(self.registry))

    def platform_call(self, platform: str) -> None:
        """A chat adapter made one API call."""
        self.platform_calls.labels(platform).inc()

    def rate_limited(self, platform: str) -> None:
        """A chat adapter waited for the platform's rate limit."""
        self.rate_limit_waits.labels(platform).inc()


def refused(items: list[Outgoing]) -> bool:
    """Whether an answer is a refusal (an error item to the sender)."""
    return any(item.kind is OutKind.ERROR for item in items)


class MeteredCore:
    """A core (`CoreApi`) whose commands and presses are counted and timed; everything else
    goes straight to the core it wraps."""

    def __init__(self, core: Any, metrics: Metrics, clock: Callable[[], float] = time.perf_counter):
        self._core = core
        self._metrics = metrics
        self._clock = clock

    def __getattr__(self, name: str) -> Any:
        return getattr(self._core, name)

    async def handle(self, command: Command) -> list[Outgoing]:
        """The core's answer, counted and timed."""
        m = self._metrics
        began = self._clock()
        out: list[Outgoing] = await self._core.handle(command)
        m.latency.labels(command.platform, "command").observe(self._clock() - began)
        m.commands.labels(command.platform).inc()
        if refused(out):
            m.refusals.labels(command.platform).inc()
        return out

    async def act(self, table_id: str, who: Sender, nonce: str, move: Move) -> list[Outgoing]:
        """The core's answer to a typed move, counted and timed as a press."""
        m = self._metrics
        began = self._clock()
        out: list[Outgoing] = await self._core.act(table_id, who, nonce, move)
        m.latency.labels(who.platform, "press").observe(self._clock() - began)
        m.presses.labels(who.platform).inc()
        if refused(out):
            m.refusals.labels(who.platform).inc()
        return out

    async def press(self, press: Press) -> list[Outgoing]:
        """The core's answer, counted and timed."""
        m = self._metrics
        began = self._clock()
        out: list[Outgoing] = await self._core.press(press)
        m.latency.labels(press.platform, "press").observe(self._clock() - began)
        m.presses.labels(press.platform).inc()
        if refused(out):
            m.refusals.labels(press.platform).inc()
        return out

    async def tick(self, now: datetime | None = None) -> list[Outgoing]:
        """The core's timers; a failed tick is counted (by error class) and raised on."""
        try:
            out: list[Outgoing] = await self._core.tick(now)
        except Exception as exc:
            self._metrics.tick_failures.labels(type(exc).__name__).inc()
            raise
        return out
