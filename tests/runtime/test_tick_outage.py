"""The turn timer while the database is away: one WARNING when its ticks start failing, one INFO
when they work again, the tracebacks at DEBUG, a count in /metrics, and a backing-off timer that
does not hit a failing database every second. Runs on virtual time (`testkit.virtual_time`)."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

import pytest

from bot.adapters.runtime import TICK_BACKOFF_MAX, tick_delay, tick_forever
from bot.adapters.web.metrics import MeteredCore, Metrics
from storage import Unavailable
from testkit import virtual_time

OUTAGE = 10.0  # seconds the database stays away
RUN = 40.0  # seconds the timer runs in all
log = logging.getLogger("test.tick_outage")


class OutageCore:
    """A core whose ticks fail while the database is away (`OUTAGE` seconds from the start)."""

    def __init__(self, error: Exception) -> None:
        self.error = error
        self.start = asyncio.get_running_loop().time()
        self.attempts: list[float] = []

    async def tick(self, now: datetime | None = None) -> list[object]:
        at = asyncio.get_running_loop().time() - self.start
        self.attempts.append(at)
        if at < OUTAGE:
            raise self.error
        return []


def run_outage(error: Exception) -> tuple[OutageCore, Metrics]:
    async def main() -> tuple[OutageCore, Metrics]:
        core, metrics = OutageCore(error), Metrics()
        stop = asyncio.Event()
        asyncio.get_running_loop().call_later(RUN, stop.set)

        async def deliver(items: list[object]) -> None:
            pass

        await tick_forever(
            MeteredCore(core, metrics),
            deliver,
            now=lambda: datetime(2026, 1, 1, tzinfo=UTC),
            every=1.0,
            log=log,
            stop=stop,
        )
        return core, metrics

    return virtual_time.run(main())


def test_a_ten_second_outage_logs_two_lines(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger=log.name)
    error = Unavailable("the database is unavailable (ConnectionRefusedError)")
    core, metrics = run_outage(error)
    failures = [at for at in core.attempts if at < OUTAGE]
    shown = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert [(r.levelname, r.getMessage().split()[0]) for r in shown] == [
        ("WARNING", "event=tick_failed"),
        ("INFO", "event=tick_recovered"),
    ]
    assert shown[0].exc_info is None  # a known fault: no traceback above DEBUG
    assert "error=Unavailable" in shown[0].getMessage()
    assert f"failures={len(failures)}" in shown[1].getMessage()
    debug = [r for r in caplog.records if r.levelno == logging.DEBUG]
    assert len(debug) == len(failures) and all(r.exc_info for r in debug)
    sample = metrics.registry.get_sample_value("bot_tick_failures_total", {"error": "Unavailable"})
    assert sample == len(failures)
    # Backing off: far fewer attempts than one a second, none closer than a second apart.
    assert 2 <= len(failures) <= 5
    gaps = [b - a for a, b in zip(core.attempts, core.attempts[1:], strict=False)]
    assert all(gap >= 1.0 - 1e-6 for gap in gaps)
    assert core.attempts[len(failures)] - OUTAGE <= TICK_BACKOFF_MAX  # back soon after


def test_a_bug_in_a_tick_shows_its_traceback_once(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=log.name)
    run_outage(RuntimeError("a bug"))
    shown = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert [r.levelname for r in shown] == ["WARNING", "INFO"]
    assert shown[0].exc_info is not None


def test_the_delay_doubles_up_to_its_cap() -> None:
    assert [tick_delay(1.0, n) for n in range(5)] == [1.0, 2.0, 4.0, TICK_BACKOFF_MAX, 5.0]
    assert tick_delay(0.0, 3) == 0.0  # a zero period (tests) stays zero
    assert tick_delay(10.0, 2) == 10.0  # never shorter than the period itself
