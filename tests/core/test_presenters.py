"""The presenters are pure: an event's lines (`describe`, `own`, each game's `GameSpec.presenter`)
and the table message's lines (`table_lines` of a `PokerTable` or `TileTable` record) are
functions of data alone. The same input gives the same lines, the input is left as it was, and
no table session is needed (nor imported by the presenter modules)."""

from __future__ import annotations

import copy
import random
import subprocess
import sys
from typing import Any

import pytest

from bot.core.okey import messages as okey_messages
from bot.core.okey.tile_messages import TileTable
from bot.core.okey101 import messages as okey101_messages
from bot.core.poker import messages as poker_messages
from bot.core.registry import GAMES, game_spec
from bot.core.table import ai
from bot.core.table.session import Seat
from games import history
from games.base import Event
from games.okey101 import ai as okey101_ai

NAMES = ("Ayşe", "Bora", "Cem")


def setup_of(game: str) -> history.Setup:
    """Three players of `game`, as a hand's setup is stored."""
    rules = {"deck": 52} if game == "acik" else {}
    options = {"ante": 10, "structure": "pot_limit"} if game in ("turkish", "acik") else {}
    return history.Setup(game, ("1", "2", "3"), NAMES, (300, 300, 300), 0, rules, options)


def played(game: str, seed: int) -> tuple[Any, list[Event]]:
    """A hand or round of `game` played to its end by the computer players, and every event
    it gave (public and private)."""
    engine, events = history.deal(setup_of(game), bytes([seed]) * 32)
    rng = random.Random(seed)
    for _ in range(2000):
        if engine.finished:
            break
        seat = engine.to_act()
        if game == "okey":
            action = ai.okey_move(engine, seat)
        elif game == "okey101":
            action = okey101_ai.choose_action(engine, seat, "easy", rng)
        else:
            action = ai.poker_move(engine, seat, cautious=False)
        events += engine.apply(seat, action)
    return engine, events


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2])
def test_describe_is_a_function_of_the_event_and_the_names(game: str, seed: int) -> None:
    _, events = played(game, seed)
    say = game_spec(game).presenter
    described = 0
    for event in events:
        before = copy.deepcopy(event)
        if event.seat is None:
            first = say.describe(event, NAMES, "tr")
            assert first == say.describe(copy.deepcopy(event), list(NAMES), "tr")
            assert first == game_spec(game).presenter.describe(event, NAMES, "tr")
            described += bool(first)
        else:
            assert say.own(event) == say.own(copy.deepcopy(event))
        assert event == before  # nothing read is changed
    assert described > 1


@pytest.mark.parametrize("game", sorted(GAMES))
def test_names_come_only_from_the_names_given(game: str) -> None:
    """The same events with other names read the same but for the names."""
    _, events = played(game, 3)
    say = game_spec(game).presenter
    other = ("Xavier", "Yusuf", "Zeynep")
    for event in (e for e in events if e.seat is None):
        ours, theirs = say.describe(event, NAMES, "en"), say.describe(event, other, "en")
        swap = dict(zip(NAMES, other, strict=True))
        text = repr([m.to_dict() for m in ours])
        for mine, yours in swap.items():
            text = text.replace(mine, yours)
        assert text == repr([m.to_dict() for m in theirs])


def seats() -> list[Seat]:
    return [Seat(i + 1, f"u{i}", name, "tr") for i, name in enumerate(NAMES)]


@pytest.mark.parametrize("game", ["turkish", "acik"])
def test_poker_table_lines_are_a_function_of_the_table_record(game: str) -> None:
    engine, _ = history.deal(setup_of(game), bytes([5]) * 32)
    view = engine.view(None)
    options = {"ante": 10, "structure": "pot_limit", "min_buy_in": 100}
    table = poker_messages.PokerTable(
        game, 7, options, seats(), {}, [1, 2, 3], view, None, engine.to_act(), 0, "7-1"
    )
    kept = copy.deepcopy(table)
    lines = poker_messages.table_lines(table)
    assert lines == poker_messages.table_lines(copy.deepcopy(table))
    assert table == kept
    assert [m.key for m in lines].count("poker.seat") == 3
    assert lines[-1].key == "poker.turn" and lines[-1].params["name"] in NAMES
    idle = poker_messages.PokerTable(
        game, 7, options, seats(), {"1": 50}, [], None, None, None, 0, "7-1"
    )
    assert poker_messages.table_lines(idle)[-1].key == "poker.idle"


@pytest.mark.parametrize(
    ("game", "lines_of"),
    [("okey", okey_messages.table_lines), ("okey101", okey101_messages.table_lines)],
)
def test_tile_table_lines_are_a_function_of_the_table_record(game: str, lines_of: Any) -> None:
    engine, _ = history.deal(setup_of(game), bytes([5]) * 32)
    options = {"stake": 0, "rounds": 1, "preset": "classic", "rounds101": 1, "open": 101}
    players = seats()
    table = TileTable(
        game, 9, options, players, players, engine.view(None), engine.to_act(), [0, 0, 0], 1
    )
    kept = copy.deepcopy(table)
    lines = lines_of(table)
    assert lines == lines_of(copy.deepcopy(table))
    assert table == kept
    assert lines[-1].key == "okey.turn" and lines[-1].params["name"] == NAMES[engine.to_act()]
    waiting = TileTable(game, 9, options, players, [], None, None, [], 0)
    assert lines_of(waiting)[-1].key == "okey.waiting"


def test_the_presenters_need_no_table_session() -> None:
    """Importing every game's presenter module loads no game's session module."""
    code = (
        "import sys, bot.core.poker.messages, bot.core.poker.sng_messages\n"
        "import bot.core.okey.messages, bot.core.okey101.messages\n"
        "print(sorted(m for m in sys.modules if m.startswith('bot.core.') and "
        "m.endswith(('.session', 'sng_table', 'tile_session'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['bot.core.table.session']"
