"""An Okey match: rounds, totals per preset, the end of the match and its payout."""

from __future__ import annotations

import hashlib

import pytest

from games.base import Action, IllegalAction
from games.okey import OkeyMatch

from .helpers import COMPLETE, rigged


def seed(k: int) -> bytes:
    return hashlib.sha256(f"match-{k}".encode()).digest()


def _with_round(match: OkeyMatch, finisher: int, discard: str, rack: list[str]) -> None:
    """Put a rigged round in which `finisher` can finish into the match."""
    game = rigged({finisher: rack}, players=len(match.players), turn=finisher, preset=match.preset)
    game.players = list(match.players)
    game.options = dict(match.options)
    match.round = game
    match.apply(finisher, Action("finish", cards=(discard,)))


def test_penalty_match_of_three_rounds() -> None:
    match = OkeyMatch.new(["a", "b", "c"], {"rounds": 3})
    assert match.needs_round and not match.finished
    with pytest.raises(IllegalAction):
        match.apply(0, Action("take", source="stock"))
    events = match.start_round(seed(1))
    assert events[0].kind == "match_round" and events[1].kind == "round_started"
    with pytest.raises(ValueError):
        match.start_round(seed(2))  # a round is being played
    _with_round(match, 0, "B9", [*COMPLETE, "B9"])
    assert match.totals == [0, 20, 20]
    _with_round(match, 1, "K4", [*COMPLETE, "K4"])
    assert match.totals == [60, 20, 80]
    assert not match.finished and match.needs_round
    _with_round(match, 0, "B9", [*COMPLETE, "B9"])
    assert match.totals == [60, 40, 100]
    assert match.finished and match.winners() == [1]
    # 3 rounds: opponents under 80 share 25%; seat 2 has 100
    assert match.payout(300) == [75, 225, 0]
    assert match.view(None)["match_over"] is True
    with pytest.raises(ValueError):
        match.start_round(seed(3))


def test_one_round_match_payout_threshold_40() -> None:
    match = OkeyMatch.new(["a", "b"], {"rounds": 1})
    match.start_round(seed(4))
    _with_round(match, 1, "B9", [*COMPLETE, "B9"])
    assert match.finished and match.totals == [20, 0]
    assert match.payout(200) == [50, 150]


def test_payout_before_the_end_is_refused() -> None:
    match = OkeyMatch.new(["a", "b"])
    with pytest.raises(ValueError, match="not over"):
        match.payout(100)


def test_classic_plays_until_someone_reaches_zero() -> None:
    match = OkeyMatch.new(["a", "b", "c"], {"preset": "classic"})
    assert match.totals == [20, 20, 20]
    match.charged = [0, 16, 14]
    match.start_round(seed(5))
    _with_round(match, 0, "B9", [*COMPLETE, "B9"])
    assert match.totals == [20, 2, 4] and not match.finished
    match.start_round(seed(6))
    _with_round(match, 0, "K4", [*COMPLETE, "K4"])
    assert match.totals == [20, 0, 0]  # never below 0
    assert match.finished and match.winners() == [0]
    assert match.payout(150) == [150, 0, 0]


def test_view_carries_totals_and_no_rack() -> None:
    match = OkeyMatch.new(["a", "b"], {"rounds": 1})
    view = match.view(None)
    assert view["totals"] == [0, 0] and view["penalties"] == [0, 0]
    match.start_round(seed(7))
    assert "hand" not in match.view(None)
    assert len(match.view(0)["hand"]) in (14, 15)
