"""Açık poker's live odds on the table picture: the scene carries each live seat's percentage
(none for a folded seat or a finished hand), the pill is drawn by the seat, and a picture built
from the public view does not change when only hidden down cards change."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from bot.render.pictures import PictureStyle, PokerSeat, PokerTableScene, render_poker_table
from bot.render.pictures.poker import PANEL_PAD, PANEL_SIZE, seat_centres
from bot.render.pictures.views import poker_table_scene
from games.base import Action
from games.poker import acik_rules
from games.poker.acik import new_with_deck
from games.poker.odds import estimate

SEED = bytes(range(32))


def checked_to(street: int, deck: list, n: int):
    """An Açık hand dealt from `deck`, everyone checking, up to `street`."""
    hand = new_with_deck([f"p{i}" for i in range(n)], [100] * n, acik_rules(52), deck, SEED)
    while hand.street < street and not hand.finished:
        hand.apply(hand.to_act(), Action("check"))
    return hand


def bet_then_fold(hand) -> None:
    """The seat to act bets the least it may and the next seat folds."""
    seat = hand.to_act()
    bet = next(a for a in hand.legal_actions(seat) if a.kind == "bet")
    hand.apply(seat, Action("bet", bet.min_amount))
    hand.apply(hand.to_act(), Action("fold"))


def percents(view: dict) -> list[int | None]:
    """The core's figures: `Odds.percent` for each seat of the public view."""
    odds = estimate(view)
    return [odds.percent(e) for e in range(len(view["players"]))]


def test_scene_carries_each_live_seats_percentage_and_none_for_a_fold() -> None:
    hand = checked_to(2, list(acik_rules(52).deck), 3)
    bet_then_fold(hand)
    view = hand.view(None)
    folded = view["folded"].index(True)
    figures = percents(view)
    scene = poker_table_scene(view, odds=[f if f is not None else 0 for f in figures])
    assert [s.odds for s in scene.seats] == figures
    assert scene.seats[folded].odds is None
    assert 99 <= sum(f for f in figures if f is not None) <= 101


def test_no_odds_without_figures_or_once_the_hand_is_over() -> None:
    hand = checked_to(2, list(acik_rules(52).deck), 2)
    view = hand.view(None)
    assert all(s.odds is None for s in poker_table_scene(view).seats)
    bet_then_fold(hand)
    finished = hand.view(None)
    assert finished["finished"]
    assert all(s.odds is None for s in poker_table_scene(finished, odds=[50, 50]).seats)


def test_odds_need_one_figure_per_seat_and_a_percentage() -> None:
    view = checked_to(1, list(acik_rules(52).deck), 3).view(None)
    with pytest.raises(ValueError, match="odds needs one entry per seat"):
        poker_table_scene(view, odds=[50, 50])
    with pytest.raises(ValueError, match="odds must be a percentage"):
        PokerSeat("a", 10, odds=101)


def _pill_region(scene: PokerTableScene, seat: int) -> tuple[int, int, int, int]:
    """The top right corner of a seat's panel, where the pill goes."""
    sx, sy = seat_centres(len(scene.seats))[seat]
    left, top = round(sx - PANEL_SIZE[0] / 2), round(sy - PANEL_SIZE[1] / 2)
    right = left + PANEL_SIZE[0] - PANEL_PAD
    return right - 44, top + PANEL_PAD - 1, right, top + PANEL_PAD + 18


def test_pill_is_drawn_only_where_a_figure_is_shown() -> None:
    seats = (
        PokerSeat("Ayşe", 900, cards_up=("Ah",), cards_down_count=1),
        PokerSeat("Cem", 900, cards_up=("2c",), cards_down_count=1),
    )
    plain = PokerTableScene("acik", seats, 20)
    shown = PokerTableScene("acik", (replace(seats[0], odds=73), seats[1]), 20)
    a, b = (
        Image.open(io.BytesIO(render_poker_table(s, PictureStyle()))).convert("RGB")
        for s in (plain, shown)
    )
    diff = ImageChops.difference(a, b)
    assert diff.crop(_pill_region(plain, 0)).getbbox() is not None  # the pill at seat 0
    assert diff.crop(_pill_region(plain, 1)).getbbox() is None  # nothing at seat 1


@settings(max_examples=10, deadline=None)
@given(
    n=st.integers(2, 4),
    street=st.integers(1, 3),
    shuffle=st.randoms(use_true_random=False),
    undealt=st.lists(st.integers(0, 51), min_size=1, max_size=3),
)
def test_hidden_cards_do_not_change_the_picture(n, street, shuffle, undealt) -> None:
    """Swapping down cards among the seats, or with cards never dealt, changes neither the
    scene nor its figures."""
    deck = list(acik_rules(52).deck)
    shuffle.shuffle(deck)
    dealt = n * (1 + street)
    other = list(deck)
    other[:n] = other[:n][::-1]
    for i, k in enumerate(undealt):
        seat, spare = i % n, dealt + k % (52 - dealt)
        other[seat], other[spare] = other[spare], other[seat]
    first, second = (checked_to(street, d, n).view(None) for d in (deck, other))
    assert poker_table_scene(first, odds=percents(first)) == poker_table_scene(
        second, odds=percents(second)
    )
