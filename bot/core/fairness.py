"""Fair shuffles: seed sources, the hash posted at the start and `/verify` of a finished hand.

Live play draws each seed from `secrets` (`games.base.new_seed`). `SeededSource` derives a
repeatable sequence of seeds from one master seed, for console games started with `--seed` and for
tests; every hand still gets its own seed, posted as a hash first.
"""

from __future__ import annotations

import hashlib

from games.base import SEED_BYTES, seed_from_hex, seed_hash


class SeededSource:
    """Seeds `sha256(master || counter)`: repeatable, distinct for each hand."""

    def __init__(self, master: bytes | str) -> None:
        self.master = master.encode() if isinstance(master, str) else master
        self.count = 0

    def __call__(self) -> bytes:
        """The next seed."""
        self.count += 1
        digest = hashlib.sha256(self.master + b"|" + str(self.count).encode()).digest()
        return digest[:SEED_BYTES]


def check_seed(seed_hex: str, posted_hash: str) -> bool:
    """True when the revealed seed hashes to the hash posted at the start."""
    try:
        return seed_hash(seed_from_hex(seed_hex)) == posted_hash.lower()
    except ValueError:
        return False
