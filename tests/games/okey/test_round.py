"""The round engine: deal, turns, taking, discarding, showing the indicator, finishing, the end."""

from __future__ import annotations

import hashlib
import json
from collections import Counter

import pytest

from games.base import Action, Game, IllegalAction
from games.okey import OkeyMatch, OkeyRound, auto_action, full_set, new
from games.okey.round import draw_for_start

from .helpers import COMPLETE, PAIRS, PLAYERS, rigged, seed


def refused(game: OkeyRound, seat: int, action: Action, code: str) -> IllegalAction:
    before = game.to_dict()
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, action)
    assert info.value.code == code
    assert game.to_dict() == before, "a refused move changed the round"
    return info.value


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal(players: int) -> None:
    game = new(PLAYERS[:players], seed(players))
    sizes = [len(game.view(s)["hand"]) for s in range(players)]
    assert sizes[game.starter] == 15
    assert sorted(sizes) == [14] * (players - 1) + [15]
    assert game.view(None)["stock"] == 106 - 15 - 14 * (players - 1) - 1
    assert game.indicator != "F"
    assert game.tiles_accounted() == 106
    assert game.to_act() == game.starter
    kinds = [a.kind for a in game.legal_actions(game.starter)]
    assert "discard" in kinds and "take" not in kinds
    for seat in range(players):
        if seat != game.starter:
            assert game.legal_actions(seat) == []
    public_view = game.view(None)
    assert "hand" not in public_view
    assert "seed" not in public_view
    everything = Counter(t for s in range(players) for t in game.view(s)["hand"])
    everything.update(game.stock)
    everything[game.indicator] += 1
    assert everything == Counter(full_set())


def test_same_seed_same_deal_and_hash() -> None:
    a, b = new(PLAYERS, seed(7)), new(PLAYERS, seed(7))
    assert a.to_dict() == b.to_dict()
    assert a.view(None)["seed_hash"] == hashlib.sha256(seed(7)).hexdigest()
    assert new(PLAYERS, seed(8)).to_dict() != a.to_dict()


def test_starter_drew_the_highest_tile() -> None:
    order = "RYBK"
    for k in range(20):
        starter, drawn = draw_for_start(4, seed(k))
        last = [(int(d[-1][1:]), -order.index(d[-1][0])) for d in drawn]
        assert last[starter] == max(
            last[s] for s in range(4) if len(drawn[s]) == len(drawn[starter])
        )
        assert all(len(drawn[s]) >= 1 for s in range(4))


def test_new_bad_input() -> None:
    with pytest.raises(ValueError, match="2-4"):
        new(PLAYERS[:1], seed(0))
    with pytest.raises(ValueError, match="2-4"):
        new([*PLAYERS, "emre"], seed(0))
    with pytest.raises(ValueError, match="twice"):
        new(["a", "a"], seed(0))
    with pytest.raises(ValueError, match="32 bytes"):
        new(PLAYERS, b"short")
    with pytest.raises(ValueError, match="rounds"):
        new(PLAYERS, seed(0), {"rounds": 5})


def test_first_turn_and_taking_the_previous_discard() -> None:
    game = new(PLAYERS, seed(1))
    s0 = game.starter
    refused(game, s0, Action("take", source="stock"), "must_discard")
    refused(game, (s0 + 1) % 4, Action("discard", cards=("R1",)), "not_your_turn")
    tile = game.racks[s0][0]
    events = game.apply(s0, Action("discard", cards=(tile,)))
    assert events[0].public and events[0].kind == "discarded" and events[0].data["tile"] == tile
    s1 = (s0 + 1) % 4
    assert game.to_act() == s1 and game.view(s1)["sources"] == ["stock", "discard"]
    refused(game, s1, Action("discard", cards=(game.racks[s1][0],)), "must_take")
    refused(game, s1, Action("take", source="pile"), "bad_source")
    events = game.apply(s1, Action("take", source="discard"))
    assert events[0].data == {"seat": s1, "source": "discard", "tile": tile, "from_seat": s0}
    assert game.racks[s1][-1] == tile
    assert game.piles[s0] == []
    game.apply(s1, Action("discard", cards=(game.racks[s1][0],)))
    s2 = (s1 + 1) % 4
    # the pile of the player before s1 is empty now: s2 may only draw from s1's pile or the stock
    hidden = game.stock[0]
    events = game.apply(s2, Action("take", source="stock"))
    took = [e for e in events if e.public]
    assert took[0].kind == "took" and "tile" not in took[0].data
    drew = [e for e in events if e.kind == "drew"]
    assert drew[0].seat == s2 and drew[0].data["tile"] == hidden
    assert game.tiles_accounted() == 106


def test_two_players_take_from_the_opponent() -> None:
    game = new(PLAYERS[:2], seed(3))
    s0 = game.starter
    tile = game.racks[s0][-1]
    game.apply(s0, Action("discard", cards=(tile,)))
    game.apply(1 - s0, Action("take", source="discard"))
    assert tile in game.racks[1 - s0]


def test_bad_moves_are_refused_without_change() -> None:
    game = new(PLAYERS, seed(4))
    s0 = game.starter
    missing = next(t for t in sorted(set(full_set())) if t not in game.racks[s0])
    error = refused(game, s0, Action("discard", cards=(missing,)), "tile_not_in_rack")
    assert missing not in str(error)
    refused(game, s0, Action("discard", cards=("Q7",)), "bad_tile")
    refused(game, s0, Action("discard", cards=()), "one_tile")
    refused(game, s0, Action("discard", cards=("R1", "R2")), "one_tile")
    refused(game, s0, Action("bet", amount=5), "unknown_action")
    with_tile = game.racks[s0][0]
    if game.legal_actions(s0)[-1].kind != "finish":
        error = refused(game, s0, Action("finish", cards=(with_tile,)), "not_complete")
        assert not any(t in str(error).split() for t in game.racks[s0])


def test_finish_with_melds_charges_every_opponent() -> None:
    game = rigged({0: [*COMPLETE, "B9"]})
    assert "finish" in [a.kind for a in game.legal_actions(0)]
    refused(game, 0, Action("finish", cards=("R7",)), "not_complete")
    events = game.apply(0, Action("finish", cards=("B9",)))
    assert [e.kind for e in events] == ["finished", "round_over"]
    assert events[0].data["seven_pairs"] is False and events[0].data["okey_discard"] is False
    assert sorted(t for m in events[0].data["melds"] for t in m) == sorted(COMPLETE)
    assert game.finished and game.to_act() is None
    assert game.view(None)["penalties"] == [0, 20, 20, 20]
    assert game.piles[0][-1] == "B9"
    assert game.tiles_accounted() == 106
    assert "seed" in game.view(None)
    refused(game, 1, Action("take", source="stock"), "round_over")


def test_finish_with_an_okey_discard() -> None:
    game = rigged({0: [*COMPLETE, "K4"]}, players=3)
    game.apply(0, Action("finish", cards=("K4",)))
    assert game.penalties == [0, 60, 60]
    assert game.result is not None and game.result["okey_discard"]


@pytest.mark.parametrize(
    ("rack", "discard", "expected"),
    [
        ([*COMPLETE, "B9"], "B9", 2),
        ([*COMPLETE, "K4"], "K4", 4),
        ([*PAIRS, "K13"], "K13", 4),
    ],
)
def test_classic_charges(rack: list[str], discard: str, expected: int) -> None:
    game = rigged({1: rack}, players=2, turn=1, preset="classic")
    game.apply(1, Action("finish", cards=(discard,)))
    assert game.penalties == [expected, 0]


def test_seven_pairs_finish_shows_pairs() -> None:
    game = rigged({2: [*PAIRS, "K13"]}, turn=2)
    events = game.apply(2, Action("finish", cards=("K13",)))
    assert events[0].data["seven_pairs"] is True
    assert all(len(m) == 2 for m in events[0].data["melds"])
    assert game.penalties == [20, 20, 0, 20]


def test_show_indicator_before_the_first_draw() -> None:
    game = rigged({1: ["K3", *COMPLETE[:13]]}, turn=1, phase="take")
    game.started = [True, False, True, True]
    assert "show_indicator" in [a.kind for a in game.legal_actions(1)]
    events = game.apply(1, Action("show_indicator"))
    assert events[0].data["tile"] == "K3"
    assert game.penalties == [10, 0, 10, 10]
    refused(game, 1, Action("show_indicator"), "cannot_show_indicator")
    game.apply(1, Action("take", source="stock"))
    assert game.started[1]


def test_show_indicator_only_before_the_first_draw_and_when_held() -> None:
    game = rigged({1: ["K3", *COMPLETE[:13]]}, turn=1, phase="take")
    refused(game, 1, Action("show_indicator"), "cannot_show_indicator")  # already started
    game = rigged({1: COMPLETE}, turn=1, phase="take")
    game.started = [False] * 4
    refused(game, 1, Action("show_indicator"), "cannot_show_indicator")  # not held


def test_starter_may_show_before_the_first_discard() -> None:
    for k in range(200):
        game = new(PLAYERS[:2], seed(k))
        if game.indicator in game.racks[game.starter]:
            break
    else:
        pytest.fail("no seed gave the starter the indicator's twin")
    game.apply(game.starter, Action("show_indicator"))
    assert game.penalties[1 - game.starter] == 10


def test_stock_exhausted_ends_the_round_without_score() -> None:
    game = rigged({}, turn=1, phase="take", stock=0)
    assert game.view(1)["sources"] == ["stock", "discard"]
    events = game.apply(1, Action("take", source="stock"))
    assert [e.kind for e in events] == ["stock_exhausted", "round_over"]
    assert game.finished and game.penalties == [0, 0, 0, 0]
    assert game.result == {"reason": "stock_exhausted", "winner": None}


def test_empty_stock_player_may_still_take_the_discard() -> None:
    game = rigged({}, turn=1, phase="take", stock=0)
    game.apply(1, Action("take", source="discard"))
    assert not game.finished


def test_snapshot_round_trip_is_json_safe() -> None:
    game = new(PLAYERS, seed(5))
    for _ in range(9):
        seat = game.to_act()
        assert seat is not None
        game.apply(seat, auto_action(game, seat))
    data = json.loads(json.dumps(game.to_dict()))
    copy = OkeyRound.from_dict(data)
    assert copy.to_dict() == game.to_dict()
    for _ in range(6):
        seat = game.to_act()
        if seat is None:
            break
        action = auto_action(game, seat)
        assert [e.to_dict() for e in game.apply(seat, action)] == [
            e.to_dict() for e in copy.apply(seat, action)
        ]


def test_auto_players_finish_or_exhaust_with_the_right_scores() -> None:
    reasons = set()
    for k in range(4):
        game = new(PLAYERS[: 2 + k % 3], seed(100 + k))
        while not game.finished:
            seat = game.to_act()
            assert seat is not None
            game.apply(seat, auto_action(game, seat))
        assert game.tiles_accounted() == 106
        assert game.result is not None
        reasons.add(game.result["reason"])
        if game.result["reason"] == "finished":
            charge = game.result["charge"]
            assert game.penalties[game.result["winner"]] == 0
            assert sorted(game.penalties)[1:] == [charge] * (len(game.players) - 1)
    assert "finished" in reasons


def test_deal_is_pinned_for_a_published_seed() -> None:
    # A seed posted after a round must reproduce the same deal in every later release.
    game = new(PLAYERS, hashlib.sha256(b"pinned").digest())
    assert game.start_draw == [["Y2"], ["K10"], ["Y12"], ["B9"]]
    assert game.starter == 2
    assert game.indicator == "K2"
    assert game.racks[2][:5] == ["Y6", "R2", "B11", "F", "B13"]
    assert game.stock[:3] == ["R13", "K3", "R5"]


def test_rounds_and_matches_follow_the_game_protocol() -> None:
    game = new(PLAYERS[:2], seed(9))
    assert isinstance(game, Game)
    assert isinstance(OkeyMatch.new(PLAYERS[:2]), Game)
    with pytest.raises(ValueError, match="seat"):
        game.view(5)
    assert game.legal_actions(5) == []
