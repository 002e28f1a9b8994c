"""Helpers of the 101 table tests: rig a dealt round (racks, indicator, stock) in the live table
and in its committed snapshot, and find private items in what the core answered."""

from __future__ import annotations

from collections import Counter

from bot.core.app import Core
from bot.core.messages import Outgoing, OutKind
from games.okey.tiles import full_set

CHANNEL = "c1"

# A dealt rack (22 tiles) whose best opening is four runs worth 134 (R10-R13, Y10-Y13, B9-B12),
# with the okey K2 (indicator K1) held by nobody; no five pairs.
OPENING_RACK = (
    "R10",
    "R11",
    "R12",
    "R13",
    "Y10",
    "Y11",
    "Y12",
    "Y13",
    "B9",
    "B10",
    "B11",
    "K8",
    "B12",
    "R1",
    "R6",
    "Y3",
    "Y6",
    "B2",
    "K4",
    "R8",
    "Y1",
    "B5",
)


def live(core: Core, channel: str = CHANNEL):
    """The live table of `channel`."""
    found = core.tables.in_channel("test", channel)
    assert found is not None
    return found


def rig(
    core: Core,
    racks: list[list[str]],
    indicator: str,
    stock_front: list[str],
    starter: int = 0,
) -> None:
    """Give the round in play these racks (engine seats), indicator and first stock tiles; every
    other tile goes to the stock after them, so no tile is created or lost. The change is put
    in the committed snapshot too (as a restart would load it)."""
    table = live(core)
    game = table.session.match.round
    rest = Counter(full_set())
    for tile in [t for r in racks for t in r] + [indicator] + stock_front:
        rest[tile] -= 1
        assert rest[tile] >= 0, tile
    game.racks = [list(r) for r in racks]
    game.indicator = indicator
    game.stock = list(stock_front) + sorted(rest.elements())
    game.starter = game.turn = starter
    game.phase = "play"
    game.piles = [[] for _ in racks]
    game._cache = {}
    assert game.tiles_accounted() == 106
    table.snapshot = table.session.to_dict()


def private(out: list[Outgoing], user: str) -> list[Outgoing]:
    """The private items to `user`."""
    return [o for o in out if o.kind is OutKind.PRIVATE and o.user_id == user]
