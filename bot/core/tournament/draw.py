"""The seating draw of a tournament stage, from a provably-fair seed.

A stage's seed is drawn when the stage is seated; its sha256 is posted at once and the seed is
revealed when the stage is over, so that anyone can seat the stage again (`verify_seating`).
The same seed orders the fair draw that breaks ties at the stage's tables (`tiebreak`), which
is why it stays secret while the stage is played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.base import seed_from_hex, seed_hash, shuffled

TABLE_SEATS = 4  # an Okey table seats 4; tables of 3 or 2 only where the numbers require


@dataclass(frozen=True)
class Seating:
    """One stage's tables: the player ids at each table and how many computers fill it."""

    tables: list[list[int]]
    bots: list[int]


def table_sizes(players: int) -> list[int]:
    """Split `players` (2 or more) into the fewest tables of at most 4, as even as possible
    (sizes differ by one at most, larger tables first): 5 -> 3+2, 9 -> 3+3+3, 13 -> 4+3+3+3."""
    if players < 2:
        raise ValueError("a table needs two players")
    count = -(-players // TABLE_SEATS)
    base, extra = divmod(players, count)
    return [base + (1 if k < extra else 0) for k in range(count)]


def seat(players: Sequence[int], seed: bytes, fill: bool) -> Seating:
    """Draw `players` into tables: shuffled by the seed, then dealt out table by table;
    `fill`: each table is filled up to 4 with computer players."""
    order = shuffled(sorted(players), seed, "seating")
    tables: list[list[int]] = []
    start = 0
    for size in table_sizes(len(order)):
        tables.append(order[start : start + size])
        start += size
    bots = [TABLE_SEATS - len(t) if fill else 0 for t in tables]
    return Seating(tables, bots)


def tiebreak(players: Sequence[int], seed: bytes) -> list[int]:
    """The fair draw that breaks ties (same penalty total, same number of finishes): earlier in
    this list ranks higher."""
    return shuffled(sorted(players), seed, "tiebreak")


def verify_seating(
    seed_hex: str, posted_hash: str, players: Sequence[int], fill: bool
) -> Seating | None:
    """Seat a stage again from its revealed seed; None when the seed does not match the hash
    posted at the draw."""
    try:
        seed = seed_from_hex(seed_hex)
    except ValueError:
        return None
    if seed_hash(seed) != posted_hash.lower():
        return None
    return seat(players, seed, fill)


def shuffled_players(players: Sequence[int], seed: bytes) -> list[int]:
    """The seat order of a one-table tournament (a poker sit-and-go)."""
    return shuffled(sorted(players), seed, "seating")
