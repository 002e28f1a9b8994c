"""Retention on the core's timer: once an hour (and at the first tick after a start) the store
prunes closed tables' action logs and snapshots older than `CoreConfig.retention_days`
(`storage/retention.py` says what stays), a bounded number of batches per run so a tick never
stalls; what is left over is taken at the next run. Several processes may run it at once."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.logs import kv

if TYPE_CHECKING:
    from storage import Store

log = logging.getLogger("bot.core.retention")

EVERY = timedelta(hours=1)
BATCH = 200  # tables per write transaction
BATCHES = 5  # transactions per run


class Retention:
    """Prunes what `days` of retention let go, at most once per `EVERY`; `days` 0: never."""

    def __init__(self, store: Store, days: float) -> None:
        self.store = store
        self.days = days
        self.last: datetime | None = None

    async def run(self, now: datetime) -> int:
        """Prune if due (an error is logged, never raised: a tick goes on); tables pruned."""
        if self.days <= 0:
            return 0
        if self.last is not None and now - self.last < EVERY:
            return 0
        self.last = now
        try:
            pruned = await self.store.prune(
                now - timedelta(days=self.days), batch=BATCH, batches=BATCHES
            )
        except Exception as exc:
            log.warning(kv(event="retention_failed", error=type(exc).__name__))
            return 0
        if pruned:
            log.info(kv(event="retention", tables=pruned, days=self.days))
        return pruned
