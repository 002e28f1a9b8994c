"""What every part of the Store facade shares: the engine, the writer thread and the clock."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncEngine

from storage.db import Writer

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The current time in UTC (the default clock)."""
    return datetime.now(UTC)


class StoreBase:
    """A database engine with its writer (``storage.db.Writer``: reads and one-writer
    transactions) and the clock that stamps what is written."""

    def __init__(self, engine: AsyncEngine, clock: Clock = utc_now) -> None:
        self.engine = engine
        self._writer = Writer(engine)
        self._clock = clock
