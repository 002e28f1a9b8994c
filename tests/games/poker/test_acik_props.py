"""Random legal Açık poker hands: chips conserved, termination, cards, snapshots, privacy."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import Action, Event, IllegalAction
from games.poker import acik_rules
from games.poker.acik import AcikHand, new

MAX_STEPS = 400  # four streets of capped betting end far sooner


def strings(value: Any) -> Iterator[str]:
    """Every string inside a JSON-like value (keys and values)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from strings(v)


def assert_no_down_card(hand: AcikHand, where: Any) -> None:
    downs = {str(c) for c in hand.down if c is not None}
    leaked = downs & set(strings(where))
    assert not leaked, f"down card(s) {leaked} in public {where}"


@st.composite
def tables(draw: st.DrawFn) -> dict[str, Any]:
    deck = draw(st.sampled_from([52, 32]))
    players = draw(st.integers(2, 10 if deck == 52 else 6))
    return {
        "players": [f"p{i}" for i in range(players)],
        "stacks": draw(st.lists(st.integers(1, 300), min_size=players, max_size=players)),
        "rules": acik_rules(deck, draw(st.booleans())),
        "seed": draw(st.binary(min_size=32, max_size=32)),
        "dealer": draw(st.integers(0, players - 1)),
        "ante": draw(st.sampled_from([0, 1, 5])),
        "structure": draw(st.sampled_from(["pot_limit", "fixed", "no_limit"])),
        "void_bets": draw(st.booleans()),
        "peek_once": draw(st.booleans()),
        "carried_pot": draw(st.sampled_from([0, 0, 7])),
    }


@settings(max_examples=150)
@given(table=tables(), choices=st.randoms(use_true_random=False))
def test_random_legal_hands(table: dict[str, Any], choices) -> None:
    hand = new(**table)
    total = sum(table["stacks"]) + table["carried_pot"]
    events: list[Event] = list(hand.initial_events())
    for step in range(MAX_STEPS):
        view = hand.view(None)
        assert sum(view["stacks"]) + view["pot"] == total
        dealt = [c for c in hand.down if c is not None] + [c for u in hand.up for c in u]
        assert len(set(dealt)) == len(dealt)
        assert sorted(hand.deck) == sorted(table["rules"].deck)
        if not hand.finished:
            assert_no_down_card(hand, view)
            # A seat's own view holds its own down card and nobody else's.
            seat_view = hand.view(step % len(hand.players))
            others = {str(c) for s, c in enumerate(hand.down) if s != seat_view["seat"]}
            assert not others & set(strings(seat_view))
        if hand.finished:
            break
        seat = hand.to_act()
        assert seat is not None
        specs = hand.legal_actions(seat)
        assert specs, "the seat to act always has a move"
        assert all(hand.legal_actions(s) == [] for s in range(len(hand.players)) if s != seat)
        # Every move the betting module allows but the engine does not is refused with a
        # void-bet reason, and the refusal changes nothing.
        listed = {s.kind for s in specs}
        for spec in hand.betting.legal(seat):
            if spec.kind in listed:
                continue
            before = hand.to_dict()
            with pytest.raises(IllegalAction) as info:
                hand.apply(seat, Action(spec.kind, spec.min_amount))
            assert info.value.code in ("void_bet_dead", "void_bet_into_dead")
            assert hand.to_dict() == before
            assert_no_down_card(hand, [str(info.value), info.value.params])
        offered = {s.kind for s in hand.public_legal_actions(seat)}
        assert {s.kind for s in specs} <= offered
        spec = choices.choice(specs)
        amount = None
        if spec.kind in ("bet", "raise"):
            amount = choices.randint(spec.min_amount, spec.max_amount)
        events += hand.apply(seat, Action(spec.kind, amount))
        if step % 3 == 0:
            copy = AcikHand.from_dict(json.loads(json.dumps(hand.to_dict())))
            assert copy.to_dict() == hand.to_dict()
            assert copy.view(None) == hand.view(None)
            hand = copy
    else:
        raise AssertionError("the hand did not end")
    assert hand.to_act() is None
    assert hand.view(None)["pot"] == 0
    assert sum(hand.view(None)["stacks"]) == total
    # Every chip in the pot after the last move is paid out.
    moves = [e for e in events if e.kind in ("checked", "bet", "called", "raised", "folded")]
    pot = (
        moves[-1].data["pot"] if moves else sum(e.data["pot"] for e in events if e.kind == "antes")
    )
    assert sum(e.data["amount"] for e in events if e.kind in ("won", "returned")) == pot
    # No down card in a public event before the showdown; at the showdown only live hands show.
    for event in events:
        if event.kind in ("showdown", "hand_over"):
            break
        if event.public:
            assert_no_down_card(hand, event.to_dict())
    folded = {str(hand.down[s]) for s in range(len(hand.players)) if hand.betting.folded[s]}
    for event in events:
        if event.public and event.kind != "hand_over":
            assert not folded & set(strings(event.to_dict()))
    holes = [e for e in events if e.kind == "hole"]
    assert sorted(e.seat for e in holes) == list(range(len(hand.players)))
    assert all(e.data["card"] == str(hand.down[e.seat]) for e in holes)
