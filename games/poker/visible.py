"""Açık poker's seating helpers: the dealing order and who speaks first on a street.

Seats are numbered clockwise; the deal starts at the dealer's left (the next seat). On every street
the live player whose up cards make the best visible hand speaks first, then play goes clockwise.
Visible hands are ranked by the partial-hand order of `games.poker` (pairs, two pair, three and four
of a kind, then high cards, ties by suit), which never ties two different sets of cards.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from games.poker.pots import seats_from_dealer_left

C = TypeVar("C")


def deal_order(seats: Sequence[int], dealer: int, players: int) -> list[int]:
    """`seats` in the order cards are dealt: clockwise from the dealer's left."""
    return seats_from_dealer_left(seats, dealer, players)


def first_speaker(
    ups: Mapping[int, Sequence[C]],
    key: Callable[[Sequence[C]], Any],
    dealer: int,
    players: int,
) -> int:
    """The seat among `ups` (live seats and their up cards) whose visible hand is best.

    Should two visible hands ever compare equal, the seat dealt first wins the tie.
    """
    if not ups:
        raise ValueError("no live seat to speak")
    best_seat: int | None = None
    best: Any = None
    for seat in deal_order(list(ups), dealer, players):
        value = key(tuple(ups[seat]))
        if best_seat is None or value > best:
            best_seat, best = seat, value
    assert best_seat is not None
    return best_seat
