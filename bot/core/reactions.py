"""The fixed set of reactions a player may send at their table (issue 37): quick lines and
emoji, a typed value (`Reaction`), never free text.

A reaction's words are the catalogue's `reaction.<value>` (TR/EN); the emoji read the same in
both. Chat buttons carry a reaction as `r.<value>` (`bot.core.codec`), the web page as
`{"kind": "react", "reaction": "<value>"}` (`bot.core.moves.move_of_json`).
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["REACTIONS", "Reaction", "reaction_of"]


class Reaction(StrEnum):
    """One reaction of the fixed set; its value is what buttons and frames carry."""

    GOOD_GAME = "gg"  # "İyi oyun" / "Good game"
    NICE_HAND = "nice"  # "Güzel el" / "Nice hand"
    HURRY_UP = "hurry"  # "Acele et" / "Hurry up"
    WELL_PLAYED = "wp"  # "Tebrikler" / "Well played"
    LAUGH = "laugh"  # 😂
    CLAP = "clap"  # 👏
    WOW = "wow"  # 😮
    FIRE = "fire"  # 🔥


REACTIONS: tuple[Reaction, ...] = tuple(Reaction)  # in the order pickers show them


def reaction_of(word: object) -> Reaction | None:
    """The reaction a button or frame names (its value), or None for anything else."""
    if not isinstance(word, str):
        return None
    try:
        return Reaction(word)
    except ValueError:
        return None
