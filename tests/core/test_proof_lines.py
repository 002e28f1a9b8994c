"""`/verify`'s proven cards and tiles read as each game writes them: the registry says which
games are played with tiles (`GameSpec.tiles`), not a test of the game's name."""

from __future__ import annotations

from bot.core.players.proofs import opened_cards
from games.commitment import Opening


def opening(position: int, card: str) -> Opening:
    return Opening(position, card, b"\0" * 16, ())


def test_tiles_of_both_okey_games_are_shown_as_they_are():
    for game in ("okey", "okey101"):
        assert opened_cards(game, [opening(3, "R5"), opening(17, "F")]) == "#3 R5 · #17 F"


def test_poker_cards_are_shown_with_their_suits():
    shown = opened_cards("turkish", [opening(3, "Ah")])
    assert shown.startswith("#3 ") and shown != "#3 Ah"
