"""The export format's versions: version 2 events carry hand category codes, no names; a version
1 file (which also named each showdown hand in English and Turkish, and gave Türk pokeri's hands
no category) is still checked, its names left out of the comparison and everything else compared."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import history
from games.base import Action
from games.poker import acik_rules, turkish_rules

PREFER = ("open", "call", "check", "draw", "pass", "bet", "raise")


def passive(engine: Any, seat: int) -> Action:
    """A move that keeps the player in the hand and the hand going: open or bet the least,
    call, check, draw nothing."""
    specs = {s.kind: s for s in engine.legal_actions(seat)}
    kind = next(k for k in PREFER if k in specs)
    if kind in ("open", "bet", "raise"):
        return Action(kind, specs[kind].min_amount)
    return Action(kind)


def setup_of(game: str) -> history.Setup:
    return history.Setup(
        game=game,
        players=("a", "b", "c"),
        names=("Ayşe", "Bora", "Cem"),
        stacks=(300, 300, 300),
        rules={} if game == "turkish" else {"deck": 52},
        options={"ante": 10},
    )


def played_to_showdown(game: str) -> tuple[history.Played, bytes]:
    """A hand of `game` played passively from the first seed whose hand reaches a showdown."""
    setup = setup_of(game)
    for n in range(50):
        seed = bytes([n]) * 32
        engine, _ = history.deal(setup, seed)
        moves = []
        while not engine.finished:
            seat = engine.to_act()
            action = passive(engine, seat)
            engine.apply(seat, action)
            moves.append((seat, action))
        played = history.play(setup, seed, moves)
        if any(e.kind == "showdown" for s in played.steps for e in s.events):
            return played, seed
    raise AssertionError("no seed reached a showdown")


def lines_of(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def text_of(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def showdown_hands(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    shown = [line for line in lines if line.get("kind") == "showdown"]
    assert len(shown) == 1
    hands: list[dict[str, Any]] = shown[0]["data"]["hands"]
    return hands


def as_version_1(lines: list[dict[str, Any]], game: str) -> list[dict[str, Any]]:
    """The same export as a version 1 file: names added to each showdown hand, and Türk
    pokeri's category code dropped."""
    old = json.loads(json.dumps(lines))
    old[0]["version"] = 1
    for hand in showdown_hands(old):
        category = hand["category"] if game == "acik" else hand.pop("category")
        hand["name"] = hand["name_tr"] = category.replace("_", " ").capitalize()
    return old


@pytest.mark.parametrize("game", ["turkish", "acik"])
def test_version_2_showdown_carries_codes_only(game: str) -> None:
    played, seed = played_to_showdown(game)
    lines = lines_of(history.export(played, seed, None, hand="1-1"))
    assert lines[0]["version"] == history.VERSION == 2
    categories = set(turkish_rules(3).categories) | set(acik_rules(52).categories)
    for hand in showdown_hands(lines):
        assert set(hand) == {"seat", "cards", "category"}
        assert hand["category"] in categories
    check = history.check(history.read(text_of(lines)))
    assert check.ok, check.problems


@pytest.mark.parametrize("game", ["turkish", "acik"])
@pytest.mark.parametrize("viewer", [None, 0])
def test_version_1_is_checked_without_its_names(game: str, viewer: int | None) -> None:
    played, seed = played_to_showdown(game)
    old = as_version_1(lines_of(history.export(played, seed, viewer)), game)
    read = history.read(text_of(old))
    assert read.version == 1
    check = history.check(read)
    assert check.ok, check.problems
    # the names are not compared: any name passes
    for hand in showdown_hands(old):
        hand["name"], hand["name_tr"] = "Royal flush", "Floş Royal"
    assert history.check(history.read(text_of(old))).ok
    # the rest is: a changed card fails
    first = showdown_hands(old)[0]
    first["cards"] = [*first["cards"][1:], first["cards"][0]]
    assert not history.check(history.read(text_of(old))).ok


@pytest.mark.parametrize("game", ["turkish", "acik"])
def test_names_are_not_skipped_in_version_2(game: str) -> None:
    played, seed = played_to_showdown(game)
    lines = lines_of(history.export(played, seed, None))
    showdown_hands(lines)[0]["name"] = "Two pair"
    assert not history.check(history.read(text_of(lines))).ok


def test_acik_version_1_category_is_still_compared() -> None:
    played, seed = played_to_showdown("acik")
    old = as_version_1(lines_of(history.export(played, seed, None)), "acik")
    showdown_hands(old)[0]["category"] = "royal_flush"
    assert not history.check(history.read(text_of(old))).ok


def test_unknown_versions_are_refused() -> None:
    played, seed = played_to_showdown("acik")
    lines = lines_of(history.export(played, seed, None))
    for version in (0, 3, "2", None):
        lines[0]["version"] = version
        with pytest.raises(history.HistoryError, match="unknown version"):
            history.read(text_of(lines))
