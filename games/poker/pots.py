"""Side pots and paying them out, shared by the Türk pokeri and Açık poker engines.

Pots are computed from what each seat put in over the whole hand (antes and every bet); folded
seats' chips stay in the pots but folded seats are never eligible to win them. Chips that are not
any seat's (a pot carried over from a hand nobody opened) go to the main pot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Pot:
    """One pot: its chips and the seats that may win it (seat numbers, ascending)."""

    amount: int
    eligible: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-safe form of the pot."""
        return {"amount": self.amount, "eligible": list(self.eligible)}


def side_pots(committed: Sequence[int], folded: Sequence[bool], dead: int = 0) -> list[Pot]:
    """Split the chips into a main pot and side pots.

    `committed[s]` is everything seat `s` put in this hand, `folded[s]` whether it folded, `dead`
    chips that belong to no seat (a carried pot), which go to the main pot. Each pot is capped at a
    live seat's total: an all-in seat can only win the chips matched up to its own total. Chips a
    folded seat put in above the highest live total (cannot happen in a betting round, but kept
    for safety) join the last pot. A pot with a single eligible seat is that seat's uncalled bet.
    """
    live_levels = sorted({c for c, f in zip(committed, folded, strict=True) if not f})
    pots: list[Pot] = []
    previous = 0
    top: tuple[int, ...] = ()
    for level in live_levels:
        amount = 0
        eligible = []
        for seat, paid in enumerate(committed):
            if paid > previous:
                amount += min(paid, level) - previous
            if not folded[seat] and paid >= level:
                eligible.append(seat)
        if amount:
            pots.append(Pot(amount, tuple(eligible)))
        previous = level
        top = tuple(eligible)
    leftover = sum(max(0, paid - previous) for paid in committed)
    if not pots:
        if not live_levels:
            # Nobody is live (cannot happen in a hand): keep the chips visible, payable to nobody.
            total = sum(committed) + dead
            return [Pot(total, ())] if total else []
        if not (dead or leftover):
            return []
        pots.append(Pot(0, top))
    if dead:
        first = pots[0]
        pots[0] = Pot(first.amount + dead, first.eligible)
    if leftover:
        last = pots[-1]
        pots[-1] = Pot(last.amount + leftover, last.eligible)
    return pots


def is_returned(pots: Sequence[Pot], index: int) -> bool:
    """True when pot `index` is an uncalled bet going back to its only contributor.

    A side pot with one eligible seat holds chips nobody could match; the main pot (index 0) is
    only ever single-seat when everybody else folded, and then it is won, not returned.
    """
    return index > 0 and len(pots[index].eligible) == 1


def seats_from_dealer_left(seats: Sequence[int], dealer: int, players: int) -> list[int]:
    """Order `seats` clockwise starting with the dealer's left (the seat after the dealer)."""
    return sorted(seats, key=lambda s: (s - dealer - 1) % players)


def award(
    pots: Sequence[Pot], strength: Mapping[int, Any], dealer: int, players: int
) -> list[tuple[int, int, int]]:
    """Pay each pot to its best eligible hand(s).

    `strength[seat]` is a totally ordered hand value (higher wins) for every seat still in; a pot
    with one eligible seat needs none. Tied winners split evenly; the odd chips go one each to the
    winners closest to the dealer's left. Returns `(pot index, seat, chips)` triples whose chips
    add up to the pots' total.
    """
    payouts: list[tuple[int, int, int]] = []
    for index, pot in enumerate(pots):
        if not pot.eligible:
            raise ValueError(f"pot {index} has no eligible seat")
        if len(pot.eligible) == 1:
            payouts.append((index, pot.eligible[0], pot.amount))
            continue
        best = max(strength[s] for s in pot.eligible)
        winners = seats_from_dealer_left(
            [s for s in pot.eligible if strength[s] == best], dealer, players
        )
        share, odd = divmod(pot.amount, len(winners))
        for position, seat in enumerate(winners):
            payouts.append((index, seat, share + (1 if position < odd else 0)))
    return payouts
