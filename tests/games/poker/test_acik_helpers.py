"""Helpers for the Açık poker tests: stacked decks and driving a hand."""

from __future__ import annotations

from games.base import Action, Event
from games.poker import Card, acik_rules, parse_cards
from games.poker.acik import AcikHand, new_with_deck
from games.poker.visible import deal_order

SEED = bytes(range(32))


def arrange(downs: list[str], ups: list[list[str]], dealer: int = 0, deck: int = 52) -> list[Card]:
    """A deck order that deals `downs[seat]` and then `ups[seat][street]` (shorter lists for
    seats that fold), the other cards after them."""
    n = len(downs)
    order = deal_order(range(n), dealer, n)
    front = [downs[s] for s in order]
    for street in range(4):
        front += [ups[s][street] for s in order if len(ups[s]) > street]
    cards = parse_cards(front)
    return cards + [c for c in acik_rules(deck).deck if c not in cards]


def scripted(
    downs: list[str],
    ups: list[list[str]],
    stacks: list[int] | None = None,
    dealer: int = 0,
    deck: int = 52,
    flush_beats_four: bool = True,
    **options,
) -> AcikHand:
    """A hand dealt from `arrange(...)`."""
    n = len(downs)
    return new_with_deck(
        [f"p{s}" for s in range(n)],
        stacks or [100] * n,
        acik_rules(deck, flush_beats_four),
        arrange(downs, ups, dealer, deck),
        SEED,
        dealer,
        **options,
    )


def act(hand: AcikHand, seat: int, kind: str, amount: int | None = None) -> list[Event]:
    """Apply one move, checking it is the seat's turn."""
    assert hand.to_act() == seat, (hand.to_act(), seat)
    return hand.apply(seat, Action(kind, amount))


def check_round(hand: AcikHand) -> list[Event]:
    """Everybody checks until the street changes or the hand ends."""
    street = hand.street
    events: list[Event] = []
    while not hand.finished and hand.street == street:
        events += act(hand, hand.to_act(), "check")
    return events


def kinds(hand: AcikHand, seat: int) -> list[str]:
    """The kinds of the legal actions of `seat`."""
    return sorted(s.kind for s in hand.legal_actions(seat))
