"""Hypothesis-driven random legal 101 games: every game ends, refusals change nothing, snapshots
round-trip mid-game, no tile is created or lost, and the public view holds no hidden tile (twin
method: a deal differing only in hidden tiles gives the identical public view)."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import Action, IllegalAction
from games.okey.tiles import NAMES, full_set
from games.okey101 import Match101, Round101, new

from .helpers import PLAYERS, random_move

STEP_LIMIT = 1500


def all_tiles(game: Round101) -> Counter[str]:
    tiles: Counter[str] = Counter(game.stock)
    for seat in range(len(game.players)):
        tiles.update(game.racks[seat])
        tiles.update(game.piles[seat])
    for meld in game.table:
        tiles.update(meld["tiles"])
    tiles[game.indicator] += 1
    return tiles


def twin(game: Round101, rng: random.Random) -> Round101:
    """The same round with every hidden tile (racks and stock) shuffled among the hidden places."""
    data = game.to_dict()
    hidden = [t for rack in data["racks"] for t in rack] + data["stock"]
    rng.shuffle(hidden)
    racks = []
    for rack in data["racks"]:
        racks.append(hidden[: len(rack)])
        hidden = hidden[len(rack) :]
    data["racks"], data["stock"] = racks, hidden
    return Round101.from_dict(data)


def bogus(game: Round101, seat: int, rng: random.Random) -> Action:
    """A random, usually illegal, move."""
    kind = rng.choice(["take", "open", "lay", "add", "swap", "discard", "finish", "fold", "show"])
    pool = game.racks[seat] + rng.sample(NAMES, 3) + ["/", "F", "X9", ""]
    cards = tuple(rng.choice(pool) for _ in range(rng.randint(0, 7)))
    amount = rng.choice([None, -1, 0, 1, len(game.table), 99, True])
    source = rng.choice([None, "stock", "discard", "rack", "moon"])
    return Action(kind, amount=amount, cards=cards, source=source)


def check_public_events(events: list) -> None:
    for event in events:
        if event.public:
            assert event.kind not in ("rack", "drew")
            if event.kind == "took":
                assert ("tile" in event.data) == (event.data["source"] == "discard")


def options_strategy() -> st.SearchStrategy:
    return st.fixed_dictionaries(
        {
            "doubling": st.booleans(),
            "swap_okey": st.booleans(),
            "pairs_max": st.integers(0, 4),
            "open": st.sampled_from([101, 101, 120]),
        }
    )


@settings(max_examples=25, deadline=None)
@given(
    st.integers(2, 4),
    st.binary(min_size=32, max_size=32),
    st.integers(0, 10**9),
    options_strategy(),
    st.booleans(),
)
def test_random_games(players: int, seed: bytes, salt: int, options: dict, partners: bool) -> None:
    if players == 4:
        options["partners"] = partners
    game = new(PLAYERS[:players], seed, options)
    rng = random.Random(salt)
    full = Counter(full_set())
    steps = 0
    while not game.finished:
        steps += 1
        assert steps < STEP_LIMIT, "the round did not end"
        seat = game.to_act()
        assert seat is not None
        assert all_tiles(game) == full
        # the public view is the same for a twin deal differing only in hidden tiles
        public = game.view(None)
        assert "hand" not in public
        assert twin(game, rng).view(None) == public
        # a refused move changes nothing (on a copy, in case the random move was legal)
        before = game.to_dict()
        copy = Round101.from_dict(json.loads(json.dumps(before)))
        try:
            copy.apply(rng.choice([seat, (seat + 1) % players]), bogus(game, seat, rng))
        except IllegalAction as error:
            assert error.code and copy.to_dict() == before
        action = random_move(game, seat, rng)
        if steps % 4 == 0:
            # a snapshot plays on identically
            restored = Round101.from_dict(json.loads(json.dumps(game.to_dict())))
            restored.apply(seat, action)
            events = game.apply(seat, action)
            assert restored.to_dict() == game.to_dict()
        else:
            events = game.apply(seat, action)
        check_public_events(events)
    assert all_tiles(game) == full
    assert game.to_act() is None and game.legal_actions(0) == []
    scores = game.result["round_scores"]
    if game.result["reason"] == "finished":
        winner = game.result["winner"]
        assert scores[winner] < 0 and game.racks[winner] == []
    else:
        assert all(s >= 0 for s in scores)


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10**9))
def test_random_matches_add_up_their_rounds(salt: int) -> None:
    rng = random.Random(salt)
    match = Match101.new(PLAYERS, {"rounds": 3, "partners": rng.random() < 0.5})
    k = 0
    while not match.finished:
        assert match.needs_round
        match.start_round(bytes([k]) * 32)
        k += 1
        while match.round is not None and not match.round.finished:
            seat = match.to_act()
            match.apply(seat, random_move(match.round, seat, rng))
        snapshot = Match101.from_dict(json.loads(json.dumps(match.to_dict())))
        assert snapshot.to_dict() == match.to_dict()
    assert len(match.history) == 3
    assert match.totals == [sum(h["scores"][s] for h in match.history) for s in range(4)]
    pay = match.payout(1000)
    assert sum(pay) == 1000 and all(p >= 0 for p in pay)
    assert pay[match.winners()[0]] == max(pay)
