"""What the action log keeps of a dealt poker hand: its setup, from which `games.history`
replays and `/verify` re-deals it (docs/history.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def deal_setup(
    game: str,
    players: Sequence[int],
    names: Sequence[str],
    stacks: Sequence[int],
    dealer: int,
    rules: Mapping[str, Any],
    options: Mapping[str, Any],
    carried: int,
) -> dict[str, Any]:
    """The setup of a hand: the game, its players (ids and names) with their stacks, the
    dealer's engine seat, the engine's rules (`rules["rules"]`) and the hand's options (ante,
    structure, the carried pot and the house's hand arguments `rules["hand"]`)."""
    return {
        "game": game,
        "players": [str(pid) for pid in players],
        "names": list(names),
        "stacks": list(stacks),
        "dealer": dealer,
        "rules": rules["rules"],
        "options": {
            "ante": options["ante"],
            "structure": options["structure"],
            "carried_pot": carried,
            **rules["hand"],
        },
    }
