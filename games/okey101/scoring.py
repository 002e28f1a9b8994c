"""101 Okey table options, round scores and the match payout (shared/rules/okey101.md).

Scores are penalty points, lower is better: the finisher -101, an opened player the numbers left on
their rack, a player who never opened 202, each +101 discard penalty as written. The doublings
(option `doubling`) multiply rack scores, never the +101 discard penalties.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.okey.scoring import payout as split_pool

PENALTY = 101
NOT_OPENED = 202
ROUND_CHOICES = (1, 3, 5, 7, 9, 11)
PAYOUTS = ("penalty", "winner")
OPTION_DEFAULTS: dict[str, Any] = {
    "open": 101,
    "pairs_max": 3,
    "doubling": True,
    "swap_okey": True,
    "partners": False,
    "rounds": 5,
    "payout": "penalty",
}


def _bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return value


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_options(options: Mapping[str, Any] | None, players: int | None = None) -> dict[str, Any]:
    """Fill in defaults and validate 101 options; ValueError names a bad one.

    `open`: the opening threshold by series, a whole number from 101 up (default 101).
    `pairs_max`: 0-4, how many players of a table may open by pairs (default 3).
    `doubling`: True (katlamalı, default) or False (katlamasız: no doublings at all).
    `swap_okey`: True (default) lets an opened player take a wild okey back from a meld by putting
    the tile it stands for in its place.
    `partners`: False (default) or True (eşli: 4 players, seats 1+3 and 2+4 score together).
    `rounds`: 1, 3, 5, 7, 9 or 11 rounds in a match (default 5).
    `payout`: "penalty" (default: 75% to the lowest total, 25% shared by the others under 101 x
    rounds) or "winner" (everything to the lowest total).
    """
    given = dict(options or {})
    unknown = sorted(set(given) - set(OPTION_DEFAULTS))
    if unknown:
        known = ", ".join(OPTION_DEFAULTS)
        raise ValueError(f"unknown 101 option {unknown[0]!r}; known: {known}")
    out = {**OPTION_DEFAULTS, **given}
    if not _int(out["open"]) or out["open"] < PENALTY:
        raise ValueError(f"open must be a whole number from 101 up, got {out['open']!r}")
    if not _int(out["pairs_max"]) or not 0 <= out["pairs_max"] <= 4:
        raise ValueError(f"pairs_max must be 0-4, got {out['pairs_max']!r}")
    for name in ("doubling", "swap_okey", "partners"):
        _bool(name, out[name])
    if not _int(out["rounds"]) or out["rounds"] not in ROUND_CHOICES:
        raise ValueError(f"rounds must be 1, 3, 5, 7, 9 or 11, got {out['rounds']!r}")
    if out["payout"] not in PAYOUTS:
        raise ValueError(f"payout must be 'penalty' or 'winner', got {out['payout']!r}")
    if out["partners"] and players is not None and players != 4:
        raise ValueError(f"partners need 4 players, got {players}")
    return out


def sides(players: int, partners: bool) -> list[list[int]]:
    """The scoring sides: pairs of opposite seats with partners, else one side per seat."""
    if partners:
        return [[0, 2], [1, 3]]
    return [[s] for s in range(players)]


def side_totals(scores: Sequence[int], partners: bool) -> list[int]:
    """Each side's total (with partners, the sum of its two players')."""
    return [sum(scores[s] for s in side) for side in sides(len(scores), partners)]


def rack_score(opened: str | None, rack_sum: int, factor: int, doubling: bool) -> tuple[int, int]:
    """A non-finisher's end-of-round score and the multiplier applied to it.

    `opened` is None, "series" or "pairs"; `factor` is the finish's doubling (1, 2 or 4). Without
    `doubling` every multiplier is 1.
    """
    if not doubling:
        factor = 1
    if opened is None:
        return NOT_OPENED * factor, factor
    if opened == "pairs" and doubling:
        factor *= 2
    return rack_sum * factor, factor


def match_payout(
    totals: Sequence[int], pool: int, rounds: int, partners: bool, mode: str
) -> list[int]:
    """Chips per seat from `pool` once the match is over; always sums to `pool`.

    "penalty": 75% to the lowest total (ties share), 25% split among the others under 101 x
    rounds (to the winners when none is), remainders to the winners in seat order; "winner": all
    to the lowest total. With partners the sides' totals decide and each partner gets half of the
    side's share, a remainder to the lower seat.
    """
    ranked = side_totals(totals, partners)
    threshold = PENALTY * rounds if mode == "penalty" else min(ranked)
    shares = split_pool(ranked, pool, threshold)
    out = [0] * len(totals)
    for side, share in zip(sides(len(totals), partners), shares, strict=True):
        each, extra = divmod(share, len(side))
        for k, seat in enumerate(side):
            out[seat] = each + (1 if k < extra else 0)
    return out
