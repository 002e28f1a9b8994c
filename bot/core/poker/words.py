"""The words a poker player types: the move words, amounts and card names (`A♥`, `10h`),
turned into the engine's `Action`; what is refused says why, in the player's language.

`PokerWords` is mixed into `bot.core.poker.session.PokerSession`, whose engine it reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core.commands import parse_int
from bot.core.errors import Refusal
from bot.core.table.session import TableSession, spec_for
from games.base import Action, ActionSpec

AMOUNT_KINDS = ("open", "bet", "raise")
ACTION_WORDS = ("open", "pass", "check", "bet", "call", "raise", "fold", "draw", "pat")
_SUIT_SYMBOLS = {"♥": "h", "♡": "h", "♠": "s", "♤": "s", "♦": "d", "♢": "d", "♣": "c", "♧": "c"}


def card_word(word: str) -> str:
    """A card typed by a player in notation: `A♥` -> `Ah`, `10h` -> `Th`, `ah` -> `Ah`."""
    text = word.strip()
    for symbol, suit in _SUIT_SYMBOLS.items():
        text = text.replace(symbol, suit)
    if text[:2] == "10":
        text = "T" + text[2:]
    return text[:-1].upper() + text[-1:].lower() if len(text) == 2 else text


class PokerWords(TableSession):
    """A poker move from its words (mixed into `PokerSession`)."""

    if TYPE_CHECKING:  # provided by `PokerSession`

        def _public_specs(self, index: int) -> list[ActionSpec]: ...

    def _parse(self, index: int, kind: str, args: tuple[str, ...]) -> Action:
        if kind == "pat":
            if args:
                raise Refusal("err.pat_no_cards")
            return Action("draw")
        if kind == "draw":
            return Action("draw", cards=tuple(card_word(a) for a in args))
        if kind in AMOUNT_KINDS:
            # public limits: which usage text a word gets must not tell the sender's cards
            spec = spec_for(self._public_specs(index), kind)
            if not args or parse_int(args[0]) is None:
                if spec is None:
                    raise Refusal("err.amount_usage", action=kind)
                raise Refusal(
                    "err.amount_needed", action=kind, min=spec.min_amount, max=spec.max_amount
                )
            return Action(kind, amount=parse_int(args[0]))
        if kind == "call" and len(args) == 1 and parse_int(args[0]) is not None:
            return Action(kind, amount=parse_int(args[0]))  # the engine checks it is the call
        if args:
            raise Refusal("err.no_args", action=kind)
        return Action(kind)
