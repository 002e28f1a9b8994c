"""Random legal Türk pokeri games: chips conserved, cards accounted for, hands terminate, snapshots
play on identically, and nothing hidden reaches a public event or the public view."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import Action, ActionSpec, IllegalAction
from games.poker.cards import FULL_DECK
from games.poker.turkish import TurkishHand, new

ALL_CARDS = frozenset(str(c) for c in FULL_DECK)
MAX_STEPS = 300


def cards_in(value: Any) -> set[str]:
    """Every card named anywhere inside a JSON-like value."""
    if isinstance(value, str):
        return {value} if value in ALL_CARDS else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


def choose(game: TurkishHand, seat: int, rnd: random.Random) -> Action:
    specs = game.legal_actions(seat)
    assert specs, "the seat to act always has a legal move"
    spec: ActionSpec = rnd.choice(specs)
    if spec.kind == "draw":
        hand = game.view(seat)["hand"]
        count = rnd.randint(0, spec.max_cards or 0)
        return Action("draw", cards=tuple(rnd.sample(hand, count)))
    if spec.min_amount is not None and spec.kind in ("open", "bet", "raise"):
        assert spec.max_amount is not None
        amount = rnd.choice(
            [spec.min_amount, spec.max_amount, rnd.randint(spec.min_amount, spec.max_amount)]
        )
        return Action(spec.kind, amount)
    return Action(spec.kind)


def junk(game: TurkishHand, seat: int, rnd: random.Random) -> Action:
    """A move that is probably illegal now."""
    kind = rnd.choice(["open", "pass", "check", "bet", "call", "raise", "fold", "draw", "take"])
    amount = rnd.choice([None, -1, 0, 10**9, 3])
    cards = rnd.choice([(), ("Zz",), ("2c",), tuple(game.view(seat)["hand"][:1]) * 2])
    return Action(kind, amount, cards)


def check_cards(game: TurkishHand, deck_size: int) -> None:
    data = game.to_dict()
    places = (
        [c for h in data["hands"] for c in h] + data["stock"] + data["pile"] + data["set_aside"]
    )
    if not data["carried"]:
        assert len(places) == deck_size
    assert len(set(places)) == len(places), "a card is in two places"


def check_public(game: TurkishHand, events: list, shown_ok: set[str]) -> None:
    for event in events:
        if not event.public:
            continue
        found = cards_in(event.to_dict())
        if event.kind == "showdown":
            assert found == shown_ok
        else:
            assert not found, (event.kind, found)
    view = game.view(None)
    json.dumps(view)
    visible = cards_in({k: v for k, v in view.items() if k != "shown"})
    assert not visible
    assert cards_in(view["shown"]) <= shown_ok


def live_cards(game: TurkishHand) -> set[str]:
    data = game.to_dict()
    folded = data["betting"]["folded"]
    return {c for seat, h in enumerate(data["hands"]) if not folded[seat] for c in h}


@settings(max_examples=500)
@given(
    st.binary(min_size=32, max_size=32),
    st.integers(2, 5),
    st.sampled_from(["pot_limit", "fixed", "no_limit"]),
    st.lists(st.integers(1, 120), min_size=5, max_size=5),
    st.integers(0, 4),
    st.integers(0, 3),
    st.randoms(use_true_random=False),
)
def test_random_hands(seed, n, structure, stacks, dealer, ante, rnd) -> None:
    stacks = stacks[:n]
    dealer %= n
    total = sum(stacks)
    carried = 0
    players = [f"p{i}" for i in range(n)]
    for hand_no in range(4):
        if sum(1 for s in stacks if s > 0) < n:
            break
        game = new(
            players,
            stacks,
            seed=bytes([hand_no]) + seed[1:],
            dealer=dealer,
            ante=ante,
            structure=structure,
            carried_pot=carried,
        )
        deck_size = len(game.rules.deck)
        check_public(game, game.initial_events(), set())
        steps = 0
        while not game.finished:
            seat = game.to_act()
            assert seat is not None
            for other in range(n):
                if other != seat:
                    assert game.legal_actions(other) == []
            if rnd.random() < 0.15:
                bad = junk(game, seat, rnd)
                before = json.dumps(game.to_dict())
                try:
                    game.apply(seat, bad)
                except IllegalAction as err:
                    assert err.code and str(err)
                    assert json.dumps(game.to_dict()) == before
                    bad_ok = False
                else:
                    bad_ok = True
                if bad_ok:  # a junk move that happened to be legal was applied
                    check_cards(game, deck_size)
                    continue
            action = choose(game, seat, rnd)
            clone = TurkishHand.from_dict(json.loads(json.dumps(game.to_dict())))
            events = game.apply(seat, action)
            assert [e.to_dict() for e in clone.apply(seat, action)] == [e.to_dict() for e in events]
            assert clone.to_dict() == game.to_dict()
            view = game.view(None)
            assert sum(view["stacks"]) + view["pot"] == total
            assert min(view["stacks"]) >= 0
            check_cards(game, deck_size)
            check_public(game, events, live_cards(game) if game.view(None)["shown"] else set())
            steps += 1
            assert steps < MAX_STEPS
        view = game.view(None)
        assert game.to_act() is None
        stacks = view["stacks"]
        carried = view["pot"] if view["carried"] else 0
        assert view["carried"] or view["pot"] == 0
        assert sum(stacks) + carried == total
        dealer = (dealer + 1) % n
