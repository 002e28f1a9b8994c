"""Side pots and payouts: exact amounts, eligibility, odd chips."""

from hypothesis import given
from hypothesis import strategies as st

from games.poker.pots import Pot, award, is_returned, seats_from_dealer_left, side_pots


def test_single_pot_when_everyone_matched() -> None:
    assert side_pots([10, 10, 10], [False, False, False]) == [Pot(30, (0, 1, 2))]


def test_two_all_ins_make_main_and_two_side_pots() -> None:
    # Seat 0 all-in for 20, seat 1 all-in for 50, seats 2 and 3 put in 100; seat 3 folded.
    pots = side_pots([20, 50, 100, 100], [False, False, False, True])
    assert pots == [Pot(80, (0, 1, 2)), Pot(90, (1, 2)), Pot(100, (2,))]


def test_folded_chips_stay_in_and_carried_pot_goes_to_main() -> None:
    pots = side_pots([30, 10, 30], [False, True, False], dead=15)
    assert pots == [Pot(85, (0, 2))]


def test_carried_pot_goes_to_main_pot_when_there_are_side_pots() -> None:
    # Seat 0 all-in for 20 against two seats that put in 60: the carried 30 is in the pot seat 0
    # can win, not in the side pot it cannot.
    pots = side_pots([20, 60, 60], [False, False, False], dead=30)
    assert pots == [Pot(90, (0, 1, 2)), Pot(80, (1, 2))]
    three = side_pots([20, 50, 100, 100], [False, False, False, True], dead=7)
    assert three == [Pot(87, (0, 1, 2)), Pot(90, (1, 2)), Pot(100, (2,))]


@given(
    st.lists(st.integers(1, 200), min_size=2, max_size=6),
    st.data(),
    st.integers(1, 50),
)
def test_carried_chips_always_join_the_pot_every_live_seat_may_win(committed, data, dead) -> None:
    n = len(committed)
    folded = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if all(folded):
        folded[0] = False
    live = tuple(s for s in range(n) if not folded[s])
    without = side_pots(committed, folded)
    pots = side_pots(committed, folded, dead)
    assert pots[0].eligible == live
    assert pots[0].amount == without[0].amount + dead
    assert pots[1:] == without[1:]


def test_award_pays_best_hand_per_pot() -> None:
    pots = [Pot(80, (0, 1, 2)), Pot(90, (1, 2)), Pot(100, (2,))]
    # Seat 0 best, then seat 1, then seat 2.
    paid = award(pots, {0: 3, 1: 2, 2: 1}, dealer=0, players=4)
    assert paid == [(0, 0, 80), (1, 1, 90), (2, 2, 100)]


def test_odd_chip_goes_to_winner_closest_to_dealers_left() -> None:
    pots = [Pot(31, (0, 1, 2))]
    # Dealer is seat 1: order from the dealer's left is 2, 0, 1.
    assert award(pots, {0: 5, 1: 1, 2: 5}, dealer=1, players=3) == [(0, 2, 16), (0, 0, 15)]
    assert seats_from_dealer_left([0, 1, 2], 1, 3) == [2, 0, 1]


@given(
    st.lists(st.integers(0, 200), min_size=2, max_size=6),
    st.data(),
    st.integers(0, 50),
)
def test_pots_conserve_chips_and_pay_live_seats_only(committed, data, dead) -> None:
    n = len(committed)
    folded = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if all(folded):
        folded[0] = False
    pots = side_pots(committed, folded, dead)
    assert sum(p.amount for p in pots) == sum(committed) + dead
    for pot in pots:
        assert pot.eligible
        assert all(not folded[s] for s in pot.eligible)
    strength = {s: data.draw(st.integers(0, 3)) for s in range(n) if not folded[s]}
    paid = award(pots, strength, dealer=data.draw(st.integers(0, n - 1)), players=n)
    assert sum(c for _, _, c in paid) == sum(committed) + dead
    # No seat wins more from a pot than the pot holds and only eligible seats are paid.
    for index, seat, _chips in paid:
        assert seat in pots[index].eligible


def test_only_a_side_pot_with_one_seat_is_a_returned_bet() -> None:
    pots = side_pots([50, 20, 80], [False, False, False])
    assert [p.eligible for p in pots] == [(0, 1, 2), (0, 2), (2,)]
    assert [is_returned(pots, i) for i in range(3)] == [False, False, True]
    alone = side_pots([5, 40], [True, False])
    assert not is_returned(alone, 0)
