"""Okey scoring presets, round points and the payout of a pool of chips (DECISIONS.md).

Rounds report the points each seat is *charged* (always >= 0). Under the `penalty` preset these are
penalty points (the total only grows; the lowest total wins). Under `classic` every player starts
with 20 points and the charge is taken from them (a total never drops below 0; the match ends when
someone reaches 0). Either way, a lower charged total is better, which is what the payout ranks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

ROUND_CHOICES = (1, 3)
# `takeback` is allowed when absent: the rule text is silent, and callers of the engine protocol and
# matches stored before the option existed keep playing as they did (tables store it explicitly)
OPTION_DEFAULTS: dict[str, Any] = {"rounds": 1, "preset": "penalty", "takeback": True}
WINNER_PERCENT = 75


@dataclass(frozen=True)
class Preset:
    """What each event of a round charges every opponent, and how totals are kept."""

    name: str
    start: int  # the total every player starts a match with
    finish: int  # a plain finish
    okey_finish: int  # the finishing discard is an okey tile
    pairs_finish: int  # finished with seven pairs
    indicator: int  # the indicator's twin shown before the first draw
    counts_down: bool  # classic: charges are taken from `start` instead of added


PRESETS: dict[str, Preset] = {
    # okey.txt: +20 each on a finish, +40 more with an okey discard, +10 for showing the indicator
    "penalty": Preset("penalty", 0, 20, 60, 20, 10, counts_down=False),
    # classic: start at 20, a finish takes 2 (4 with an okey discard or seven pairs), showing 1
    "classic": Preset("classic", 20, 2, 4, 4, 1, counts_down=True),
}


def check_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Fill in defaults and validate Okey table options; ValueError names a bad one.

    `rounds`: 1 or 3 (the penalty preset's game length; classic plays until someone reaches 0).
    `preset`: "penalty" (default) or "classic".
    `takeback`: True (default) lets a player discard the very tile they just took from the discard
    pile; False forbids it for that turn (see `OkeyRound.forbidden_discard`).
    """
    given = dict(options or {})
    unknown = sorted(set(given) - set(OPTION_DEFAULTS))
    if unknown:
        raise ValueError(f"unknown Okey option {unknown[0]!r}; known: rounds, preset, takeback")
    out = {**OPTION_DEFAULTS, **given}
    rounds = out["rounds"]
    if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds not in ROUND_CHOICES:
        raise ValueError(f"rounds must be 1 or 3, got {rounds!r}")
    if not isinstance(out["preset"], str) or out["preset"] not in PRESETS:
        raise ValueError(f"preset must be 'penalty' or 'classic', got {out['preset']!r}")
    if not isinstance(out["takeback"], bool):
        raise ValueError(f"takeback must be True or False, got {out['takeback']!r}")
    return out


def finish_charge(preset: str, okey_discard: bool, seven_pairs: bool) -> int:
    """What a finish charges each opponent under `preset`."""
    p = PRESETS[preset]
    if okey_discard:
        return p.okey_finish
    if seven_pairs:
        return p.pairs_finish
    return p.finish


def indicator_charge(preset: str) -> int:
    """What showing the indicator's twin charges each opponent under `preset`."""
    return PRESETS[preset].indicator


def totals_from_charges(preset: str, charged: Sequence[int]) -> list[int]:
    """The match totals as players see them: penalty points, or classic points left (>= 0)."""
    p = PRESETS[preset]
    if p.counts_down:
        return [max(0, p.start - c) for c in charged]
    return list(charged)


def payout_threshold(preset: str, rounds: int) -> int:
    """Opponents whose charged total is under this share the 25% (40 / 80; classic: still > 0)."""
    p = PRESETS[preset]
    if p.counts_down:
        return p.start
    return 40 if rounds == 1 else 80


def payout(charged: Sequence[int], pool: int, threshold: int) -> list[int]:
    """Split `pool` chips by charged totals (lower is better), as DECISIONS.md says.

    The lowest total takes 75% (ties share it); the other 25% is split evenly among the other
    players whose total is under `threshold`, and goes to the winner(s) when none is. Chips are
    integers: any remainder goes to the winners, one chip each in seat order. The result always
    sums to `pool`.
    """
    if not charged:
        raise ValueError("payout needs at least one player")
    if isinstance(pool, bool) or not isinstance(pool, int) or pool < 0:
        raise ValueError(f"the pool must be a whole number of chips >= 0, got {pool!r}")
    best = min(charged)
    winners = [s for s, c in enumerate(charged) if c == best]
    others = [s for s, c in enumerate(charged) if c != best and c < threshold]
    out = [0] * len(charged)
    rest = pool
    if others:
        each = pool * (100 - WINNER_PERCENT) // 100 // len(others)
        for s in others:
            out[s] = each
        rest -= each * len(others)
    share, extra = divmod(rest, len(winners))
    for k, s in enumerate(winners):
        out[s] = share + (1 if k < extra else 0)
    return out
