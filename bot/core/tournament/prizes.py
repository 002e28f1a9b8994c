"""How a tournament's fees are split among its best places.

Each paid place gets its percentage of the pool rounded down; the chips left by rounding go one
each to the best places in order (the integer rule of the Okey payout, `games.okey.scoring`),
so the prizes always add up to the pool exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

OKEY_SPLIT = (50, 30, 20)
POKER_SPLIT = (65, 35)
POKER_ALL_UNDER = 4  # a sit-and-go of fewer entrants pays its winner alone


def split(pool: int, percents: Sequence[int], entrants: int) -> list[int]:
    """Prizes for places 1, 2, ... from `pool`: the first `min(len(percents), entrants)`
    percentages, scaled to add up to the whole pool when fewer places than shares are paid."""
    if pool < 0 or entrants < 1 or not percents or min(percents) <= 0:
        raise ValueError("a split needs a pool >= 0, an entrant and positive shares")
    shares = list(percents[: min(len(percents), entrants)])
    whole = sum(shares)
    out = [pool * share // whole for share in shares]
    rest = pool - sum(out)
    for place in range(rest):
        out[place % len(out)] += 1
    return out


def poker_split(entrants: int) -> tuple[int, ...]:
    """The sit-and-go split: 65/35, or winner takes all under 4 entrants."""
    return POKER_SPLIT if entrants >= POKER_ALL_UNDER else (100,)


def parse_split(word: str) -> tuple[int, ...] | None:
    """`50/30/20` -> (50, 30, 20); None unless 1-10 positive whole shares adding up to 100."""
    parts = word.split("/")
    if not 1 <= len(parts) <= 10 or not all(p.isascii() and p.isdigit() for p in parts):
        return None
    shares = tuple(int(p) for p in parts)
    if min(shares) <= 0 or sum(shares) != 100:
        return None
    return shares
