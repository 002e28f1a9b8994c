"""The normal and hard computer poker players (games/poker/strategy.py): legal, reproducible,
blind to other players' hidden cards, and sensible on hand-built positions."""

from __future__ import annotations

import random
from bisect import bisect_left
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import Action
from games.poker import acik, acik_rules, key, turkish, turkish_rules
from games.poker.batch import evaluate_all
from games.poker.cards import Card
from games.poker.strategy import (
    PROFILES,
    RANK_SAMPLE,
    choose,
    decision_rng,
    draw_choice,
    estimate_equity,
    rank_table,
)

ANTE = 10


def _engine(game: str, seed: int, players: int, **options: Any) -> Any:
    module = acik if game == "acik" else turkish
    return module.new(
        [f"p{i}" for i in range(players)],
        [200] * players,
        None,
        random.Random(seed).randbytes(32),
        seed % players,
        ante=ANTE,
        **options,
    )


def _decide(engine: Any, seat: int, level: str) -> Action:
    view = engine.view(seat)
    return choose(view, engine.legal_actions(seat), decision_rng(view), level, engine.rules)


def _hide_swapped(engine: Any, seat: int, rng: random.Random) -> Any:
    """The same hand with every hidden card `seat` cannot see replaced by other unseen cards."""
    data = engine.to_dict()
    if data["game"] == "acik":
        future = list(range(data["dealt"], len(data["deck"])))
        for other in range(len(data["players"])):
            if other != seat and data["down"][other] is not None and future:
                at = future.pop(rng.randrange(len(future)))
                data["down"][other], data["deck"][at] = data["deck"][at], data["down"][other]
        return acik.AcikHand.from_dict(data)
    unseen = [c for other, h in enumerate(data["hands"]) if other != seat for c in h]
    unseen += data["stock"]
    rng.shuffle(unseen)
    for other, hand in enumerate(data["hands"]):
        if other != seat:
            data["hands"][other] = [unseen.pop() for _ in hand]
    data["stock"] = [unseen.pop() for _ in data["stock"]]
    return turkish.TurkishHand.from_dict(data)


@settings(max_examples=40)
@given(
    game=st.sampled_from(["acik", "turkish"]),
    seed=st.integers(0, 10**6),
    players=st.integers(2, 5),
    level=st.sampled_from(["normal", "hard"]),
    swap=st.integers(0, 10**6),
)
def test_decision_ignores_other_players_hidden_cards(game, seed, players, level, swap) -> None:
    engine = _engine(game, seed, players)
    rng = random.Random(swap)
    while not engine.finished:
        seat = engine.to_act()
        action = _decide(engine, seat, level)
        other = _hide_swapped(engine, seat, rng)
        assert other.view(seat) == engine.view(seat)
        assert _decide(other, seat, level) == action
        engine.apply(seat, action)


@pytest.mark.parametrize("game", ["acik", "turkish"])
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("structure", ["pot_limit", "fixed", "no_limit"])
def test_every_choice_is_legal_and_reproducible(game, players, structure) -> None:
    options = {"peek_once": True} if game == "acik" else {}  # the down card unseen after a look
    for seed in range(12):
        engine = _engine(game, seed, players, structure=structure, **options)
        while not engine.finished:
            seat = engine.to_act()
            level = "hard" if seat % 2 == 0 else "normal"
            action = _decide(engine, seat, level)
            assert _decide(engine, seat, level) == action
            engine.apply(seat, action)  # raises IllegalAction when the move is not legal
        end = engine.view(None)
        assert sum(end["stacks"]) + (end["pot"] if end["carried"] else 0) == 200 * players


def test_unknown_level_is_refused() -> None:
    engine = _engine("acik", 1, 2)
    seat = engine.to_act()
    with pytest.raises(ValueError, match="level"):
        choose(engine.view(seat), engine.legal_actions(seat), random.Random(0), "expert")


def _acik_last_street(downs: list[str], ups: list[list[str]], **options: Any) -> Any:
    """A heads-up Açık hand (dealer 0: seat 1 is dealt first) checked to the fourth street."""
    rules = acik_rules()
    order = [downs[1], downs[0]] + [ups[s][i] for i in range(4) for s in (1, 0)]
    rest = [c for c in rules.deck if str(c) not in order]
    deck = [Card.parse(c) for c in order] + rest
    engine = acik.new_with_deck(
        ["a", "b"], [500, 500], rules, deck, bytes(32), 0, ante=ANTE, **options
    )
    while engine.view(None)["street"] < 4:
        engine.apply(engine.to_act(), Action("check"))
    return engine


def test_hard_bets_the_nuts_and_folds_a_hopeless_hand() -> None:
    engine = _acik_last_street(
        ["Ah", "2c"], [["Kh", "Qh", "Jh", "Th"], ["3d", "4h", "5s", "7c"]], void_bets=False
    )
    view = engine.view(0)
    assert estimate_equity(view, engine.rules, PROFILES["hard"], random.Random(0)) == 1.0
    if engine.to_act() == 1:
        engine.apply(1, Action("check"))
    action = _decide(engine, 0, "hard")
    assert action.kind == "bet" and action.amount > ANTE  # sized from the pot, not the minimum
    engine.apply(0, action)
    assert _decide(engine, 1, "hard").kind == "fold"


def test_exact_last_street_equity_matches_enumeration() -> None:
    engine = _acik_last_street(["9c", "2c"], [["9d", "5s", "6h", "Kc"], ["Qs", "Qd", "3d", "4h"]])
    view = engine.view(0)
    equity = estimate_equity(view, engine.rules, PROFILES["hard"], random.Random(0))
    rules = engine.rules
    unseen = [c for c in rules.deck if str(c) not in {"9c", "9d", "5s", "6h", "Kc"}]
    unseen = [c for c in unseen if str(c) not in {"Qs", "Qd", "3d", "4h"}]
    mine = key([Card.parse(c) for c in ("9c", "9d", "5s", "6h", "Kc")], rules)
    theirs = [key([c, *(Card.parse(x) for x in ("Qs", "Qd", "3d", "4h"))], rules) for c in unseen]
    assert equity == pytest.approx(sum(k < mine for k in theirs) / len(theirs))


def test_monte_carlo_equity_is_near_the_exact_one() -> None:
    """Before the last street the estimate is sampled; with many deals it agrees with an
    enumeration of every down card and last up card (within 4 points)."""
    engine = _acik_last_street(["9c", "2c"], [["9d", "5s", "6h", "Kc"], ["Qs", "Qd", "3d", "4h"]])
    view = dict(engine.view(0))
    view["up"] = [cards[:3] for cards in view["up"]]  # the same hand one street earlier
    rules = engine.rules
    seen = {"9c", "9d", "5s", "6h", "Qs", "Qd", "3d"}
    unseen = [c for c in rules.deck if str(c) not in seen]
    mine = [Card.parse(c) for c in ("9c", "9d", "5s", "6h")]
    ups = [Card.parse(c) for c in ("Qs", "Qd", "3d")]
    wins = total = 0
    for i, mine_last in enumerate(unseen):
        rest = unseen[:i] + unseen[i + 1 :]
        mine_key = key([*mine, mine_last], rules)
        for a in range(len(rest)):
            for b in range(a + 1, len(rest)):
                total += 2
                wins += key([*ups, rest[a], rest[b]], rules) < mine_key
                wins += key([*ups, rest[b], rest[a]], rules) < mine_key
    exact = wins / total
    profile = PROFILES["hard"].__class__(**{**vars(PROFILES["hard"]), "samples": 4000})
    assert estimate_equity(view, rules, profile, random.Random(3)) == pytest.approx(exact, abs=0.04)


@pytest.mark.parametrize(
    ("hand", "kept"),
    [
        (["Ah", "Kh", "Qh", "Jh", "9h"], 5),  # a flush stands pat
        (["Ah", "Ad", "Kc", "Ks", "9h"], 4),  # two pair draws one
        (["Qh", "Qd", "Qc", "8s", "9h"], 3),  # trips keep the set (a kicker at most)
    ],
)
def test_hard_draw_keeps_made_cards(hand, kept) -> None:
    rules = turkish_rules(4)
    discards = draw_choice(hand, rules, [1, 2, 3], "hard", random.Random(0))
    assert len(hand) - len(discards) >= kept
    if kept < 5:
        held = [c for c in hand if c not in discards]
        assert all(c in held for c in hand[: kept if kept == 3 else 4])


def test_draw_rank_table_is_a_small_sample_close_to_the_whole_deck() -> None:
    """The draw's rank table is a few thousand hands (cheap for the first decision), seeded from
    the ruleset (reproducible), and its shares stay within 2 points of the whole deck's."""
    rules = turkish_rules(2)
    table = rank_table(rules)
    assert len(table) == RANK_SAMPLE
    assert list(table) == sorted(table)
    rank_table.cache_clear()
    assert rank_table(rules) == table  # rebuilt the same way
    exact = sorted(evaluate_all(None, rules))
    worst = max(
        abs(bisect_left(table, k) / len(table) - bisect_left(exact, k) / len(exact))
        for k in exact[::53]
    )
    assert worst < 0.02
    assert rank_table(turkish_rules(5)) != table  # per ruleset
