"""Trusting this process's copy of a table for one command, checked afterwards.

A command typed in a channel acts on the channel's open table. Reading the table's version
before every command (one database round trip) would cost more than the step itself; instead,
inside a `Trust` scope (`run`, around a game command of `Core`) a table this process holds is
used as it is, and a channel where it holds none is taken to have none; both are noted here.
The outcome is then checked, at no cost when the command committed:

- a commit is the store's compare-and-set on the version, so a step applied to a copy that
  another process had moved on loses (`StaleVersion`), the table is reloaded and the step applied
  once more to the fresh state (`TableService._run_locked`);
- opening a table checks the channel: the store refuses a second open table in it;
- a command that committed nothing (a refusal, a look at one's cards) is checked with one read of
  each noted table's version (or channel's table); when one moved on, closed or appeared, the
  whole command runs once more with every table read first, so that the answer is the one the
  store's state gives.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from bot.core.errors import Refusal
from bot.logs import kv

if TYPE_CHECKING:
    from storage import Store

log = logging.getLogger("bot.core.tables")
T = TypeVar("T")


@dataclass
class Trust:
    """What one command did with tables it took from memory unread."""

    # table id -> the live table (`LiveTable`) used without reading its version in this command
    unread: dict[int, Any] = field(default_factory=dict)
    # (platform, channel) taken for having no open table, as this process holds none there
    empty: set[tuple[str, str]] = field(default_factory=set)
    committed: bool = False  # a step of this command was committed (its copy was current)
    stale: bool = False  # a table it used unread turned out moved on or closed


SCOPE: ContextVar[Trust | None] = ContextVar("table_trust", default=None)


def scope() -> Trust | None:
    """The running command's trust scope, or None (every table is read before use)."""
    return SCOPE.get()


def checked(table_id: int, moved: bool) -> None:
    """The table's version was read (or its commit lost the race): it is no longer unread, and
    when it `moved`, what the command decided on it before is stale."""
    trust = SCOPE.get()
    if trust is not None and trust.unread.pop(table_id, None) is not None and moved:
        trust.stale = True


def committed() -> None:
    """A step of the running command was committed."""
    trust = SCOPE.get()
    if trust is not None:
        trust.committed = True


async def run(store: Store, work: Callable[[], Awaitable[T]]) -> T:
    """Run one command's `work` in a trust scope. When it committed nothing and a table it used
    unread had moved on or closed, its answer or refusal was stale: `work` runs once more
    outside the scope, every table read first."""
    trust = Trust()
    token = SCOPE.set(trust)
    refused: Refusal | None = None
    try:
        out = await work()
    except Refusal as exc:
        refused = exc
    finally:
        SCOPE.reset(token)
    if await _stale(store, trust):
        log.info(kv(event="stale_copy", tables=",".join(map(str, trust.unread)) or "-"))
        return await work()
    if refused is not None:
        raise refused
    return out


async def _stale(store: Store, trust: Trust) -> bool:
    """Whether a command that committed nothing used a table that was not current."""
    if trust.committed:
        return False
    if trust.stale:
        return True
    for live in list(trust.unread.values()):
        if live.closed:
            return True
        head = await store.table_head(live.id)
        if head is None or head.status != "open" or head.version != live.version:
            return True
    for platform, channel in trust.empty:
        if await store.channel_head(platform, channel) is not None:
            return True  # another process opened a table there
    return False
