"""Okey (Turkish rummy): tiles, the meld solver and rack arranging, the round engine and scoring.

Public API: `is_complete`, `winning_discards`, `arrange` (with `Arrangement`), `suggest_discard`;
rounds are dealt with `new(players, seed, options)` (an `OkeyRound`), matches with
`OkeyMatch.new(players, options)`; `payout` splits a pool of chips; `auto_action` plays for an
idle seat.
"""

from games.okey.arrange import Arrangement, arrange
from games.okey.auto import auto_action, suggest_discard
from games.okey.match import OkeyMatch
from games.okey.melds import is_complete, meld_kind, winning_discards
from games.okey.round import OkeyRound, new
from games.okey.scoring import OPTION_DEFAULTS, PRESETS, check_options, payout
from games.okey.tiles import full_set, okey_of

__all__ = [
    "OPTION_DEFAULTS",
    "PRESETS",
    "Arrangement",
    "OkeyMatch",
    "OkeyRound",
    "arrange",
    "auto_action",
    "check_options",
    "full_set",
    "is_complete",
    "meld_kind",
    "new",
    "okey_of",
    "payout",
    "suggest_discard",
    "winning_discards",
]
