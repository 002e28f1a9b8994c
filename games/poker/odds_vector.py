"""Açık live odds by a vectorised plain Monte Carlo (numpy), for `games.poker.odds`.

Each deal is an independent uniformly random deal of the unknown cards: per batch, a random
permutation of the pool for every deal, each live seat taking its own columns. Every hand's
strength is found in numpy the way `ranking.key`'s fast path finds a key: a Card is a sum of
three fields (suit weight, card bit, rank weight), so a hand's fields are sums of its cards'
fields; the rank-weight sum names the rank multiset, the suit-weight sum tells a flush, and one
lookup in a per-ruleset `Evaluator` table (flush?, multiset, suit nibble of the tie-break rank)
gives the strength: the key without its 52 card bits, which only break ties between hands
sharing a card (never two hands of one deal), so the strengths order a deal's hands like their
keys. The estimate is a plain binomial proportion per seat and its error the usual 95%
half-width, so batches run until every seat's is under the target.

Only for rulesets where the fast path holds (`odds._fast_ok`: the default suit order).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from games.poker.cards import MASK_SHIFT, RANK_WEIGHTS, WEIGHT_SHIFT, Card
from games.poker.ranking import _MULTISET_ID, _MULTISETS, PokerRules

CARD_BITS = 52  # a key's card bits, below its strength
FIRST_BATCH = 4_000  # deals before the error is first checked
MIN_BATCH = 1_000  # deals per later batch at least
MAX_BATCH = 10_000  # deals per batch at most (memory: about 10 MB at 10 seats on street 1)
_X_WEIGHT = WEIGHT_SHIFT - MASK_SHIFT  # where the rank-weight sum sits in x = sum >> 8
_CARD_MASK = (1 << CARD_BITS) - 1


@dataclass(frozen=True)
class Evaluator:
    """A ruleset's fast-path rows as numpy arrays: multiset id by rank-weight sum, flush flag by
    suit-weight sum, and per (flush, multiset) the tie-break nibble's bit position and the
    strength for each nibble value."""

    multiset: np.ndarray  # int32, by rank-weight sum
    flush: np.ndarray  # int64 0/1, by suit-weight sum (0..255)
    position: np.ndarray  # int64 [2, multisets]
    strength: np.ndarray  # int64 [2, multisets, 16]; -1 where no hand has that nibble

    def strengths(self, suit: np.ndarray, card: np.ndarray, rank: np.ndarray) -> np.ndarray:
        """The strengths of five-card hands from their summed fields (same-shaped arrays)."""
        mid = self.multiset[rank]
        flush = self.flush[suit]
        nibble = (card >> self.position[flush, mid]) & 15
        strengths: np.ndarray = self.strength[flush, mid, nibble]
        return strengths


@lru_cache(maxsize=8)
def evaluator(rules: PokerRules) -> Evaluator:
    """The `Evaluator` of a ruleset whose fast path holds (built once per process and ruleset:
    about 12,000 rows of 16)."""
    rows = rules._fast_rows
    flush_sums = [s for s in range(256) if rows[s] is rows[0]]  # five clubs: a flush
    plain_row = next(rows[s] for s in range(256) if rows[s] is not rows[0])
    count = len(_MULTISETS)
    position = np.zeros((2, count), dtype=np.int64)
    strength = np.full((2, count, 16), -1, dtype=np.int64)
    for flag, row in ((0, plain_row), (1, rows[0])):
        for mid in range(1, count):
            entry = row[mid]
            if entry is None:
                continue
            weight = sum(RANK_WEIGHTS[r - 2] for r in _MULTISETS[mid]) << _X_WEIGHT
            position[flag, mid] = entry[16]
            strength[flag, mid] = [
                -1 if e is None else (e + weight) >> CARD_BITS for e in entry[:16]
            ]
    flush = np.zeros(256, dtype=np.int64)
    flush[flush_sums] = 1
    multiset = np.array(_MULTISET_ID, dtype=np.int32)
    return Evaluator(multiset, flush, position, strength)


def fields(cards: Sequence[Card]) -> np.ndarray:
    """Each card's three fields as an int64 array [3, len(cards)]: suit weight, card bits,
    rank-weight sum (a Card is their sum, shifted into place)."""
    return np.array(
        [
            [c & 255 for c in cards],
            [(c >> MASK_SHIFT) & _CARD_MASK for c in cards],
            [c >> WEIGHT_SHIFT for c in cards],
        ],
        dtype=np.int64,
    ).reshape(3, len(cards))


def monte_carlo(
    live: list[int],
    known: Mapping[int, list[Card]],
    need: Mapping[int, int],
    pool: list[Card],
    rules: PokerRules,
    seed: bytes,
    target: float,
    max_deals: int,
    z: float,
) -> tuple[dict[int, float], float, int]:
    """Estimated chances per seat, the largest 95% half-width, and the deals evaluated: batches
    of independent uniform deals until every seat's half-width is under `target` (or
    `max_deals`)."""
    rng = np.random.Generator(np.random.PCG64(int.from_bytes(seed, "big")))
    table = evaluator(rules)
    pool_fields = fields(pool)
    base = np.stack([fields(known[s]).sum(axis=1) for s in live], axis=1)  # [3, seats]
    drawing = [j for j, s in enumerate(live) if need[s]]
    starts = np.cumsum([0] + [need[live[j]] for j in drawing])[:-1]
    used = sum(need[s] for s in live)
    seats = len(live)
    wins = np.zeros(seats, dtype=np.float64)
    deals = 0
    batch = FIRST_BATCH
    while True:
        order = rng.random((batch, len(pool))).argsort(axis=1)[:, :used]
        summed = np.broadcast_to(base[:, None, :], (3, batch, seats)).copy()
        if drawing:
            summed[:, :, drawing] += np.add.reduceat(pool_fields[:, order], starts, axis=2)
        strengths = table.strengths(summed[0], summed[1], summed[2])
        top = strengths.max(axis=1, keepdims=True)
        best = strengths == top
        shared = best.sum(axis=1)
        if (shared == 1).all():
            wins += np.bincount(strengths.argmax(axis=1), minlength=seats)
        else:
            wins += (best / shared[:, None]).sum(axis=0)
        deals += batch
        chances = wins / deals
        spread = float((chances * (1 - chances)).max())
        error = z * (spread / deals) ** 0.5
        if error < target or deals >= max_deals:
            break
        # The deals still needed at the current spread, with a small margin.
        wanted = int(z * z * spread / (target * target) * 1.05) - deals
        batch = max(MIN_BATCH, min(MAX_BATCH, wanted, max_deals - deals))
    return {s: float(chances[j]) for j, s in enumerate(live)}, error, deals
