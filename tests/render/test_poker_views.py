"""Every state of random Türk pokeri and Açık poker hands renders; public pictures hold no hidden card."""

from __future__ import annotations

import io
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.render.pictures import PictureStyle, render_hand, render_poker_table
from bot.render.pictures.poker import hand_size, table_size
from bot.render.pictures.views import poker_hand_scene, poker_table_scene
from games.base import Action
from games.poker import acik, turkish
from testkit.random_play import random_action  # the benchmarks' random legal move

MAX_STEPS = 120
DRAW_EVERY = 4  # scenes are checked at every state, pictures drawn at every 4th (drawing is slow)
STYLES = [PictureStyle(), PictureStyle(ranks="tr", four_colour=True, lang="tr")]


def size_of(png: bytes) -> tuple[int, int]:
    assert len(png) < 200_000
    return Image.open(io.BytesIO(png)).size


def hidden_cards(game: Any) -> set[str]:
    """Cards the public may not see now (before the showdown)."""
    if game.finished:
        return set()
    data = game.to_dict()
    if data["game"] == "acik":
        return {c for c in data["down"] if c is not None}
    return {c for hand in data["hands"] for c in hand}


def check_state(game: Any, style: PictureStyle, draw: bool = True) -> None:
    public = game.view(None)
    table = poker_table_scene(public, [f"Oyuncu {i}" for i in range(len(game.players))])
    shown = {c for seat in table.seats for c in seat.cards_up}
    assert not shown & hidden_cards(game)
    if draw:
        assert size_of(render_poker_table(table, style)) == table_size(table)
    for seat, scene_seat in enumerate(table.seats):
        assert scene_seat.stack == public["stacks"][seat]
        assert scene_seat.folded == public["folded"][seat]
        if not game.finished and public["stacks"][seat] == 0 and not public["folded"][seat]:
            assert scene_seat.all_in
    seat = game.to_act()
    if seat is not None and game.view(seat)["hand"]:
        mine = game.view(seat)
        hand = poker_hand_scene(mine)
        assert hand.cards == tuple(mine["hand"])
        if mine.get("down"):
            assert hand.hole == 1
            assert hand.cards[0] == mine["down"]
        else:
            assert hand.hole == 0
        if draw:
            assert size_of(render_hand(hand, style)) == hand_size(hand)


def play(game: Any, rnd: random.Random) -> None:
    style = STYLES[rnd.randrange(2)]
    check_state(game, style)
    for step in range(1, MAX_STEPS + 1):
        seat = game.to_act()
        if seat is None:
            break
        game.apply(seat, random_action(game, seat, rnd))
        check_state(game, style, draw=step % DRAW_EVERY == 0 or game.to_act() is None)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    players=st.integers(2, 5),
    rnd=st.randoms(use_true_random=False),
)
def test_random_turkish_hands_render(seed: bytes, players: int, rnd: random.Random) -> None:
    stacks = [rnd.randint(5, 200) for _ in range(players)]
    play(turkish.new([f"p{i}" for i in range(players)], stacks, seed=seed, dealer=players - 1), rnd)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    players=st.integers(2, 10),
    rnd=st.randoms(use_true_random=False),
)
def test_random_acik_hands_render(seed: bytes, players: int, rnd: random.Random) -> None:
    stacks = [rnd.randint(5, 200) for _ in range(players)]
    play(acik.new([f"p{i}" for i in range(players)], stacks, seed=seed, dealer=0), rnd)


def test_showdown_marks_winners_and_labels() -> None:
    rnd = random.Random(7)
    game = acik.new(["a", "b"], [50, 50], seed=bytes(32))
    while not game.finished:
        seat = game.to_act()
        specs = [s for s in game.legal_actions(seat) if s.kind in ("check", "call")]
        game.apply(seat, Action(rnd.choice(specs).kind))
    view = game.view(None)
    scene = poker_table_scene(view, hand_labels={0: "Per"}, showdown_label="a kazandı")
    assert scene.showdown_label == "a kazandı"
    assert scene.seats[0].hand_label == "Per"
    won = view["result"]["won"]
    assert [s.winner for s in scene.seats] == [chips > 0 for chips in won]
    assert all(len(s.cards_up) == 5 and s.cards_down_count == 0 for s in scene.seats)


def _forced(game: Any, bettor: int) -> list[Any]:
    """Play to the end: `bettor` bets or raises the most it may, everyone else calls or checks;
    returns every event."""
    events: list[Any] = []
    while not game.finished:
        seat = game.to_act()
        specs = {s.kind: s for s in game.legal_actions(seat)}
        if seat == bettor and ("bet" in specs or "raise" in specs):
            kind = "bet" if "bet" in specs else "raise"
            events += game.apply(seat, Action(kind, specs[kind].max_amount))
        else:
            events += game.apply(seat, Action("call" if "call" in specs else "check"))
    return events


def test_an_uncalled_bet_handed_back_is_not_a_win() -> None:
    # Seat 1 bets more than seat 0 can call; seat 0 calls all-in and wins the showdown, so seat 1
    # only gets its uncalled chips back.
    game = acik.new(["a", "b"], [20, 100], seed=bytes(32), structure="no_limit", ante=1)
    events = _forced(game, bettor=1)
    kinds = {(e.kind, e.data.get("seat"), e.data.get("pot")) for e in events}
    assert ("won", 0, 0) in kinds and ("returned", 1, 1) in kinds  # the hand this test needs
    assert not any(e.kind == "won" and e.data["seat"] == 1 for e in events)
    view = game.view(None)
    assert view["result"]["won"][1] > 0  # chips went back to seat 1 ...
    scene = poker_table_scene(view)
    assert [s.winner for s in scene.seats] == [True, False]  # ... but it is not framed


def test_winners_are_the_seats_of_won_events_in_random_hands() -> None:
    # Never a loser framed; every seat that won the main pot, a split pot or a pot below the
    # last is framed (the last side pot alone cannot be told from a returned bet by the view).
    rnd = random.Random(11)
    for n in range(24):
        players = rnd.randint(2, 5)
        stacks = [rnd.randint(5, 120) for _ in range(players)]
        names = [f"p{i}" for i in range(players)]
        module = (acik, turkish)[n % 2]
        game = module.new(names, stacks, seed=bytes([n]) * 32, dealer=0)
        events = []
        for _ in range(MAX_STEPS):
            seat = game.to_act()
            if seat is None:
                break
            events += game.apply(seat, random_action(game, seat, rnd))
        if not game.finished:
            continue
        won = [e.data for e in events if e.kind == "won"]
        framed = {i for i, s in enumerate(poker_table_scene(game.view(None)).seats) if s.winner}
        assert framed <= {w["seat"] for w in won}
        last = max((w["pot"] for w in won), default=0)
        assert {w["seat"] for w in won if w["pot"] < last or w["pot"] == 0} <= framed
