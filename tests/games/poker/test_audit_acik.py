"""Rules audit of the Açık poker engine: acik-poker.txt and DECISIONS.md checked street by street
with stacked decks, as a player from a Turkish card room would check them at the table."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.base import Action, Event, IllegalAction
from games.poker import acik_rules
from games.poker.acik import AcikHand, new

from .test_acik_helpers import act, check_round, scripted
from .test_turkish_random import cards_in


def specs(hand: AcikHand, seat: int) -> list[tuple[str, Any, Any]]:
    """The legal moves of `seat` as (kind, min, max)."""
    return [(s.kind, s.min_amount, s.max_amount) for s in hand.legal_actions(seat)]


def refused(hand: AcikHand, seat: int, action: Action, code: str) -> IllegalAction:
    """Apply `action`, expect the refusal `code`, and check that nothing changed."""
    before = json.dumps(hand.to_dict())
    view = json.dumps(hand.view(None))
    with pytest.raises(IllegalAction) as err:
        hand.apply(seat, action)
    assert err.value.code == code, (err.value.code, str(err.value))
    assert str(err.value)
    assert json.dumps(hand.to_dict()) == before
    assert json.dumps(hand.view(None)) == view
    return err.value


def down_cards_named(hand: AcikHand, value: Any) -> set[str]:
    """The down cards (of any seat) named anywhere in `value`."""
    downs = {str(c) for c in hand.down if c is not None}
    return cards_in(value) & downs


def speakers(hand: AcikHand) -> list[int | None]:
    """Check every street through, recording who spoke first on each."""
    first: list[int | None] = []
    while not hand.finished:
        first.append(hand.first)
        check_round(hand)
    return first


# --- who speaks first ----------------------------------------------------------------------------


def test_each_street_the_best_visible_hand_speaks_with_the_suit_tie_rules() -> None:
    hand = scripted(
        ["2c", "2d", "2h"],
        [
            ["Qs", "7d", "3c", "Qd"],
            ["Qh", "7c", "3d", "Qc"],
            ["Js", "Jd", "4h", "5s"],
        ],
    )
    # 1: queen against queen, the heart is higher. 2 and 3: a visible pair of jacks beats any
    # high cards. 4: queens against queens with the same kickers: the suit of the highest
    # unpaired card (7d over 7c) decides, even though seat 1's pair holds the heart.
    assert speakers(hand) == [1, 2, 2, 0]


def test_equal_pairs_without_an_unpaired_card_go_to_the_pair_holding_the_higher_suit() -> None:
    hand = scripted(["2c", "2d"], [["Qc", "Qh", "3c", "4c"], ["Qs", "Qd", "3d", "4d"]])
    # 1: Qs over Qc. 2: a pair of queens each, no unpaired card: seat 0 holds the heart.
    # 3 and 4: the unpaired cards (3c/3d, then 4c/4d) decide: diamonds over clubs.
    assert speakers(hand) == [1, 0, 1, 1]


def test_ranks_decide_before_suits_and_straights_or_flushes_do_not_count_when_visible() -> None:
    hand = scripted(
        ["2c", "2d"],
        [["9h", "Th", "Jh", "Qh"], ["Kc", "3d", "5s", "6c"]],
    )
    # Four hearts in a row are only queen-high when visible: the king speaks every street.
    assert speakers(hand) == [1, 1, 1, 1]


def test_speaking_order_goes_clockwise_from_the_first_speaker_on_every_street() -> None:
    hand = scripted(["2c", "2d", "2h", "2s"], [["5c"], ["6c"], ["Ac"], ["7c"]], dealer=3)
    assert hand.first == 2
    order = []
    while hand.street == 1:
        order.append(hand.to_act())
        act(hand, hand.to_act(), "check")
    assert order == [2, 3, 0, 1]


# --- betting --------------------------------------------------------------------------------------


def test_fold_is_refused_until_somebody_bets() -> None:
    hand = scripted(["2c", "3c", "4c"], [["Ah"], ["Kh"], ["Qh"]], ante=2)
    refused(hand, 0, Action("fold"), "fold_without_bet")
    act(hand, 0, "check")
    refused(hand, 1, Action("fold"), "fold_without_bet")
    act(hand, 1, "bet", 2)
    assert [k for k, _, _ in specs(hand, 2)] == ["fold", "call", "raise"]
    act(hand, 2, "fold")
    # The seat that checked before the bet may fold now.
    act(hand, 0, "fold")
    assert hand.finished and hand.view(None)["stacks"] == [98, 104, 98]


def test_pot_limit_arithmetic_on_a_street() -> None:
    hand = scripted(["2c", "3c", "4c"], [["Ah"], ["Kh"], ["Qh"]], stacks=[500] * 3, ante=5)
    # The pot is 15: a bet may be from min_bet (the ante) up to the pot.
    assert specs(hand, 0) == [("check", None, None), ("bet", 5, 15)]
    act(hand, 0, "bet", 15)  # pot 30
    # Calling 15 makes 45: the largest raise is to 15 + 45 = 60, the smallest to 30.
    assert specs(hand, 1) == [("fold", None, None), ("call", 15, 15), ("raise", 30, 60)]
    act(hand, 1, "raise", 60)  # pot 90
    # Calling 60 makes 150: the largest raise is to 60 + 150 = 210; the smallest adds 45.
    assert specs(hand, 2) == [("fold", None, None), ("call", 60, 60), ("raise", 105, 210)]


def test_all_ins_get_every_street_and_side_pots_are_paid_by_hand() -> None:
    # Seat 0 (20 chips) makes aces, seat 1 (60) kings, seat 2 (200) queens.
    hand = scripted(
        ["Ac", "9c", "8c"],
        [["Ah", "2d", "3d", "5h"], ["Kh", "Kd", "4s", "6s"], ["Qh", "Qd", "7d", "Jh"]],
        stacks=[20, 60, 200],
        structure="no_limit",
        min_bet=2,
    )
    assert hand.first == 0
    act(hand, 0, "bet", 20)  # all-in
    act(hand, 1, "raise", 60)  # all-in
    events = act(hand, 2, "call")
    # Nobody can bet any more: the remaining streets are dealt out and shown down.
    assert hand.finished
    assert [e.data["street"] for e in events if e.kind == "dealt_up"] == [2, 3, 4]
    assert hand.view(None)["payouts"] == [
        {"pot": 0, "seat": 0, "amount": 60},
        {"pot": 1, "seat": 1, "amount": 80},
    ]
    assert hand.view(None)["stacks"] == [60, 80, 140]


def test_uncalled_bet_over_an_all_in_comes_back() -> None:
    hand = scripted(
        ["Ac", "9c"],
        [["Ah", "2d", "3d", "5h"], ["Kh", "Kd", "4s", "6s"]],
        stacks=[100, 30],
        structure="no_limit",
        min_bet=2,
    )
    act(hand, 0, "bet", 80)
    events = act(hand, 1, "call")  # all-in for 30
    assert hand.finished
    assert [e.data for e in events if e.kind == "returned"] == [{"pot": 1, "seat": 0, "amount": 50}]
    assert hand.view(None)["stacks"] == [130, 0]


# --- the void-bet rule (rule 8) -------------------------------------------------------------------

# Seat 0 shows two pair (aces and kings) on street 4; seat 1 shows a pair of queens and holds 2c
# down: by its real cards it is dead (a pair of queens), publicly it is not (a queen down makes
# three queens, which beat two pair).
DEAD_PRIVATELY = (["Kh", "2c"], [["Ah", "As", "Kd", "Kc"], ["Qh", "Qs", "5d", "7c"]])
# Seat 0 shows three aces; seat 1 shows 3 4 7 9 of mixed suits: no down card can beat three aces.
DEAD_PUBLICLY = (["Kh", "2c"], [["Ah", "As", "Ad", "Kc"], ["3d", "4h", "7s", "9c"]])


def to_street(hand: AcikHand, street: int) -> None:
    while hand.street < street:
        check_round(hand)


def test_dead_by_the_down_card_only_may_check_or_fold_but_never_put_chips_in() -> None:
    hand = scripted(*DEAD_PRIVATELY, ante=2)
    to_street(hand, 4)
    assert hand.is_dead(1, 0) and not hand.is_dead(1, 0, public=True)
    assert hand.first == 0
    # Seat 0 may bet into seat 1: the table cannot know seat 1 is dead.
    assert [k for k, _, _ in specs(hand, 0)] == ["check", "bet"]
    act(hand, 0, "check")
    assert [k for k, _, _ in specs(hand, 1)] == ["fold", "check"]
    # The table's buttons do not give the dead player away.
    assert [s.kind for s in hand.public_legal_actions(1)] == ["fold", "check", "bet"]
    err = refused(hand, 1, Action("bet", 2), "void_bet_dead")
    assert err.params["against"] == 0 and err.params["cards"] == ["Ah", "As", "Kd", "Kc"]
    assert not down_cards_named(hand, {"message": str(err), "params": err.params}) - {"2c"}
    assert "Kh" not in str(err)


def test_dead_player_facing_a_bet_may_only_fold() -> None:
    hand = scripted(*DEAD_PRIVATELY, ante=2)
    to_street(hand, 4)
    act(hand, 0, "bet", 4)
    assert specs(hand, 1) == [("fold", None, None)]
    refused(hand, 1, Action("call"), "void_bet_dead")
    refused(hand, 1, Action("raise", 8), "void_bet_dead")
    events = act(hand, 1, "fold")
    assert hand.finished and hand.view(None)["stacks"] == [102, 98]
    assert not any(down_cards_named(hand, e.to_dict()) for e in events if e.public)


def test_nobody_may_bet_into_a_publicly_dead_player_and_the_dead_player_may_not_bet() -> None:
    hand = scripted(*DEAD_PUBLICLY, ante=2)
    to_street(hand, 3)
    # Street 3: seat 1 (2c 3d 4h 7s) can no longer make a straight or beat three aces by its
    # real cards, but publicly 5-6 would still make a straight: only seat 1's own moves are cut.
    assert hand.is_dead(1, 0) and not hand.is_dead(1, 0, public=True)
    assert [k for k, _, _ in specs(hand, 0)] == ["check", "bet"]
    check_round(hand)
    assert hand.street == 4 and hand.is_dead(1, 0, public=True)
    assert specs(hand, 0) == [("check", None, None)]
    err = refused(hand, 0, Action("bet", 2), "void_bet_into_dead")
    assert err.params == {"action": "bet", "against": 1, "cards": ["3d", "4h", "7s", "9c"]}
    assert not down_cards_named(hand, {"message": str(err), "params": err.params})
    act(hand, 0, "check")
    assert [k for k, _, _ in specs(hand, 1)] == ["fold", "check"]
    refused(hand, 1, Action("bet", 2), "void_bet_dead")
    act(hand, 1, "check")
    assert hand.finished and hand.view(None)["stacks"] == [102, 98]


def test_void_bets_off_lets_everyone_bet_and_call() -> None:
    hand = scripted(*DEAD_PUBLICLY, ante=2, void_bets=False)
    to_street(hand, 4)
    act(hand, 0, "bet", 4)
    assert [k for k, _, _ in specs(hand, 1)] == ["fold", "call", "raise"]
    act(hand, 1, "call")
    assert hand.finished and hand.view(None)["stacks"] == [106, 94]


# --- hole cards ------------------------------------------------------------------------------------


def test_peek_once_hides_the_down_card_after_the_deal_until_the_hand_ends() -> None:
    hand = scripted(["2c", "3c"], [["Ah"], ["Kh"]], peek_once=True)
    holes = [e for e in hand.initial_events() if e.kind == "hole"]
    assert sorted((e.seat, e.data["card"]) for e in holes) == [(0, "2c"), (1, "3c")]
    view = hand.view(0)
    assert view["down"] is None and view["down_hidden"] and view["hand"] == ["Ah"]
    refused_peek = pytest.raises(IllegalAction)
    with refused_peek as err:
        hand.peek(0)
    assert err.value.code == "peek_used"
    while not hand.finished:
        check_round(hand)
    assert hand.view(0)["down"] == "2c" and not hand.view(0)["down_hidden"]


def test_without_peek_once_the_down_card_can_be_seen_again_privately() -> None:
    hand = scripted(["2c", "3c"], [["Ah"], ["Kh"]])
    assert hand.view(0)["down"] == "2c" and hand.view(0)["hand"] == ["2c", "Ah"]
    (event,) = hand.peek(0)
    assert event.seat == 0 and not event.public and event.data == {"card": "2c"}


# --- refusals, snapshots, privacy -----------------------------------------------------------------


def test_every_refusal_has_a_stable_code_and_changes_nothing() -> None:
    hand = scripted(["2c", "3c"], [["Ah"], ["Kh"]], ante=2)
    for seat, action, code in [
        (1, Action("check"), "not_your_turn"),
        (5, Action("check"), "bad_seat"),
        (0, Action("draw"), "action_not_allowed"),
        (0, Action("open", 2), "action_not_allowed"),
        (0, Action("call"), "action_not_allowed"),
        (0, Action("raise", 4), "action_not_allowed"),
        (0, Action("fold"), "fold_without_bet"),
        (0, Action("bet"), "amount_required"),
        (0, Action("bet", 1), "bad_amount"),
        (0, Action("bet", 5), "bad_amount"),
        (0, Action("bet", "2"), "amount_required"),  # type: ignore[arg-type]
        (0, Action("check", 2), "unexpected_amount"),
        (0, Action("check", cards=("Ah",)), "unexpected_cards"),
    ]:
        refused(hand, seat, action, code)
    act(hand, 0, "bet", 4)
    for seat, action, code in [
        (1, Action("check"), "cannot_check"),
        (1, Action("call", 3), "bad_amount"),
        (1, Action("raise", 7), "bad_amount"),
        (1, Action("bet", 8), "action_not_allowed"),
        (1, Action("fold", 0), "unexpected_amount"),
    ]:
        refused(hand, seat, action, code)
    act(hand, 1, "fold")
    refused(hand, 0, Action("check"), "hand_over")


def test_snapshot_at_every_step_plays_on_identically() -> None:
    hand = scripted(*DEAD_PRIVATELY, ante=2)
    script = [
        (0, Action("bet", 2)),
        (1, Action("call")),
        (0, Action("check")),
        (1, Action("check")),
        (0, Action("bet", 4)),
        (1, Action("raise", 8)),
        (0, Action("call")),
        (0, Action("bet", 2)),
        (1, Action("fold")),
    ]
    for seat, action in script:
        copy = AcikHand.from_dict(json.loads(json.dumps(hand.to_dict())))
        assert copy.legal_actions(seat) == hand.legal_actions(seat)
        assert copy.public_legal_actions(seat) == hand.public_legal_actions(seat)
        mine = [e.to_dict() for e in hand.apply(seat, action)]
        assert [e.to_dict() for e in copy.apply(seat, action)] == mine
        assert copy.to_dict() == hand.to_dict()
        assert copy.view(None) == hand.view(None)
    assert hand.finished


def test_public_view_and_events_never_hold_a_down_card() -> None:
    hand = scripted(
        ["2c", "3c", "4c"],
        [["Ah", "5d", "6d", "8d"], ["Kh", "5h", "6h", "8h"], ["Qh"]],
        ante=1,
    )
    events: list[Event] = list(hand.initial_events())
    events += act(hand, 0, "bet", 1)
    events += act(hand, 1, "call")
    events += act(hand, 2, "fold")
    while not hand.finished:
        assert not down_cards_named(hand, hand.view(None))
        events += check_round(hand)
    public = [e for e in events if e.public]
    shown = [e for e in public if e.kind == "showdown"]
    assert not any(down_cards_named(hand, e.to_dict()) for e in public if e.kind != "showdown")
    # At the showdown only the live players' down cards are shown; the folded one never is.
    assert down_cards_named(hand, [e.to_dict() for e in shown]) == {"2c", "3c"}
    assert down_cards_named(hand, hand.view(None)) == {"2c", "3c"}


def test_multiway_a_publicly_dead_player_stops_only_bets_into_them_until_they_fold() -> None:
    # Street 4: seat 0 shows three aces; seat 2 shows 3 4 7 9 and cannot beat them whatever its
    # down card; seat 1 shows 7-8-9-T of hearts (ten high when visible) and holds Jh down.
    hand = scripted(
        ["Kh", "Jh", "2c"],
        [["Ah", "As", "Ad", "2d"], ["7h", "8h", "9h", "Th"], ["3d", "4h", "7s", "9c"]],
        ante=2,
    )
    to_street(hand, 4)
    assert hand.is_dead(2, 0, public=True) and not hand.is_dead(2, 1, public=True)
    assert hand.first == 0
    # The aces may not bet while seat 2, publicly dead against them, is in.
    assert specs(hand, 0) == [("check", None, None)]
    act(hand, 0, "check")
    # Seat 1 may bet: nobody is publicly dead against its ten-high up cards.
    act(hand, 1, "bet", 4)
    # Seat 2, dead against the aces, may only fold.
    assert specs(hand, 2) == [("fold", None, None)]
    act(hand, 2, "fold")
    # With seat 2 gone, the aces may raise again.
    assert [k for k, _, _ in specs(hand, 0)] == ["fold", "call", "raise"]
    act(hand, 0, "call")
    assert hand.finished
    assert hand.view(None)["result"]["won"] == [0, 14, 0]  # the straight flush


def test_every_listed_move_is_accepted_at_its_limits() -> None:
    """`legal_actions` and `apply` agree, void bets included: each listed move, at its smallest
    and largest amount, is accepted, over seeded random hands of every structure."""
    rnd = random.Random(11)
    for _ in range(40):
        n = rnd.randint(2, 6)
        hand = new(
            [f"p{i}" for i in range(n)],
            [rnd.randint(1, 60) for _ in range(n)],
            acik_rules(rnd.choice([52, 32])),
            rnd.randbytes(32),
            rnd.randrange(n),
            ante=rnd.randint(0, 3),
            structure=rnd.choice(["pot_limit", "fixed", "no_limit"]),
        )
        while not hand.finished:
            seat = hand.to_act()
            assert seat is not None
            options = []
            for spec in hand.legal_actions(seat):
                if spec.kind in ("bet", "raise"):
                    options += [Action(spec.kind, a) for a in (spec.min_amount, spec.max_amount)]
                else:
                    options.append(Action(spec.kind))
            public = {s.kind for s in hand.public_legal_actions(seat)}
            assert {a.kind for a in options} <= public
            for action in options:
                AcikHand.from_dict(hand.to_dict()).apply(seat, action)
            hand.apply(seat, rnd.choice(options))
