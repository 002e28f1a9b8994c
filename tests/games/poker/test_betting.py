"""The shared betting module: structures, table stakes, round closing, refusals, snapshots."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import ActionSpec, IllegalAction
from games.poker.betting import Betting


def kinds(specs: list[ActionSpec]) -> list[str]:
    return [s.kind for s in specs]


def spec(specs: list[ActionSpec], kind: str) -> ActionSpec:
    return next(s for s in specs if s.kind == kind)


def anted(stacks, ante=5, **kw) -> Betting:
    b = Betting(stacks, **kw)
    for seat in range(len(stacks)):
        b.post(seat, ante)
    return b


def test_pot_limit_open_bet_call_and_close() -> None:
    b = anted([100, 100, 100], min_bet=15)
    assert b.start_round(first=1) == 1
    legal = b.legal(1)
    assert kinds(legal) == ["check", "bet"]
    # Pot is 15: a pot-limit bet is between 15 and 15.
    assert spec(legal, "bet") == ActionSpec("bet", 15, 15)
    assert b.legal(0) == []
    b.apply(1, "bet", 15)
    assert b.to_act == 2
    legal = b.legal(2)
    assert kinds(legal) == ["fold", "call", "raise"]
    # Pot 30, call 15 -> pot after calling 45, raise to 15 + 45 = 60; min raise to 30.
    assert spec(legal, "raise") == ActionSpec("raise", 30, 60)
    b.apply(2, "call")
    b.apply(0, "fold")
    assert b.round_closed
    assert b.pot == 45 and b.stacks == [95, 80, 80]


def test_check_around_closes_round_without_bet() -> None:
    b = anted([50, 50], min_bet=10)
    b.start_round(first=0)
    b.apply(0, "check")
    assert not b.round_closed
    b.apply(1, "check")
    assert b.round_closed and b.current_bet == 0


def test_checked_seat_acts_again_after_a_bet() -> None:
    b = anted([100, 100, 100], min_bet=10)
    b.start_round(first=0)
    b.apply(0, "check")
    b.apply(1, "bet", 12)
    b.apply(2, "call")
    assert b.to_act == 0
    assert kinds(b.legal(0)) == ["fold", "call", "raise"]


def test_fold_without_bet_refused_unless_allowed() -> None:
    b = anted([100, 100], min_bet=10)
    b.start_round(first=0)
    with pytest.raises(IllegalAction) as err:
        b.apply(0, "fold")
    assert err.value.code == "fold_without_bet"
    assert kinds(b.legal(0, fold_unbet=True)) == ["fold", "check", "bet"]
    # An engine may pass its own list (e.g. allow a dead Açık player to fold).
    b.apply(0, "fold", allowed=[ActionSpec("fold"), ActionSpec("check")])
    assert b.folded[0] and b.round_closed


def test_refusals_change_nothing() -> None:
    b = anted([100, 100, 100], min_bet=10)
    b.start_round(first=0)
    before = json.dumps(b.to_dict())
    bad = [
        (1, "check", None, "not_your_turn"),
        (0, "bet", None, "amount_required"),
        (0, "bet", 9, "bad_amount"),
        (0, "bet", 16, "bad_amount"),
        (0, "raise", 20, "action_not_allowed"),
        (0, "call", None, "action_not_allowed"),
    ]
    for seat, kind, amount, code in bad:
        with pytest.raises(IllegalAction) as err:
            b.apply(seat, kind, amount)
        assert err.value.code == code, (kind, amount)
        assert str(err.value)
    assert json.dumps(b.to_dict()) == before
    b.apply(0, "bet", 10)
    with pytest.raises(IllegalAction) as err:
        b.apply(1, "check")
    assert err.value.code == "cannot_check"


def test_restriction_by_engine_filter() -> None:
    b = anted([100, 100], min_bet=10)
    b.start_round(first=0)
    only_check = [s for s in b.legal(0) if s.kind != "bet"]
    with pytest.raises(IllegalAction) as err:
        b.apply(0, "bet", 10, allowed=only_check)
    assert err.value.code == "action_not_allowed"
    assert b.current_bet == 0


def test_fixed_limit_caps_raises_at_three() -> None:
    b = anted([500, 500], structure="fixed", min_bet=10)
    b.start_round(first=0, bet_size=10)
    assert spec(b.legal(0), "bet") == ActionSpec("bet", 10, 10)
    b.apply(0, "bet", 10)
    seat, target = 1, 20
    for _ in range(3):
        assert spec(b.legal(seat), "raise") == ActionSpec("raise", target, target)
        b.apply(seat, "raise", target)
        seat, target = 1 - seat, target + 10
    assert kinds(b.legal(seat)) == ["fold", "call"]
    b.apply(seat, "call")
    assert b.round_closed and b.pot == 10 + 80


def test_no_limit_allows_whole_stack() -> None:
    b = anted([100, 300], structure="no_limit", min_bet=10)
    b.start_round(first=0)
    assert spec(b.legal(0), "bet") == ActionSpec("bet", 10, 95)
    b.apply(0, "bet", 95)
    assert b.all_in(0)
    # Only call or fold: nobody could answer a raise.
    assert kinds(b.legal(1)) == ["fold", "call"]
    assert spec(b.legal(1), "call").max_amount == 95
    b.apply(1, "call")
    assert b.round_closed


def test_call_all_in_for_less_and_side_pots() -> None:
    b = anted([25, 60, 200, 200], min_bet=10, structure="no_limit")
    b.start_round(first=0)
    b.apply(0, "bet", 20)  # all-in
    assert b.all_in(0)
    b.apply(1, "raise", 55)  # all-in
    b.apply(2, "raise", 120)
    assert spec(b.legal(3), "call") == ActionSpec("call", 120, 120)
    b.apply(3, "call")
    assert b.round_closed
    pots = b.pots()
    assert [(p.amount, p.eligible) for p in pots] == [
        (100, (0, 1, 2, 3)),
        (105, (1, 2, 3)),
        (130, (2, 3)),
    ]


def test_short_all_in_raise_does_not_reopen_betting() -> None:
    b = anted([200, 200, 45], min_bet=10, structure="no_limit")
    b.start_round(first=0)
    b.apply(0, "bet", 30)
    b.apply(1, "call")
    b.apply(2, "raise", 40)  # all-in, only 10 more: less than a full raise of 30
    assert b.to_act == 0
    assert kinds(b.legal(0)) == ["fold", "call"]
    b.apply(0, "call")
    assert kinds(b.legal(1)) == ["fold", "call"]
    b.apply(1, "call")
    assert b.round_closed


def test_short_all_in_raises_that_add_up_to_a_full_raise_reopen_the_betting() -> None:
    b = Betting([100, 16, 22, 100], structure="no_limit", min_bet=2)
    b.start_round(first=0)
    b.apply(0, "bet", 10)
    b.apply(1, "raise", 16)  # all-in, 6 more: short of a full raise (10)
    b.apply(2, "raise", 22)  # all-in, 6 more again: 12 over seat 0's bet in all
    assert spec(b.legal(3), "raise").min_amount == 32
    b.apply(3, "call")
    # Seat 0 faces 12 more than its own bet, a full raise: it may raise again.
    assert kinds(b.legal(0)) == ["fold", "call", "raise"]
    b.apply(0, "call")
    # Seat 3 called at 22 and faces nothing new: it is not asked again.
    assert b.round_closed


def test_a_single_short_raise_after_a_call_does_not_reopen_for_the_caller() -> None:
    b = Betting([100, 100, 24, 100], structure="no_limit", min_bet=2)
    b.start_round(first=0)
    b.apply(0, "bet", 10)
    b.apply(1, "raise", 20)  # a full raise
    b.apply(2, "raise", 24)  # all-in, 4 more: short
    # Seat 3 has not acted: it may raise. Seat 0 faces 14 over its bet (a full raise was in
    # between, so it may raise anyway); seat 1 faces only the short 4 and may not.
    assert kinds(b.legal(3)) == ["fold", "call", "raise"]
    b.apply(3, "call")
    assert kinds(b.legal(0)) == ["fold", "call", "raise"]
    b.apply(0, "call")
    assert kinds(b.legal(1)) == ["fold", "call"]


def test_snapshot_without_acted_at_reopens_nothing() -> None:
    b = Betting([100, 16, 22, 100], structure="no_limit", min_bet=2)
    b.start_round(first=0)
    b.apply(0, "bet", 10)
    b.apply(1, "raise", 16)
    b.apply(2, "raise", 22)
    b.apply(3, "call")
    data = b.to_dict()
    del data["acted_at"]  # a snapshot stored before the field existed
    assert kinds(Betting.from_dict(data).legal(0)) == ["fold", "call"]


def test_everyone_acts_lets_a_lone_seat_with_chips_speak() -> None:
    b = anted([100, 5], min_bet=10)
    assert b.all_in(1)
    assert b.start_round(first=0) is None
    assert b.start_round(first=0, everyone_acts=True) == 0


def test_snapshot_round_trip_plays_on() -> None:
    b = anted([100, 100, 100], min_bet=10)
    b.start_round(first=2)
    b.apply(2, "bet", 12)
    data = json.loads(json.dumps(b.to_dict()))
    c = Betting.from_dict(data)
    assert c.to_dict() == b.to_dict()
    assert c.legal(0) == b.legal(0)
    assert c.apply(0, "raise", 30) == b.apply(0, "raise", 30)
    assert c.to_dict() == b.to_dict()


def test_bad_structure_rejected() -> None:
    with pytest.raises(ValueError):
        Betting([10, 10], structure="spread")


@settings(max_examples=300)
@given(
    st.lists(st.integers(1, 300), min_size=2, max_size=6),
    st.sampled_from(["pot_limit", "fixed", "no_limit"]),
    st.randoms(use_true_random=False),
)
def test_random_rounds_conserve_chips_and_terminate(stacks, structure, rnd) -> None:
    b = anted(stacks, ante=2, structure=structure, min_bet=4)
    total = sum(stacks)
    for _street in range(3):
        live_before = b.live()
        if len(live_before) < 2:
            break
        b.start_round(first=rnd.randrange(len(stacks)), bet_size=4 * (1 + _street))
        steps = 0
        while not b.round_closed:
            seat = b.to_act
            assert seat is not None
            legal = b.legal(seat)
            assert legal
            choice = rnd.choice(legal)
            amount = None
            if choice.kind in ("bet", "raise"):
                amount = rnd.randint(choice.min_amount, choice.max_amount)
            b.apply(seat, choice.kind, amount)
            assert sum(b.stacks) + b.pot == total
            assert min(b.stacks) >= 0
            steps += 1
            assert steps < 200
        # Stakes are equal among live seats that still have chips.
        live = [s for s in b.live() if b.stacks[s] > 0]
        if len(b.live()) > 1:
            assert len({b.stake[s] for s in live}) <= 1
            for s in b.live():
                assert b.stake[s] <= max(b.stake) and (b.stacks[s] == 0 or s in live)
    pots = b.pots()
    assert sum(p.amount for p in pots) == b.pot


def test_fold_out_of_turn_moves_the_round_on() -> None:
    b = anted([100, 100, 100], min_bet=10)
    b.start_round(first=0)
    b.fold(2)  # a player who leaves the table
    b.apply(0, "check")
    assert b.to_act == 1
    b.fold(1)  # the seat to act leaves: only seat 0 is left
    assert b.round_closed and b.live() == [0]
    assert [(p.amount, p.eligible) for p in b.pots()] == [(15, (0,))]


def test_pay_credits_the_payouts_and_empties_the_middle() -> None:
    b = Betting([100, 100], min_bet=10, dead=6)
    b.post(0, 5)
    b.post(1, 5)
    b.start_round(first=0)
    b.apply(0, "bet", 10)
    with pytest.raises(ValueError):
        b.pay([(0, 0, b.pot - 1)])  # chips would be lost
    assert b.pot == 26
    b.pay([(0, 1, 20), (1, 0, 6)])
    assert b.stacks == [91, 115] and b.pot == 0
    assert b.committed == [0, 0] and b.current_bet == 0 and b.round_closed


def test_fixed_limit_raise_completes_the_level_after_a_short_all_in_bet() -> None:
    b = Betting([3, 100, 100], structure="fixed", min_bet=4)
    b.start_round(first=0)
    b.apply(0, "bet", 3)  # all-in, short of the 4-chip bet
    assert spec(b.legal(1), "call").max_amount == 3
    assert (spec(b.legal(1), "raise").min_amount, spec(b.legal(1), "raise").max_amount) == (4, 4)
    b.apply(1, "raise", 4)  # completes the bet
    assert spec(b.legal(2), "raise").min_amount == 8
    b.apply(2, "raise", 8)
    # Seat 1 faces a full raise: it may raise again, to the next whole bet.
    assert spec(b.legal(1), "raise").min_amount == 12


def test_fixed_limit_cap_is_four_bets_even_after_a_short_all_in_raise() -> None:
    b = Betting([100, 100, 10, 100], structure="fixed", min_bet=4)
    b.start_round(first=0)
    b.apply(0, "bet", 4)
    b.apply(1, "raise", 8)
    b.apply(2, "raise", 10)  # all-in, short of the next level (12)
    assert spec(b.legal(3), "raise").min_amount == 12  # completes the level
    b.apply(3, "raise", 12)
    # Seat 0 bet 4 and now faces 12: it may raise, to the fourth and last bet.
    assert spec(b.legal(0), "raise").min_amount == 16
    b.apply(0, "raise", 16)
    assert kinds(b.legal(1)) == ["fold", "call"]
