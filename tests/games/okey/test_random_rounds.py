"""Hypothesis-driven random rounds: 106 tiles always accounted for, termination, snapshots,
no hidden tile in public events or the public view."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import Action, IllegalAction
from games.okey import OkeyMatch, OkeyRound, auto_action, full_set, new

PLAYERS = ["ayse", "baris", "cem", "deniz"]
STEP_LIMIT = 600


def _all_tiles(game: OkeyRound) -> Counter[str]:
    tiles: Counter[str] = Counter(game.stock)
    for seat in range(len(game.players)):
        tiles.update(game.racks[seat])
        tiles.update(game.piles[seat])
    tiles[game.indicator] += 1
    return tiles


def _check_public(game: OkeyRound, events: list, visible: set[str]) -> None:
    """Public events name only tiles everyone has seen: discards, the indicator, the start draw."""
    for event in events:
        if not event.public:
            continue
        data = event.to_dict()["data"]
        assert "tiles" not in data and "hand" not in data
        if event.kind == "took":
            assert ("tile" in data) == (data["source"] == "discard")
            if "tile" in data:
                assert data["tile"] in visible
        if event.kind == "discarded":
            visible.add(data["tile"])
    public_view = game.view(None)
    assert "hand" not in public_view and "sources" not in public_view


@settings(max_examples=30)
@given(st.integers(2, 4), st.binary(min_size=32, max_size=32), st.data())
def test_random_rounds(players: int, seed: bytes, data: st.DataObject) -> None:
    game = new(PLAYERS[:players], seed)
    full = Counter(full_set())
    visible = {game.indicator}
    steps = 0
    while not game.finished:
        steps += 1
        assert steps < STEP_LIMIT + 300, "the round did not end"
        seat = game.to_act()
        assert seat is not None
        kinds = [spec.kind for spec in game.legal_actions(seat)]
        choice = data.draw(st.sampled_from(kinds))
        if choice == "take":
            sources = game.view(seat)["sources"]
            source = "stock" if steps > STEP_LIMIT else data.draw(st.sampled_from(sources))
            action = Action("take", source=source)
        elif choice in ("discard", "finish"):
            tile = data.draw(st.sampled_from(game.racks[seat]))
            action = Action(choice, cards=(tile,))
        else:
            action = Action(choice)
        if data.draw(st.integers(0, 9)) == 0:
            # now and then a wrong seat: refused, nothing changes
            before = game.to_dict()
            try:
                game.apply((seat + 1) % players, action)
            except IllegalAction as error:
                assert error.code == "not_your_turn"
            assert game.to_dict() == before
        before = game.to_dict()
        try:
            events = game.apply(seat, action)
        except IllegalAction as error:
            assert choice == "finish" and error.code == "not_complete"
            assert game.to_dict() == before
            continue
        assert _all_tiles(game) == full
        _check_public(game, events, visible)
        snapshot = json.loads(json.dumps(game.to_dict()))
        assert OkeyRound.from_dict(snapshot).to_dict() == game.to_dict()
    assert game.to_act() is None and game.legal_actions(0) == []


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 4), st.sampled_from([1, 3]), st.binary(min_size=32, max_size=32))
def test_matches_keep_totals_and_pay_out_the_pool(players: int, rounds: int, seed: bytes) -> None:
    match = OkeyMatch.new(PLAYERS[:players], {"rounds": rounds, "preset": "penalty"})
    number = 0
    while match.needs_round:
        number += 1
        match.start_round(bytes([number]) + seed[1:])
        while match.to_act() is not None:
            seat = match.to_act()
            assert seat is not None
            match.apply(seat, auto_action(match.round, seat))  # type: ignore[arg-type]
        copy = OkeyMatch.from_dict(json.loads(json.dumps(match.to_dict())))
        assert copy.to_dict() == match.to_dict()
    assert match.finished and number == rounds
    assert match.totals == [sum(h["penalties"][s] for h in match.history) for s in range(players)]
    paid = match.payout(100 * players)
    assert sum(paid) == 100 * players
    assert "hand" not in match.view(None)
