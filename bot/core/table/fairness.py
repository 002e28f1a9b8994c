"""Fair shuffles: seed sources, the hash posted at the start and `/verify` of a finished hand.

A seed source is called with the id of the hand it deals (`<table>-<number>`) and returns that
hand's 32-byte seed. Live play draws each seed from `secrets` (`random_seeds`). `SeededSource`
derives each hand's seed from one master seed and the hand id, for console games started with
`--seed` and for tests: repeatable for the same master seed and hand, distinct for every hand,
also across a restart (a counter would start again and deal a seed already revealed). Every hand
still gets its own seed, posted as a hash first.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from games.base import SEED_BYTES, new_seed, seed_from_hex, seed_hash

SeedSource = Callable[[str], bytes]  # hand id -> that hand's seed


def random_seeds(hand_id: str) -> bytes:
    """A fresh seed from the operating system's secure random source (the hand id is unused)."""
    return new_seed()


class SeededSource:
    """Seeds `sha256(master | hand id)`: repeatable, distinct for each hand."""

    def __init__(self, master: bytes | str) -> None:
        self.master = master.encode() if isinstance(master, str) else master

    def __call__(self, hand_id: str) -> bytes:
        """The seed of hand `hand_id`."""
        digest = hashlib.sha256(self.master + b"|" + hand_id.encode()).digest()
        return digest[:SEED_BYTES]


def check_seed(seed_hex: str, posted_hash: str) -> bool:
    """True when the revealed seed hashes to the hash posted at the start."""
    try:
        return seed_hash(seed_from_hex(seed_hex)) == posted_hash.lower()
    except ValueError:
        return False
