"""Which position of a deal's committed order each player received, and which became public.

Pure logic, no I/O. The committed order (`committed_order`) is the shuffled deck or tile order a
hand is dealt from, a pure function of the seed:

- Türk pokeri: `shuffled(rules.deck, seed, "deal")`; five cards each from the dealer's left, one
  at a time, then the draws in turn from the same order (cards dealt after a reshuffle of the
  discards come from earlier positions and are not proven again);
- Açık: `acik.deck_order(rules, seed)`; the down cards, then each street's up cards;
- Okey: `shuffled(full_set(), seed, "okey-deal")`; 15 tiles to the starter and 14 to each next
  seat, the indicator (the first tile after the racks that is not a false joker), then the stock
  in order.

`disclose(played, seed)` walks a played hand (`games.history.play`) and says, per position, the
seat that received it from the deck, and which positions' cards became public: Türk pokeri the
showdown's hands; Açık every up card and the showdown's down cards; Okey the indicator, every
discard, a shown indicator twin and the finishing rack. A folded hand, an uncalled bluff, an Okey
rack nobody saw stay out of `public`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from games.base import shuffled
from games.commitment import Commitment
from games.history import Played, Setup, deal
from games.okey.round import OTHER_TILES, STARTER_TILES, draw_for_start
from games.okey.tiles import FALSE_JOKER, full_set, okey_of


def committed_order(setup: Setup, seed: bytes) -> list[str]:
    """The deck (or tile) order of a hand with `setup` dealt from `seed`, in notation."""
    if setup.game in ("okey", "okey101"):  # 101 deals from the same shuffle of the tiles
        return engine_order("okey", None, seed)
    engine, _ = deal(setup, seed)
    return engine_order(setup.game, engine, seed)


def engine_order(game: str, engine: Any, seed: bytes) -> list[str]:
    """The committed order of the hand `engine` (a fresh or running engine of `game`; unused
    for Okey) deals from `seed`."""
    if game == "okey":
        return shuffled(full_set(), seed, "okey-deal")
    if game == "acik":
        return [str(card) for card in engine.deck]
    return [str(card) for card in shuffled(engine.rules.deck, seed, "deal")]


def deal_root(game: str, engine: Any, seed: bytes) -> str:
    """The root to post when `engine` (a hand or round of `game`) is dealt from `seed`."""
    return Commitment(engine_order(game, engine, seed), seed).root


@dataclass
class Disclosure:
    """Who received each position of the committed order, and the positions made public."""

    order: list[str]
    owners: dict[int, int] = field(default_factory=dict)  # position -> seat it was dealt to
    public: set[int] = field(default_factory=set)

    def own(self, seat: int) -> list[int]:
        """The positions `seat` received from the deck, in order."""
        return sorted(p for p, s in self.owners.items() if s == seat)

    def _receive(self, seat: int, cards: Iterable[str], index: dict[str, int]) -> None:
        for card in cards:
            position = index[str(card)]
            self.owners.setdefault(position, seat)  # later: the same card after a reshuffle

    def _show(self, seat: int, cards: Iterable[str], index: dict[str, int]) -> None:
        for card in cards:
            position = index[str(card)]
            if self.owners.get(position) == seat:
                self.public.add(position)


def disclose(played: Played, seed: bytes) -> Disclosure:
    """What each seat received and what became public in `played`, dealt from `seed`."""
    order = committed_order(played.setup, seed)
    events = [event for step in played.steps for event in step.events]
    if played.setup.game == "okey":
        return _okey(order, len(played.setup.players), seed, events)
    if played.setup.game == "okey101":
        return _okey(order, len(played.setup.players), seed, events, (22, 21))
    found = Disclosure(order)
    index = {card: i for i, card in enumerate(order)}  # poker cards are all different
    for event in events:
        data: dict[str, Any] = dict(event.data)
        if event.kind == "hand" and event.seat is not None:
            found._receive(event.seat, data["cards"], index)
        elif event.kind == "drew_cards" and event.seat is not None:
            found._receive(event.seat, data["received"], index)
        elif event.kind == "hole" and event.seat is not None:
            found._receive(event.seat, [data["card"]], index)
        elif event.kind == "dealt_up":
            for up in data["cards"]:
                found._receive(int(up["seat"]), [up["card"]], index)
                found._show(int(up["seat"]), [up["card"]], index)
        elif event.kind == "showdown":
            for hand in data["hands"]:
                found._show(int(hand["seat"]), hand["cards"], index)
    return found


def _okey(
    order: list[str],
    players: int,
    seed: bytes,
    events: list[Any],
    sizes: tuple[int, int] = (STARTER_TILES, OTHER_TILES),
) -> Disclosure:
    """Follow each tile position of an Okey round: racks, stock draws, discard piles; in 101
    (`sizes` 22 and 21) also the tiles laid on the table, which become public, and an okey a
    swap takes back from the table into a rack."""
    found = Disclosure(order)
    starter, _ = draw_for_start(players, seed)
    held: list[list[int]] = [[] for _ in range(players)]
    at = 0
    for k in range(players):
        seat = (starter + k) % players
        size = sizes[0] if k == 0 else sizes[1]
        held[seat] = list(range(at, at + size))
        at += size
    rest = list(range(at, len(order)))
    indicator = next(p for p in rest if order[p] != FALSE_JOKER)
    rest.remove(indicator)
    found.public.add(indicator)
    okey = okey_of(order[indicator])
    laid: list[int] = []  # positions lying on the table (101)
    for seat, positions in enumerate(held):
        for p in positions:
            found.owners[p] = seat
    piles: list[list[int]] = [[] for _ in range(players)]

    def pick(seat: int, tile: str) -> int:
        # the latest received position holding this tile (two of each tile exist)
        return next(p for p in reversed(held[seat]) if order[p] == tile)

    for event in events:
        data = dict(event.data)
        if event.kind == "drew" and event.seat is not None and rest:
            position = rest.pop(0)
            held[event.seat].append(position)
            found.owners[position] = event.seat
        elif event.kind == "took" and data.get("source") == "discard":
            held[int(data["seat"])].append(piles[int(data["from_seat"])].pop())
        elif event.kind == "discarded":
            seat = int(data["seat"])
            position = pick(seat, data["tile"])
            held[seat].remove(position)
            piles[seat].append(position)
            found.public.add(position)
        elif event.kind in ("opened", "laid"):
            seat = int(data["seat"])
            for meld in data["melds"]:
                for tile in meld["tiles"]:
                    position = pick(seat, tile)
                    held[seat].remove(position)
                    laid.append(position)
                    found.public.add(position)
        elif event.kind in ("added", "swapped"):
            seat = int(data["seat"])
            position = pick(seat, data["tile"])
            held[seat].remove(position)
            found.public.add(position)
            if event.kind == "swapped":  # the okey goes back to the rack (it was public)
                back = next(p for p in laid if order[p] == okey)
                laid.remove(back)
                held[seat].append(back)
            laid.append(position)
        elif event.kind == "indicator_shown":
            found.public.add(pick(int(data["seat"]), data["tile"]))
        elif event.kind == "finished":
            seat = int(data["seat"])
            position = pick(seat, data["discard"])
            held[seat].remove(position)
            piles[seat].append(position)
            found.public.update({position, *held[seat]})  # the whole finishing rack is laid down
    return found
