"""Scripted Açık poker hands: deal, speaking order, showdowns, folding, privacy, refusals."""

from __future__ import annotations

import json

import pytest

from games.base import Action, Game, IllegalAction, seed_hash
from games.poker import acik_rules
from games.poker.acik import AcikHand, deck_order, down_cards, new

from .test_acik_helpers import SEED, act, check_round, kinds, scripted


def won(events) -> dict[int, int]:
    out: dict[int, int] = {}
    for e in events:
        if e.kind == "won":
            out[e.data["seat"]] = out.get(e.data["seat"], 0) + e.data["amount"]
    return out


# --- the deal -----------------------------------------------------------------------------------


def test_deal_from_dealers_left_one_down_one_up_and_antes() -> None:
    hand = new(["a", "b", "c"], [50, 50, 3], acik_rules(), SEED, dealer=1, ante=5)
    deck = deck_order(acik_rules(), SEED)
    # Dealer 1: cards go to seats 2, 0, 1: first the down cards, then the up cards.
    assert hand.down == [deck[1], deck[2], deck[0]]
    assert hand.up == [[deck[4]], [deck[5]], [deck[3]]]
    view = hand.view(None)
    # Seat 2 had only 3 chips: all-in on the ante.
    assert view["stacks"] == [45, 45, 0]
    assert view["pot"] == 13
    assert view["seed_hash"] == seed_hash(SEED)
    events = hand.initial_events()
    assert [e.kind for e in events if e.public][:2] == ["hand_started", "antes"]
    holes = {e.seat: e.data["card"] for e in events if e.kind == "hole"}
    assert holes == {s: str(hand.down[s]) for s in range(3)}


def test_seeded_shuffle_is_reproducible_and_differs_by_seed() -> None:
    a = new(["a", "b"], [10, 10], acik_rules(), SEED)
    b = new(["a", "b"], [10, 10], acik_rules(), SEED)
    c = new(["a", "b"], [10, 10], acik_rules(), bytes(32))
    assert a.to_dict() == b.to_dict()
    assert a.deck != c.deck


@pytest.mark.parametrize(
    ("players", "deck", "code"),
    [(1, 52, "player_count"), (11, 52, "player_count"), (7, 32, "player_count")],
)
def test_player_count_limits(players: int, deck: int, code: str) -> None:
    with pytest.raises(IllegalAction) as info:
        new([f"p{i}" for i in range(players)], [10] * players, acik_rules(deck), SEED)
    assert info.value.code == code


def test_ten_players_with_52_cards_and_six_with_32() -> None:
    ten = new([f"p{i}" for i in range(10)], [10] * 10, acik_rules(52), SEED)
    six = new([f"p{i}" for i in range(6)], [10] * 6, acik_rules(32), SEED)
    assert all(c.rank >= 7 for c in six.deck)
    assert len(ten.deck) == 52 and len(six.deck) == 32


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"stacks": [10, 0]}, "bad_stacks"),
        ({"stacks": [10]}, "bad_stacks"),
        ({"seed": b"short"}, "bad_seed"),
        ({"dealer": 2}, "bad_dealer"),
        ({"ante": -1}, "bad_ante"),
        ({"structure": "spread"}, "bad_structure"),
        ({"min_bet": 0}, "bad_bet_size"),
        ({"colour": "red"}, "unknown_option"),
    ],
)
def test_bad_table_arguments_are_refused(kwargs: dict, code: str) -> None:
    args = {"stacks": [10, 10], "seed": SEED} | kwargs
    stacks, seed = args.pop("stacks"), args.pop("seed")
    with pytest.raises(IllegalAction) as info:
        new(["a", "b"], stacks, acik_rules(), seed, **args)
    assert info.value.code == code


# --- speaking order -----------------------------------------------------------------------------


def test_best_visible_hand_speaks_first_then_clockwise() -> None:
    hand = scripted(
        ["2c", "3c", "4c"],
        [["7s", "7c", "9d", "Jd"], ["7h", "7d", "Ts", "Qs"], ["Ad", "Kc", "5h", "6h"]],
    )
    # Street 1: A high beats the sevens.
    assert (hand.street, hand.first, hand.to_act()) == (1, 2, 2)
    act(hand, 2, "check")
    act(hand, 0, "check")
    act(hand, 1, "check")
    # Street 2: two pairs of sevens; the pair holding the heart speaks first.
    assert (hand.street, hand.first) == (2, 1)
    speaks = [e for e in check_round(hand) if e.kind == "speaks_first"]
    assert speaks[0].data == {"street": 3, "seat": 1, "cards": ["7h", "7d", "Ts"], "to_act": 1}


def test_ties_on_visible_ranks_go_to_the_higher_suit() -> None:
    hand = scripted(["2c", "3c", "4c"], [["As"], ["Ah"], ["Kh"]])
    assert hand.first == 1
    assert [e.data["seat"] for e in hand.initial_events() if e.kind == "speaks_first"] == [1]


def test_an_all_in_first_speaker_passes_the_word_clockwise() -> None:
    hand = scripted(["2c", "3c", "4c"], [["Ah"], ["Kh"], ["Qh"]], stacks=[5, 50, 50], ante=5)
    assert hand.first == 0
    assert hand.to_act() == 1


# --- betting ------------------------------------------------------------------------------------


def test_folding_is_refused_while_nobody_has_bet() -> None:
    hand = scripted(["2c", "3c"], [["Ah"], ["Kh"]], ante=5)
    before = hand.to_dict()
    assert kinds(hand, 0) == ["bet", "check"]
    with pytest.raises(IllegalAction) as info:
        hand.apply(0, Action("fold"))
    assert info.value.code == "fold_without_bet"
    assert hand.to_dict() == before


def test_after_a_bet_call_raise_or_fold_and_the_street_moves_on() -> None:
    hand = scripted(["2c", "3c"], [["Ah", "5d"], ["Kh", "6d"]], ante=5)
    events = act(hand, 0, "bet", 10)
    assert events[0].kind == "bet" and events[0].data["stake"] == 10
    assert kinds(hand, 1) == ["call", "fold", "raise"]
    events = act(hand, 1, "call")
    assert [e.kind for e in events[:2]] == ["called", "dealt_up"]
    assert hand.street == 2
    assert hand.view(None)["pot"] == 30


def test_fold_ends_the_hand_without_showing_the_winners_down_card() -> None:
    hand = scripted(["2c", "3c"], [["Ah"], ["Kh"]], ante=5)
    act(hand, 0, "bet", 10)
    events = act(hand, 1, "fold")
    assert hand.finished and hand.to_act() is None
    assert won(events) == {0: 20}
    assert "showdown" not in [e.kind for e in events]
    assert hand.view(None)["stacks"] == [105, 95]
    assert hand.view(None)["result"]["hands"] == {}


def test_bad_amount_and_out_of_turn_change_nothing() -> None:
    hand = scripted(["2c", "3c"], [["Ah"], ["Kh"]], ante=5)
    before = hand.to_dict()
    for seat, action, code in [
        (1, Action("check"), "not_your_turn"),
        (0, Action("bet", 1000), "bad_amount"),
        (0, Action("bet"), "amount_required"),
        (0, Action("draw"), "action_not_allowed"),
        (7, Action("check"), "bad_seat"),
    ]:
        with pytest.raises(IllegalAction) as info:
            hand.apply(seat, action)
        assert info.value.code == code
        assert hand.to_dict() == before


def test_fixed_limit_uses_the_big_bet_from_the_third_street() -> None:
    hand = scripted(
        ["2c", "3c"],
        [["Ah", "5d", "9s", "Jc"], ["Kh", "6d", "Ts", "Qc"]],
        ante=2,
        structure="fixed",
        min_bet=4,
    )
    assert next(s for s in hand.legal_actions(0) if s.kind == "bet").min_amount == 4
    check_round(hand)
    check_round(hand)
    assert hand.street == 3
    bet = next(s for s in hand.legal_actions(hand.to_act()) if s.kind == "bet")
    assert (bet.min_amount, bet.max_amount) == (8, 8)


# --- showdowns ----------------------------------------------------------------------------------


def play_to_showdown(hand: AcikHand) -> list:
    events = []
    while not hand.finished:
        events += check_round(hand)
    return events


def test_32_card_ace_low_straight_beats_trips() -> None:
    hand = scripted(
        ["As", "Kh"], [["7h", "8d", "9c", "Ts"], ["Kd", "Kc", "Qs", "Jd"]], deck=32, ante=5
    )
    events = play_to_showdown(hand)
    show = next(e for e in events if e.kind == "showdown")
    ranks = {h["seat"]: h["category"] for h in show.data["hands"]}
    assert ranks == {0: "straight", 1: "three_of_a_kind"}
    assert won(events) == {0: 10}


def test_32_card_ace_low_straight_is_the_lowest_straight() -> None:
    hand = scripted(
        ["As", "Jh"], [["7h", "8d", "9c", "Ts"], ["7d", "8c", "9s", "Td"]], deck=32, ante=5
    )
    assert won(play_to_showdown(hand)) == {1: 10}


@pytest.mark.parametrize(("flush_beats_four", "winner"), [(True, 0), (False, 1)])
def test_flush_against_four_of_a_kind_follows_the_option(
    flush_beats_four: bool, winner: int
) -> None:
    hand = scripted(
        ["2h", "3s"],
        [["5h", "9h", "Jh", "Kh"], ["3h", "3d", "3c", "Ac"]],
        ante=5,
        flush_beats_four=flush_beats_four,
    )
    events = play_to_showdown(hand)
    show = next(e for e in events if e.kind == "showdown")
    assert {h["seat"]: h["category"] for h in show.data["hands"]} == {
        0: "flush",
        1: "four_of_a_kind",
    }
    assert won(events) == {winner: 10}
    assert hand.view(None)["result"]["hands"] == {
        "0": ["2h", "5h", "9h", "Jh", "Kh"],
        "1": ["3s", "3h", "3d", "3c", "Ac"],
    }


def test_side_pot_for_a_short_all_in() -> None:
    hand = scripted(
        ["2c", "3c", "4c"],
        [["Ah", "Ad", "5s", "6s"], ["Kh", "Kd", "7s", "8d"], ["Qh", "Qd", "9s", "Td"]],
        stacks=[20, 100, 100],
        ante=5,
        structure="no_limit",
    )
    act(hand, 0, "bet", 15)  # all in
    act(hand, 1, "raise", 50)
    act(hand, 2, "call")
    events = play_to_showdown(hand)
    # Main pot 3 x 20 to the aces; the side pot 2 x 35 to the kings.
    assert won(events) == {0: 60, 1: 70}
    assert sum(hand.view(None)["stacks"]) == 220


# --- privacy ------------------------------------------------------------------------------------


def test_each_player_sees_their_own_down_card_and_the_public_none() -> None:
    hand = scripted(["2c", "3c"], [["Ah"], ["Kh"]])
    assert hand.view(0)["hand"] == ["2c", "Ah"]
    assert hand.view(1)["hand"] == ["3c", "Kh"]
    public_view = json.dumps(hand.view(None))
    assert '"2c"' not in public_view and '"3c"' not in public_view
    assert hand.peek(1)[0].seat == 1 and hand.peek(1)[0].data == {"card": "3c"}


def test_peek_once_hides_the_down_card_after_the_deal() -> None:
    hand = scripted(["2c", "3c"], [["Ah"], ["Kh"]], peek_once=True)
    assert [e.data for e in hand.initial_events() if e.kind == "hole" and e.seat == 0] == [
        {"card": "2c"}
    ]
    view = hand.view(0)
    assert view["hand"] == ["Ah"] and view["down"] is None and view["down_hidden"]
    with pytest.raises(IllegalAction) as info:
        hand.peek(0)
    assert info.value.code == "peek_used"


def test_snapshot_round_trip_plays_on_identically() -> None:
    hand = new(["a", "b", "c"], [60, 60, 60], acik_rules(), SEED, ante=2)
    first = hand.to_act()
    act(hand, first, "bet", 4)
    copy = AcikHand.from_dict(json.loads(json.dumps(hand.to_dict())))
    for game in (hand, copy):
        while not game.finished:
            seat = game.to_act()
            spec = game.legal_actions(seat)[-1]
            game.apply(seat, Action(spec.kind, spec.min_amount if spec.kind != "call" else None))
    assert copy.to_dict() == hand.to_dict()
    assert copy.view(None) == hand.view(None)


def test_foreign_snapshot_is_refused() -> None:
    with pytest.raises(ValueError):
        AcikHand.from_dict({"game": "turkish", "version": 1})


def test_table_errors_are_also_value_errors_and_a_missing_seed_is_drawn() -> None:
    with pytest.raises(ValueError):
        new(["a"], [10], acik_rules(), SEED)
    hand = new(["a", "b"], [10, 10])
    assert len(hand.seed) == 32 and hand.view(None)["rules"]["deck"] == 52


def test_turn_events_follow_each_move_within_a_street() -> None:
    hand = scripted(["2c", "3c", "4c"], [["Ah"], ["Kh"], ["Qh"]], ante=5)
    events = act(hand, 0, "check")
    assert [e.kind for e in events] == ["checked", "turn"]
    assert events[1].data == {"seat": 1, "street": 1}
    assert events[0].data["action"] == "check" and events[0].data["seat"] == 0


def test_a_carried_pot_joins_the_main_pot() -> None:
    hand = scripted(["2c", "3c"], [["Ah"], ["Kh"]], ante=5, carried_pot=7)
    started = next(e for e in hand.initial_events() if e.kind == "hand_started")
    assert (started.data["pot"], started.data["carried_pot"]) == (17, 7)
    act(hand, 0, "bet", 10)
    events = act(hand, 1, "fold")
    assert won(events) == {0: 27}
    assert hand.view(None)["stacks"] == [112, 95] and not hand.view(None)["carried"]


def test_the_hand_follows_the_game_protocol_and_takes_rules_as_a_dict() -> None:
    hand = new(["a", "b"], [10, 10], {"deck": 32, "flush_beats_four": False}, SEED)
    assert isinstance(hand, Game)
    assert hand.view(None)["rules"] == acik_rules(32, False).to_dict()
    with pytest.raises(IllegalAction) as info:
        new(["a", "b"], [10, 10], {"deck": 40}, SEED)
    assert info.value.code == "bad_rules"


def test_down_cards_are_recomputed_from_the_seed() -> None:
    hand = new(["a", "b", "c"], [10, 10, 10], acik_rules(32), SEED, dealer=2)
    assert down_cards(acik_rules(32), SEED, 3, 2) == [str(c) for c in hand.down]
