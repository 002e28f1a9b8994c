"""Açık poker's void-bet rule (rule 8): which live players are "dead" against which opponents.

A player is dead against an opponent when no completion of the player's hand can beat the cards
the opponent shows face up. A completion adds, to the player's own cards, as many cards as the
player will still be dealt, taken from the cards the player cannot see: the deck minus every up
card dealt so far (folded players' included) minus the player's own down card. Other players' down
cards count as unseen: nobody at the table sees them, so they cannot be used for or against anyone.

Two judgements are computed, both exact:

- `dead`: from the player's real cards (the down card included). Only the player and the engine
  may know it; it decides the player's own bets, raises and calls.
- `public`: from public information only. The player's down card is unknown, so it is one more
  unseen card: the player is publicly dead when no down card and no cards still to come can beat
  the opponent's up cards. It decides whether others may bet "into" the player, so a refusal never
  reveals a down card. Publicly dead implies dead (the real down card is one of the possibilities).

Strengths come from a key function: any totally ordered value of a list of 1-5 cards (a partial,
visible hand for 1-4 cards, a full hand for 5) from `games.poker`'s ranking.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from games.poker.cards import Card

Key = Callable[[Sequence[Card]], Any]


def best_completion(
    known: Sequence[Card], pool: Sequence[Card], draw: int, key: Key, ceiling: Any = None
) -> tuple[Any, bool]:
    """The strongest hand `known` plus `draw` cards from `pool` can become.

    Returns `(best, exceeded)`. With a `ceiling`, the search stops at the first completion stronger
    than it and returns that completion's strength with `exceeded` True; otherwise `best` is the
    exact maximum (None when `pool` holds fewer than `draw` cards).
    """
    known = tuple(known)
    if draw == 0:
        value = key(known)
        return value, ceiling is not None and value > ceiling
    if len(pool) < draw:
        return None, False
    if draw == 1:
        value = max(key((*known, card)) for card in pool)
        return value, ceiling is not None and value > ceiling
    # Cards that pair the known ones come first, then high ranks, so a completion above the
    # ceiling (the usual case) is found after a handful of evaluations, not the enumeration.
    ranks = {card.rank for card in known}
    ordered = sorted(pool, key=lambda card: (card.rank in ranks, card.rank), reverse=True)
    best: Any = None
    for extra in combinations(ordered, draw):
        value = key(known + extra)
        if best is None or value > best:
            best = value
            if ceiling is not None and value > ceiling:
                return best, True
    return best, False


def not_beaten(best: Any, exceeded: bool, targets: Mapping[int, Any]) -> set[int]:
    """The opponents (keys of `targets`, their visible strengths) that `best` cannot beat."""
    if exceeded:
        return set()
    return {seat for seat, target in targets.items() if best is None or not best > target}


@dataclass(frozen=True)
class Deadness:
    """Who is dead against whom on one street: pairs `(dead seat, opponent seat)`.

    `dead` is judged from real cards (private to the dead seat), `public` from up cards alone.
    """

    dead: frozenset[tuple[int, int]]
    public: frozenset[tuple[int, int]]

    def is_dead(self, seat: int, against: int, public: bool = False) -> bool:
        """True when `seat` cannot beat `against`'s up cards (publicly provable with `public`)."""
        return (seat, against) in (self.public if public else self.dead)

    def dead_against(self, seat: int, public: bool = False) -> list[int]:
        """The opponents `seat` is dead against, in seat order."""
        pairs = self.public if public else self.dead
        return sorted(o for d, o in pairs if d == seat)

    def dead_into(self, seat: int) -> list[int]:
        """The players publicly dead against `seat` (whom `seat` may not bet into), in seat order."""
        return sorted(d for d, o in self.public if o == seat)


def analyse(
    deck: Iterable[Card],
    downs: Mapping[int, Card],
    ups: Mapping[int, Sequence[Card]],
    seen: Collection[Card],
    hand_size: int,
    key: Key,
) -> Deadness:
    """Judge every ordered pair of the players in `downs` (the live seats) on this street.

    `downs` and `ups` give each live seat's down card and up cards, `seen` every up card dealt so
    far (folded seats' too), `hand_size` the cards a finished hand holds (5), `key` the strength.
    """
    deck = list(deck)
    seen_set = set(seen)
    unseen_public = [c for c in deck if c not in seen_set]
    visible = {seat: key(tuple(ups[seat])) for seat in downs}
    dead: set[tuple[int, int]] = set()
    public: set[tuple[int, int]] = set()
    for seat, down in downs.items():
        targets = {o: v for o, v in visible.items() if o != seat}
        if not targets:
            continue
        known = (down, *ups[seat])
        pool = [c for c in unseen_public if c != down]
        best, exceeded = best_completion(
            known, pool, hand_size - len(known), key, max(targets.values())
        )
        losing = not_beaten(best, exceeded, targets)
        if not losing:
            continue
        dead.update((seat, o) for o in losing)
        # Publicly dead implies dead, so only the pairs found dead need the public judgement.
        public_targets = {o: targets[o] for o in losing}
        best, exceeded = best_completion(
            tuple(ups[seat]),
            unseen_public,
            hand_size - len(ups[seat]),
            key,
            max(public_targets.values()),
        )
        public.update((seat, o) for o in not_beaten(best, exceeded, public_targets))
    return Deadness(frozenset(dead), frozenset(public))
