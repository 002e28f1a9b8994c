"""Açık poker's live odds, kept per position and worked out off the event loop.

The Monte Carlo of `games.poker.odds.estimate` costs tens of milliseconds. It depends only on
what its viewer sees: the hand's seed hash (its sampling seed), the house rules, every seat's up
cards, who folded and, for a player's own chance, their down card. That is the cache key
(`position`); bets, stacks and whose turn it is are not in it, so the same figures serve a whole
betting round and survive a refused press (which rebuilds the table's session from its snapshot).

`prepare` works the figures out in a worker thread (`asyncio.to_thread`) before the core builds
a message that shows them (the table service calls it under the table's lock, so the event loop
serves other tables meanwhile); `odds` then reads them from the cache and only computes on the
spot for a position nobody prepared.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Mapping
from typing import Any

from bot.render.cache import Lru
from games.poker.odds import Odds, estimate

# positions kept (a table holds a handful at a time: the public one and each asker's own)
ODDS: Lru[tuple[Any, ...], Odds] = Lru(2048)


class Counter:
    """How many times the odds were worked out (tests read it; nothing else)."""

    computed = 0


def position(view: Mapping[str, Any]) -> tuple[Any, ...]:
    """The cache key of a view: everything `estimate` reads, nothing else."""
    seat = view.get("seat")
    down = view.get("down") if seat is not None and not view.get("down_hidden") else None
    return (
        view.get("seed_hash"),
        bool(view.get("finished")),
        json.dumps(view.get("rules"), sort_keys=True),
        tuple(tuple(cards) for cards in view["up"]),
        tuple(bool(out) for out in view["folded"]),
        seat,
        down,
    )


def _work_out(view: Mapping[str, Any]) -> Odds:
    Counter.computed += 1
    return estimate(view)


def odds(view: Mapping[str, Any]) -> Odds:
    """The odds of `view`'s position: from the cache, else worked out now (and kept)."""
    return ODDS.get_or_make(position(view), lambda: _work_out(view))


async def prepare(views: Iterable[Mapping[str, Any]]) -> None:
    """Work out, in a worker thread, the odds of each view whose position is not kept yet."""
    for view in views:
        key = position(view)
        if key not in ODDS:
            ODDS.put(key, await asyncio.to_thread(_work_out, view))
