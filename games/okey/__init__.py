"""Okey (Turkish rummy): tiles, the meld solver and rack arranging, the round engine and scoring.

Public API: `is_complete`, `winning_discards`, `arrange` (with `Arrangement`), `suggest_discard`.
"""

from games.okey.arrange import Arrangement, arrange, suggest_discard
from games.okey.melds import is_complete, meld_kind, winning_discards
from games.okey.tiles import full_set, okey_of

__all__ = [
    "Arrangement",
    "arrange",
    "full_set",
    "is_complete",
    "meld_kind",
    "okey_of",
    "suggest_discard",
    "winning_discards",
]
