"""Scripted Türk pokeri hands: every rule of the issue, played through the engine protocol."""

from __future__ import annotations

import json

import pytest

from games.base import Action, Event, IllegalAction, shuffled
from games.poker import Card, turkish_rules
from games.poker.turkish import TurkishHand, new, qualifies_to_open

SEED = bytes(range(32))
NAMES = ["ali", "banu", "cem", "deniz", "ece"]


def rigged(
    hands: list[str],
    stock: str = "",
    stacks: list[int] | None = None,
    dealer: int = 0,
    **options,
) -> TurkishHand:
    """A hand dealt with chosen cards: `hands` per seat, `stock` the next cards, top first."""
    n = len(hands)
    game = new(NAMES[:n], stacks or [100] * n, seed=SEED, dealer=dealer, **options)
    data = game.to_dict()
    held = [h.split() for h in hands]
    top = stock.split()
    used = {c for h in held for c in h} | set(top)
    rest = [str(c) for c in turkish_rules(n).deck if str(c) not in used]
    data["hands"] = held
    data["stock"] = list(reversed(top + rest))
    rules = turkish_rules(n)
    data["openers"] = [qualifies_to_open([Card.parse(c) for c in h], rules) for h in held]
    return TurkishHand.from_dict(json.loads(json.dumps(data)))


def act(game: TurkishHand, kind: str, amount: int | None = None, cards: str = "") -> list[Event]:
    seat = game.to_act()
    assert seat is not None
    return game.apply(seat, Action(kind, amount, tuple(cards.split())))


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def total_chips(game: TurkishHand) -> int:
    view = game.view(None)
    return sum(view["stacks"]) + view["pot"]


def assert_refused(game: TurkishHand, seat: int, action: Action, code: str) -> None:
    before = json.dumps(game.to_dict())
    with pytest.raises(IllegalAction) as err:
        game.apply(seat, action)
    assert err.value.code == code
    assert str(err.value)
    assert json.dumps(game.to_dict()) == before


# Three players, dealer 0: seat 1 speaks and draws first. Deck 8..A (28 cards).
NO_OPENERS = ["Qh Qs 9d 8c Jd", "Ah Kd Js Tc 9c", "Ts 9s 8h Qc Ac"]


def test_deal_one_card_at_a_time_from_dealers_left() -> None:
    game = new(NAMES[:3], [50, 50, 50], seed=SEED, dealer=2)
    expected = [str(c) for c in shuffled(turkish_rules(3).deck, SEED, "deal")]
    hands = [game.view(s)["hand"] for s in range(3)]
    # Seat 0 is on the dealer's left: it gets cards 0, 3, 6, ...; seat 1 gets 1, 4, 7, ...
    assert hands == [expected[0:15:3], expected[1:15:3], expected[2:15:3]]
    assert game.to_dict()["stock"][::-1] == expected[15:]
    assert game.view(None)["stacks"] == [49, 49, 49] and game.view(None)["pot"] == 3
    assert game.to_act() == 0
    events = game.initial_events()
    assert [e.kind for e in events if e.public] == ["hand_started", "dealt", "turn"]
    assert {e.seat: e.data["cards"] for e in events if not e.public} == dict(enumerate(hands))


def test_no_opener_carries_pot_to_next_hand() -> None:
    game = rigged(NO_OPENERS, ante=5)
    for seat in (1, 2, 0):
        assert [s.kind for s in game.legal_actions(seat)] == ["pass"]
        events = game.apply(seat, Action("pass"))
    assert "carried" in kinds(events)
    view = game.view(None)
    assert game.finished and view["carried"] and view["pot"] == 15
    assert view["stacks"] == [95, 95, 95]
    assert game.to_act() is None and game.legal_actions(0) == []
    nxt = new(NAMES[:3], view["stacks"], seed=SEED, dealer=1, ante=5, carried_pot=view["pot"])
    assert nxt.view(None)["pot"] == 30 and nxt.view(None)["stacks"] == [90, 90, 90]
    assert nxt.to_act() == 2
    # Pot limit: the opening bet is the ante pot, carried chips included.
    assert total_chips(nxt) == 300


def test_carried_pot_goes_to_the_main_pot_an_all_in_player_wins() -> None:
    # 30 carried chips; the short stack (25) is all in against two players who bet on: the carried
    # chips belong to the main pot, which the short stack's four aces win.
    game = rigged(
        ["Ah As Ad Ac Kh", "Kc Ks Qh Qd Tc", "Qs Qc Jh Jd Td"],
        stacks=[25, 200, 200],
        ante=5,
        carried_pot=30,
    )
    act(game, "open", 45)
    act(game, "call")
    act(game, "call")  # seat 0 all in for its last 20
    for _ in range(3):
        act(game, "draw")
    act(game, "bet", 5)
    events = act(game, "call")
    won = [(e.data["pot"], e.data["seat"], e.data["amount"]) for e in events if e.kind == "won"]
    assert won == [(0, 0, 25 * 3 + 30), (1, 1, 2 * (45 + 5 - 20))]
    assert game.view(None)["stacks"] == [105, 205, 145]
    assert total_chips(game) == 25 + 200 + 200 + 30


def test_open_needs_kings_or_better_and_passing_with_openers_is_allowed() -> None:
    game = rigged(["Kh Ks 9d 8c Jd", "Ah Qd Js Tc 9c", "Ts 9s 8h Qc Ac"], ante=2)
    assert [s.kind for s in game.legal_actions(1)] == ["pass"]
    assert_refused(game, 1, Action("open", 6), "no_openers")
    assert_refused(game, 1, Action("fold"), "fold_without_bet")
    assert_refused(game, 1, Action("check"), "action_not_allowed")
    assert_refused(game, 0, Action("pass"), "not_your_turn")
    act(game, "pass")
    act(game, "pass")
    specs = game.legal_actions(0)
    assert [(s.kind, s.min_amount, s.max_amount) for s in specs] == [
        ("pass", None, None),
        ("open", 6, 6),
    ]
    assert_refused(game, 0, Action("open", 7), "bad_amount")
    act(game, "pass")  # passing holding kings is allowed
    assert game.view(None)["carried"]


def test_opener_folds_and_legal_opening_is_announced() -> None:
    game = rigged(["Kh Ks 9d 8c Jd", "Ah Qd Js Tc 9c", "Ts 9s 8h Qc Ac"], ante=2)
    act(game, "pass")
    act(game, "pass")
    events = act(game, "open", 6)
    assert kinds(events)[0] == "opened" and game.view(None)["opener"] == 0
    events = act(game, "raise", 12)  # seat 1 raises without openers
    assert events[0].data["action"] == "raise"
    act(game, "fold")  # seat 2
    events = act(game, "fold")  # seat 0, the opener
    assert "opening_was_legal" in kinds(events)
    legal = next(e for e in events if e.kind == "opening_was_legal")
    assert legal.public and legal.data == {"seat": 0}
    won = next(e for e in events if e.kind == "won")
    assert won.data["seat"] == 1 and won.data["amount"] == 6 + 6 + 12
    view = game.view(None)
    assert game.finished and view["shown"] == {} and view["pot"] == 0
    assert view["stacks"] == [92, 110, 98]


def test_opener_wins_uncontested_without_showing() -> None:
    game = rigged(["Kh Ks 9d 8c Jd", "Ah Qd Js Tc 9c", "Ts 9s 8h Qc Ac"], ante=2)
    act(game, "pass")
    act(game, "pass")
    act(game, "open", 6)
    act(game, "fold")
    events = act(game, "fold")
    assert kinds(events) == ["bet", "opening_was_legal", "won", "hand_over"]
    assert "showdown" not in kinds(events)
    assert game.view(None)["shown"] == {}
    assert game.view(None)["stacks"] == [104, 98, 98]


def test_opener_folded_second_round_starts_with_next_live_player() -> None:
    game = rigged(
        ["Ts 9s 8h Qc Ac", "Kh Ks 9d 8c Jd", "Ah Qd Js Tc 9c", "7h 7s Ad Kc 8s"],
        stock="Qh Qs Jh Jd",
        ante=1,
    )
    # Dealer 0: seat 1 opens; seat 2 and 3 call, seat 0 folds, the opener folds to a raise.
    act(game, "open", 4)
    act(game, "call")
    act(game, "raise", 12)
    act(game, "fold")
    events = act(game, "fold")  # the opener folds
    assert "opening_was_legal" in kinds(events)
    act(game, "call")  # seat 2
    assert game.view(None)["phase"] == "draw"
    act(game, "draw")  # seat 2 stands pat
    act(game, "draw")  # seat 3
    assert game.view(None)["phase"] == "bet2"
    # The opener (seat 1) folded: the next live player clockwise (seat 2) starts.
    assert game.to_act() == 2
    assert [s.kind for s in game.legal_actions(2)] == ["check", "bet"]


def test_draw_order_and_four_card_draw_gets_fourth_card_last() -> None:
    game = rigged(
        ["Ts 9s 8h Qc Ac", "Kh Ks 9d 8c Jd", "Ah Qd Js Th 9c"],
        stock="Qh Qs Jh Jd 8s 8d Td",
        ante=1,
    )
    act(game, "open", 3)  # seat 1
    act(game, "call")  # seat 2
    act(game, "call")  # seat 0
    assert game.view(None)["phase"] == "draw" and game.to_act() == 1
    assert game.legal_actions(1)[0].max_cards == 4
    events = act(game, "draw", cards="9d 8c Jd")  # opener keeps KK: no split
    assert "openers_split" not in kinds(events)
    assert game.view(1)["hand"] == ["Kh", "Ks", "Qh", "Qs", "Jh"]
    events = act(game, "draw", cards="Qd Js Th 9c")  # seat 2 draws four: three now
    drew = next(e for e in events if e.kind == "drew")
    assert drew.data == {"seat": 2, "count": 4, "pending": 1}
    private = next(e for e in events if e.kind == "drew_cards")
    assert private.seat == 2 and private.data["received"] == ["Jd", "8s", "8d"]
    assert game.view(None)["cards"] == [5, 5, 4]
    events = act(game, "draw", cards="Ts")  # seat 0 draws one, served before the fourth card
    assert kinds(events)[:3] == ["drew", "drew_cards", "fourth_card"]
    assert game.view(0)["hand"] == ["9s", "8h", "Qc", "Ac", "Td"]
    assert game.view(2)["hand"][-1] not in ("Td",) and len(game.view(2)["hand"]) == 5
    assert game.view(None)["drew"] == [1, 3, 4]
    assert game.view(None)["phase"] == "bet2" and game.to_act() == 1


def test_splitting_openers_is_announced_and_discards_kept_aside() -> None:
    game = rigged(
        ["Ts 9s 8h Qc Ac", "Kh Ks 9d 8c Jd", "Ah Qd Js Th 9c"],
        stock="Qh Qs Jh",
        ante=1,
    )
    act(game, "open", 3)
    act(game, "call")
    act(game, "call")
    events = act(game, "draw", cards="Ks 9d 8c")  # keeps one king only: splitting openers
    split = next(e for e in events if e.kind == "openers_split")
    assert split.public and split.data == {"seat": 1}
    assert game.view(None)["openers_split"] is True
    assert game.to_dict()["set_aside"] == ["Ks", "9d", "8c"]


def test_reshuffle_of_discards_when_the_stock_runs_out() -> None:
    # Five players, 36 cards: 25 dealt, 11 in the stock. Everyone draws four.
    hands = [
        "Ah Kh Qh Js 6c",
        "As Ks Qs Jh 6d",
        "Ad Kd Qd Jc 6h",
        "Ac Kc Qc Jd 6s",
        "Th Ts Td 9h 9s",
    ]
    game = rigged(hands, ante=1)
    # Dealer 0: seat 1 speaks first; only seat 4 (full house) has openers.
    act(game, "pass")
    act(game, "pass")
    act(game, "pass")
    act(game, "open", 5)
    act(game, "call")  # seat 0
    act(game, "call")  # seat 1
    act(game, "call")  # seat 2
    act(game, "call")  # seat 3
    assert game.view(None)["phase"] == "draw"
    events: list[Event] = []
    events += act(game, "draw", cards="As Ks Qs Jh")  # seat 1: stock 11 -> 8
    events += act(game, "draw", cards="Ad Kd Qd Jc")  # seat 2: 8 -> 5
    events += act(game, "draw", cards="Ac Kc Qc Jd")  # seat 3: 5 -> 2
    events += act(game, "draw", cards="Th Ts Td 9h")  # seat 4 splits openers: 2 left, reshuffle
    assert "reshuffled" in kinds(events) and "openers_split" in kinds(events)
    events += act(game, "draw", cards="Ah Kh Qh Js")  # seat 0
    assert kinds(events).count("fourth_card") == 5
    data = game.to_dict()
    aside = set(data["set_aside"])
    assert aside == {"Th", "Ts", "Td", "9h"}
    # Every card is in exactly one place; the split openers were never reused.
    places = [c for h in data["hands"] for c in h] + data["stock"] + data["pile"]
    assert len(places) + len(aside) == 36
    assert len(set(places)) == len(places) and not aside & set(places)


def test_side_pots_with_two_all_ins() -> None:
    # Dealer 3, seat 0 speaks first. Hands: seat 0 best, then 1, then 2, then 3.
    hands = ["Ah Kh Qh Jh 7h", "Ac Ad As 9c 9d", "Kc Kd Ks 8c 8d", "Qc Qd 7c 7d Jc"]
    game = rigged(hands, stacks=[21, 61, 201, 201], dealer=3, ante=1, structure="no_limit")
    assert game.to_act() == 0
    act(game, "open", 20)  # seat 0 all-in
    act(game, "raise", 60)  # seat 1 all-in
    act(game, "raise", 150)  # seat 2
    act(game, "call")  # seat 3
    assert game.view(None)["all_in"] == [True, True, False, False]
    pots = game.view(None)["pots"]
    assert pots == [
        {"amount": 4 + 80, "eligible": [0, 1, 2, 3]},
        {"amount": 120, "eligible": [1, 2, 3]},
        {"amount": 180, "eligible": [2, 3]},
    ]
    for _ in range(4):
        act(game, "draw")
    assert game.to_act() == 2  # the next player after the all-in opener
    act(game, "bet", 10)
    events = act(game, "call")
    won = [(e.data["pot"], e.data["seat"], e.data["amount"]) for e in events if e.kind == "won"]
    assert won == [(0, 0, 84), (1, 1, 120), (2, 2, 200)]
    show = next(e for e in events if e.kind == "showdown")
    assert {h["seat"] for h in show.data["hands"]} == {0, 1, 2, 3}
    view = game.view(None)
    assert view["stacks"] == [84, 120, 240, 40] and view["pot"] == 0
    assert sum(view["stacks"]) == 21 + 61 + 201 + 201


def test_uncalled_bet_is_returned_and_all_in_player_goes_to_showdown() -> None:
    game = rigged(
        ["Kh Ks Qh 9s Jd", "Ah Ad Js Tc 9c"], stacks=[50, 10], ante=1, structure="no_limit"
    )
    act(game, "pass")  # seat 1 may pass holding aces
    act(game, "open", 30)  # seat 0
    act(game, "call")  # seat 1, all-in for 9
    act(game, "draw")
    events = act(game, "draw")
    # Nobody can bet in the second round: straight to the showdown.
    assert kinds(events)[-5:] == ["round_started", "showdown", "won", "returned", "hand_over"]
    won = next(e for e in events if e.kind == "won")
    returned = next(e for e in events if e.kind == "returned")
    assert (won.data["seat"], won.data["amount"]) == (1, 20)
    assert (returned.data["seat"], returned.data["amount"]) == (0, 21)
    assert game.finished and game.view(None)["stacks"] == [40, 20]


def test_fixed_limit_raise_cap() -> None:
    game = rigged(["Ts 9s 8h Qc Ac", "Kh Ks 9d 8c Jd", "Ah Qd Js Th 9c"], ante=1, structure="fixed")
    assert [(s.kind, s.min_amount) for s in game.legal_actions(1)] == [("pass", None), ("open", 2)]
    act(game, "open", 2)
    act(game, "raise", 4)
    act(game, "raise", 6)
    act(game, "raise", 8)
    # Three raises made: seat 2 may only call or fold.
    assert [s.kind for s in game.legal_actions(2)] == ["fold", "call"]
    assert_refused(game, 2, Action("raise", 10), "action_not_allowed")
    act(game, "call")
    act(game, "call")
    assert game.view(None)["phase"] == "draw"
    for _ in range(3):
        act(game, "draw")
    # The big bet after the draw.
    assert [(s.kind, s.min_amount, s.max_amount) for s in game.legal_actions(1)] == [
        ("check", None, None),
        ("bet", 4, 4),
    ]


def test_draw_refusals_leave_state_untouched() -> None:
    game = rigged(["Ts 9s 8h Qc Ac", "Kh Ks 9d 8c Jd", "Ah Qd Js Th 9c"], ante=1)
    act(game, "open", 3)
    act(game, "call")
    act(game, "call")
    seat = game.to_act()
    assert seat == 1
    assert_refused(game, 1, Action("draw", cards=("Ah",)), "card_not_in_hand")
    assert_refused(game, 1, Action("draw", cards=("Zz",)), "bad_card")
    assert_refused(game, 1, Action("draw", cards=("9d", "9d")), "duplicate_card")
    assert_refused(
        game, 1, Action("draw", cards=tuple(["Kh", "Ks", "9d", "8c", "Jd"])), "too_many_cards"
    )
    assert_refused(game, 1, Action("check"), "action_not_allowed")
    assert_refused(game, 0, Action("draw"), "not_your_turn")
    act(game, "draw", cards="9d")
    assert game.view(None)["drew"][1] == 1


def test_public_view_hides_cards_and_private_view_shows_hand() -> None:
    game = rigged(["Ts 9s 8h Qc Ac", "Kh Ks 9d 8c Jd", "Ah Qd Js Th 9c"], ante=1)
    text = json.dumps(game.view(None))
    for card in [
        "Ts",
        "9s",
        "8h",
        "Qc",
        "Ac",
        "Kh",
        "Ks",
        "9d",
        "8c",
        "Jd",
        "Ah",
        "Qd",
        "Js",
        "Th",
        "9c",
    ]:
        assert f'"{card}"' not in text
    assert game.view(1)["hand"] == ["Kh", "Ks", "9d", "8c", "Jd"]
    assert game.view(1)["has_openers"] is True


def test_bad_setups_rejected() -> None:
    with pytest.raises(ValueError):
        new(NAMES[:1], [10], seed=SEED)
    with pytest.raises(ValueError):
        new(NAMES[:3], [10, 0, 10], seed=SEED)
    with pytest.raises(ValueError):
        new(NAMES[:3], [10, 10, 10], seed=SEED, structure="spread")


def test_everyone_all_in_on_the_antes_plays_straight_to_showdown() -> None:
    game = rigged(["Kh Ks Qh 9s Jd", "Ah Ad Js Tc 9c"], stacks=[1, 1], ante=1)
    assert game.view(None)["phase"] == "draw" and game.to_act() == 1
    act(game, "draw", cards="Js")
    events = act(game, "draw")
    assert "showdown" in kinds(events)
    assert game.finished and game.view(None)["stacks"] == [0, 2]


def test_all_in_ante_player_cannot_open_but_others_still_speak() -> None:
    game = rigged(
        ["Ah Ad Js Tc 9c", "Kh Ks Qh 9s Jd", "Ts 9s 8h Qc Ac"], stacks=[1, 50, 50], ante=1
    )
    # Seat 0 is all-in on the ante: seats 1 and 2 speak, seat 0 never does.
    assert game.to_act() == 1
    act(game, "open", 3)
    act(game, "call")
    assert game.view(None)["phase"] == "draw"
    assert game.view(None)["all_in"] == [True, False, False]


def test_amount_must_be_an_integer() -> None:
    game = rigged(["Ts 9s 8h Qc Ac", "Kh Ks 9d 8c Jd", "Ah Qd Js Th 9c"], ante=1)
    assert_refused(game, 1, Action("open"), "amount_required")
    assert_refused(game, 1, Action("open", True), "amount_required")
    assert_refused(game, 1, Action("pass", cards=("Kh",)), "unexpected_cards")


def test_snapshot_mid_hand_plays_on_identically() -> None:
    game = rigged(["Ts 9s 8h Qc Ac", "Kh Ks 9d 8c Jd", "Ah Qd Js Th 9c"], ante=1)
    act(game, "open", 3)
    act(game, "call")
    act(game, "call")
    act(game, "draw", cards="9d 8c Jd")
    copy = TurkishHand.from_dict(json.loads(json.dumps(game.to_dict())))
    assert copy.view(2) == game.view(2)
    a = copy.apply(2, Action("draw", cards=("Qd", "Js", "Th", "9c")))
    b = game.apply(2, Action("draw", cards=("Qd", "Js", "Th", "9c")))
    assert a == b and copy.to_dict() == game.to_dict()


def test_follows_the_game_protocol_and_accepts_rule_options() -> None:
    from games.base import Game

    game = new(NAMES[:4], [30] * 4, rules={"two_pair_heart_beats_kicker": True}, seed=SEED)
    assert isinstance(game, Game)
    assert game.rules == turkish_rules(4, two_pair_heart_beats_kicker=True)
    assert len(game.rules.deck) == 32
    assert TurkishHand.from_dict(game.to_dict()).rules == game.rules


def test_public_buttons_do_not_tell_who_holds_openers() -> None:
    game = rigged(["Ts 9s 8h Qc Ac", "Ah Qd Js Th 9c", "Kh Ks 9d 8c Jd"], ante=1)
    # Seat 1 has no openers: its private list has no "open", the public one does, as for seat 2.
    assert [s.kind for s in game.legal_actions(1)] == ["pass"]
    public_specs = game.public_legal_actions(1)
    assert [(s.kind, s.min_amount, s.max_amount) for s in public_specs] == [
        ("pass", None, None),
        ("open", 3, 3),
    ]
    assert game.public_legal_actions(0) == []
    assert_refused(game, 1, Action("open", 3), "no_openers")
    act(game, "pass")
    assert game.public_legal_actions(2) == game.legal_actions(2)
    act(game, "open", 3)
    # After the open everything is public: both lists agree.
    assert game.public_legal_actions(0) == game.legal_actions(0)
