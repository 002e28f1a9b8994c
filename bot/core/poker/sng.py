"""The arithmetic of a poker sit-and-go table: its options, the rising ante schedule, the order
in which players busted in the same hand place, and the standing of the table.

A sit-and-go table (`bot.core.registry.sit_and_go`) seats every entrant with the same number of
TOURNAMENT chips (never wallet chips: the entry fee is the tournament's business). The ante of a
hand is fixed when it is dealt from the level reached then: `level = elapsed // level_seconds`
on the table's injected clock. Nothing here performs I/O or reads a clock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from bot.core.commands import STRUCTURES, lookup
from bot.core.errors import Refusal
from bot.core.table import house
from games.base import shuffled

# the default ante of each level for 1000 starting chips: 10, 15, 25, 40, 60, then the same
# steps times 10 (100, 150, 250, 400, 600), times 100 and so on, without end
STEPS = (10, 15, 25, 40, 60)
REFERENCE_CHIPS = 1000
DEFAULT_CHIPS = 1000
DEFAULT_LEVEL_SECONDS = 300
MIN_CHIPS = 1
MAX_CHIPS = 1_000_000
MIN_LEVEL_SECONDS = 1
BUST_CONTEXT = "sng-bust"  # the seeded draw between players busted with equal stacks


def default_ante(level: int, chips: int) -> int:
    """The default schedule's ante at `level` (from 0) for `chips` starting chips: the
    1000-chip schedule scaled to `chips`, rounded half up, at least 1."""
    base = STEPS[level % len(STEPS)] * 10 ** (level // len(STEPS))
    return max(1, (base * chips + REFERENCE_CHIPS // 2) // REFERENCE_CHIPS)


def ante_for(level: int, chips: int, antes: Sequence[int] | None) -> int:
    """The ante at `level`: from the table's own schedule when it has one (its last ante stays
    once the schedule runs out), else from the default schedule."""
    if antes:
        return antes[min(level, len(antes) - 1)]
    return default_ante(level, chips)


def level_at(started: datetime, now: datetime, level_seconds: int) -> int:
    """The level reached `now` at a table whose play started at `started`."""
    elapsed = (now - started).total_seconds()
    return max(0, int(elapsed // level_seconds))


def table_options(game: str, settings: Mapping[str, Any], tournament_id: Any) -> dict[str, Any]:
    """The stored options of a sit-and-go table from the tournament's `settings` (`chips`,
    `level_seconds`, optional `antes` list, `structure` and `rules`, house rules as
    `name=value` words); bad settings are refused."""
    chips = settings.get("chips", DEFAULT_CHIPS)
    seconds = settings.get("level_seconds", DEFAULT_LEVEL_SECONDS)
    if not _whole(chips) or not MIN_CHIPS <= chips <= MAX_CHIPS:
        raise Refusal("err.sng_chips", min=MIN_CHIPS, max=MAX_CHIPS)
    if not _whole(seconds) or seconds < MIN_LEVEL_SECONDS:
        raise Refusal("err.sng_level_time")
    antes = settings.get("antes")
    if antes is not None:
        antes = list(antes)
        if not antes or any(not _whole(a) or not 1 <= a <= chips for a in antes):
            raise Refusal("err.sng_antes", max=chips)
    structure = lookup(STRUCTURES, str(settings.get("structure", "pot_limit")))
    if structure is None:
        raise Refusal("err.sng_structure")
    words = list(settings.get("rules", ()))  # house rules, `name=value` as `/poker open` takes
    chosen = house.parse(game, words)
    if "speed" in chosen:  # a tournament keeps its own clock
        raise Refusal("err.house_speed_tournament")
    return {
        "tournament": tournament_id,
        "chips": chips,
        "level_seconds": seconds,
        "antes": antes,
        "ante": ante_for(0, chips, antes),
        "structure": structure,
        # never used to buy in (joining is refused) but read by the shared poker texts
        "min_buy_in": chips,
        "default_buy_in": chips,
        **house.defaults(game),
        **house.stored(chosen),
    }


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def bust_order(busted: Sequence[tuple[int, int]], seed: bytes) -> list[int]:
    """Player ids of those busted in one hand, best place first: who started the hand with more
    chips places higher; equal stacks are ordered by a draw from the hand's seed (shown once the
    table has closed and the reveal hours passed, so anybody can check it then). `busted` holds (player id, stack at the deal)."""
    drawn = shuffled(sorted(busted), seed, BUST_CONTEXT)
    return [pid for pid, _ in sorted(drawn, key=lambda item: -item[1])]


def standing(alive: Sequence[tuple[int, int]], out: Sequence[int]) -> list[int]:
    """The table's order, best first: players still in by chips (most first; equal stacks keep
    seat order), then the eliminated, the last one out first. `alive` holds (player id, chips)
    in seat order, `out` the eliminated in elimination order."""
    ranked = sorted(range(len(alive)), key=lambda i: -alive[i][1])
    return [alive[i][0] for i in ranked] + list(reversed(out))
