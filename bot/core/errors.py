"""The core's refusal: a catalogue key and parameters, shown to the sender in their language."""

from __future__ import annotations

from typing import Any

from storage import Busy


class Refusal(Exception):
    """A command or press that is refused; nothing was changed.

    `key` names the text in the catalogue (`err.*`), `params` fill it. `prompt`: the question
    a front end may ask instead (`bot.core.messages.Prompt`, e.g. the amount a pressed raise
    needs), carried on the refusal's answer.
    """

    def __init__(self, key: str, *, prompt: Any = None, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params
        self.prompt = prompt


# Refusals whose reason depends on the refused player's own hidden cards or tiles. The player is
# told the reason (privately); an INFO log line only says `refused`, or it would tell whoever
# reads the log who holds openers, a dead hand, a card or the indicator's twin.
HIDDEN_REASONS = frozenset(
    {
        "illegal.no_openers",
        "illegal.card_not_in_hand",
        "illegal.void_bet_dead",
        "illegal.fold_without_bet",
        "illegal.tile_not_in_rack",
        "illegal.not_complete",
        "illegal.cannot_show_indicator",
        # refused only when no second copy of the taken tile is in the rack
        "illegal.takeback",
        # 101 Okey: the one-press moves and the add picker are worked out from the rack
        "err.okey101_cannot_open",
        "err.okey101_cannot_pairs",
        "err.okey101_cannot_use",
        "err.okey101_nothing_to_add",
        "err.okey101_nothing_to_lay",
        "illegal.does_not_fit",
        # refused only once the named tiles are found in the rack
        "illegal.below_threshold",
        "illegal.too_few_pairs",
        "illegal.pairs_full",
        "illegal.keep_one",
        "illegal.not_last_tile",
    }
)


def log_outcome(key: str) -> str:
    """A refusal's key as an INFO log line may show it: `refused` when the reason depends on
    the player's own hidden cards (`HIDDEN_REASONS`), else the key itself."""
    return "refused" if key in HIDDEN_REASONS else key


def storage_refusal(exc: Exception) -> str:
    """The refusal key for a storage fault: `err.busy` when another writer kept the database
    (the player may simply try again in a moment), else `err.storage`; nothing was changed."""
    return "err.busy" if isinstance(exc, Busy) else "err.storage"
