"""The `takeback` option: whether the tile just taken from the discard pile may go straight back.

With `takeback` False a player who took a tile from the discard pile may not discard it, nor finish
with it, that same turn, unless they hold another identical copy. Absent (old snapshots, callers
passing no options) or True, it is allowed.
"""

from __future__ import annotations

import json
import random

import pytest

from games.base import Action, IllegalAction
from games.okey import OkeyMatch, OkeyRound, auto_action, new, suggest_discard
from tests.games.okey.helpers import COMPLETE, PLAYERS, rigged, seed

# 14 tiles with nothing complete about them and no copy of the tiles taken below
LOOSE = ["R1", "R4", "R8", "R12", "Y2", "Y6", "Y10", "B1", "B5", "B9", "B13", "K2", "K7", "K11"]


def position(rack: list[str], top: str, takeback: bool | None) -> OkeyRound:
    """2 players; seat 0 holds `rack` (14 tiles) and may take `top` from seat 1's discard pile."""
    game = rigged({0: rack}, players=2, turn=0, phase="take")
    data = game.to_dict()
    if top in data["stock"]:
        data["stock"].remove(top)
    else:  # seat 1 was dealt it: give them a stock tile instead
        data["racks"][1][data["racks"][1].index(top)] = data["stock"].pop()
    data["piles"][1].append(top)
    if takeback is not None:
        data["options"]["takeback"] = takeback
    return OkeyRound.from_dict(data)


def refused(game: OkeyRound, seat: int, action: Action, code: str) -> IllegalAction:
    """`action` is refused with `code` and the round is exactly as before."""
    before = game.to_dict()
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, action)
    assert info.value.code == code
    assert game.to_dict() == before
    return info.value


def test_taken_tile_cannot_go_straight_back_when_takeback_is_off() -> None:
    game = position(LOOSE, "R5", takeback=False)
    game.apply(0, Action("take", source="discard"))
    assert game.forbidden_discard(0) == "R5"
    assert game.view(0)["forbidden_discard"] == "R5"
    error = refused(game, 0, Action("discard", cards=("R5",)), "takeback")
    assert error.params == {"tile": "R5"}  # the tile everyone saw taken, nothing more
    assert "R5" in str(error)
    refused(game, 0, Action("discard", cards=("r5",)), "takeback")  # typed any way
    events = game.apply(0, Action("discard", cards=("K7",)))
    assert events[0].data == {"seat": 0, "tile": "K7"}
    assert game.taken is None and game.forbidden_discard(0) is None


@pytest.mark.parametrize("takeback", [True, None])
def test_taken_tile_may_go_straight_back_when_allowed_or_unset(takeback: bool | None) -> None:
    game = position(LOOSE, "R5", takeback=takeback)
    game.apply(0, Action("take", source="discard"))
    assert game.forbidden_discard(0) is None
    events = game.apply(0, Action("discard", cards=("R5",)))
    assert events[0].data == {"seat": 0, "tile": "R5"}
    assert game.piles[0] == ["R5"]


def test_a_round_dealt_without_options_allows_it() -> None:
    game = new(PLAYERS[:2], seed(3))
    assert game.options["takeback"] is True
    match = OkeyMatch.new(PLAYERS[:2])
    assert match.options["takeback"] is True
    off = OkeyMatch.new(PLAYERS[:2], {"takeback": False})
    off.start_round(seed(4))
    assert off.round is not None and off.round.options["takeback"] is False


def test_an_identical_copy_may_be_discarded() -> None:
    rack = [*LOOSE[:13], "R5"]
    game = position(rack, "R5", takeback=False)
    game.apply(0, Action("take", source="discard"))
    assert game.racks[0].count("R5") == 2
    assert game.forbidden_discard(0) is None
    game.apply(0, Action("discard", cards=("R5",)))
    assert game.racks[0].count("R5") == 1 and game.piles[0] == ["R5"]


def test_finishing_with_the_taken_tile_is_refused() -> None:
    game = position(COMPLETE, "B9", takeback=False)
    game.apply(0, Action("take", source="discard"))
    # B9 is the only winning discard, and it may not go back: no finish offered
    assert [s.kind for s in game.legal_actions(0)] == ["discard"]
    refused(game, 0, Action("finish", cards=("B9",)), "takeback")
    allowed = position(COMPLETE, "B9", takeback=True)
    allowed.apply(0, Action("take", source="discard"))
    assert "finish" in [s.kind for s in allowed.legal_actions(0)]
    allowed.apply(0, Action("finish", cards=("B9",)))
    assert allowed.result is not None and allowed.result["winner"] == 0


def test_finishing_with_an_identical_copy_is_allowed() -> None:
    game = position(COMPLETE, "R7", takeback=False)  # COMPLETE holds an R7 already
    game.apply(0, Action("take", source="discard"))
    assert "finish" in [s.kind for s in game.legal_actions(0)]
    game.apply(0, Action("finish", cards=("R7",)))
    assert game.result is not None and game.result["discard"] == "R7"


def test_the_taken_tile_may_be_discarded_on_a_later_turn() -> None:
    game = position(LOOSE, "R5", takeback=False)
    game.apply(0, Action("take", source="discard"))
    game.apply(0, Action("discard", cards=("K7",)))
    game.apply(1, Action("take", source="stock"))
    game.apply(1, Action("discard", cards=(game.racks[1][0],)))
    game.apply(0, Action("take", source="stock"))
    assert game.forbidden_discard(0) is None
    game.apply(0, Action("discard", cards=("R5",)))
    assert game.piles[0][-1] == "R5"


def test_a_stock_draw_forbids_nothing() -> None:
    game = position(LOOSE, "R5", takeback=False)
    game.apply(0, Action("take", source="stock"))
    drawn = game.racks[0][-1]
    assert game.taken is None and game.forbidden_discard(0) is None
    game.apply(0, Action("discard", cards=(drawn,)))


def test_the_memory_survives_a_snapshot() -> None:
    game = position(LOOSE, "R5", takeback=False)
    game.apply(0, Action("take", source="discard"))
    data = json.loads(json.dumps(game.to_dict()))
    assert data["taken"] == "R5"
    again = OkeyRound.from_dict(data)
    assert again.to_dict() == game.to_dict()
    refused(again, 0, Action("discard", cards=("R5",)), "takeback")
    match = OkeyMatch.new(PLAYERS[:2], {"takeback": False})
    match.round = game
    loaded = OkeyMatch.from_dict(json.loads(json.dumps(match.to_dict())))
    assert loaded.round is not None and loaded.round.forbidden_discard(0) == "R5"


def test_old_snapshots_without_the_key_load_and_allow_it() -> None:
    game = position(LOOSE, "R5", takeback=None)
    data = game.to_dict()
    del data["taken"]
    assert "takeback" not in data["options"]
    old = OkeyRound.from_dict(data)
    assert old.taken is None
    old.apply(0, Action("take", source="discard"))
    old.apply(0, Action("discard", cards=("R5",)))
    match_data = OkeyMatch.new(PLAYERS[:2]).to_dict()
    match_data["options"] = {"rounds": 1, "preset": "penalty"}
    match_data["round"] = data
    match = OkeyMatch.from_dict(match_data)
    match.apply(0, Action("take", source="discard"))
    match.apply(0, Action("discard", cards=("R5",)))


def test_only_the_seat_to_discard_is_bound() -> None:
    game = position(LOOSE, "R5", takeback=False)
    game.apply(0, Action("take", source="discard"))
    assert game.forbidden_discard(1) is None
    assert game.view(1)["forbidden_discard"] is None
    assert "forbidden_discard" not in game.view(None)


def test_suggest_discard_avoids_the_tile() -> None:
    rack = [*COMPLETE, "B9"]
    assert suggest_discard(rack, "K3") == "B9"
    other = suggest_discard(rack, "K3", avoid="b9")
    assert other != "B9" and other in rack


def test_the_computer_never_throws_the_taken_tile_back() -> None:
    """Seeded rounds where players often take the previous discard and then time out: the
    computer's move for them never breaks the rule, and it would have wanted to sometimes."""
    rng = random.Random(16)
    tempted = forbidden_turns = 0
    for k in range(16):
        players = 2 + k % 3
        game = new(PLAYERS[:players], seed(1000 + k), {"takeback": False})
        while not game.finished:
            seat = game.to_act()
            assert seat is not None
            if "discard" in game.sources(seat) and rng.random() < 0.6:
                action = Action("take", source="discard")
            else:
                action = auto_action(game, seat)
            if action.kind in ("discard", "finish"):
                forbidden = game.forbidden_discard(seat)
                if forbidden is not None:
                    forbidden_turns += 1
                    assert action.cards[0] != forbidden
                    if suggest_discard(game.racks[seat], game.indicator) == forbidden:
                        tempted += 1
            game.apply(seat, action)  # never refused
    assert forbidden_turns > 50
    assert tempted > 0
