"""A pressed button completed with what its front end asked for (`Press.args`: the amount a
player typed, the cards they picked, a 101 add picker's tile and meld), as one typed move.

`Core.press` decodes the button (`bot.core.codec`), then `answered` puts the answer into the
move; a front end that knows the move already calls `Core.act` with it instead.
"""

from __future__ import annotations

from bot.core.commands import parse_int
from bot.core.errors import Refusal
from bot.core.moves import Ask, ConfirmDiscard, Leave, Move, PickMeld, Plan, Rematch, Sit, Start
from bot.core.poker.words import card_word
from games.base import Action

__all__ = ["answered", "legacy_move"]

LEGACY_KINDS = ("take", "open", "lay", "add", "swap", "discard", "discard!", "finish")


def answered(move: Move, args: tuple[str, ...]) -> Move:
    """`move` (a decoded button) with the front end's answer `args`; a refusal when the
    button takes none. A draw's cards (none: stand pat) and an amount's first word are read
    as typed; an amount that is no number is a move without its amount (refused, asking)."""
    if isinstance(move, Ask) and move.kind == "draw":
        return Action("draw", cards=tuple(card_word(a) for a in args))
    if not args or isinstance(move, Sit | Leave | Start | Rematch):
        return move
    if isinstance(move, Ask):
        number = parse_int(args[0])
        return Action(move.kind, amount=number)
    if move == Action("call") and len(args) == 1 and (number := parse_int(args[0])) is not None:
        return Action("call", amount=number)  # the engine checks it is the call
    if move == Action("draw"):
        raise Refusal("err.pat_no_cards")
    if isinstance(move, PickMeld):  # a front end's own picker: (tile, meld index)
        if move.tile is not None or len(args) != 2:
            raise Refusal("err.okey101_add_usage")
        meld = parse_int(args[1])
        if meld is None:
            raise Refusal("err.bad_button")
        return Action("add", cards=(args[0].upper(),), amount=meld)
    raise Refusal("err.no_args", action=_word(move))


def legacy_move(args: tuple[str, ...]) -> Move:
    """The `x` press of older web pages: `(kind, source, amount, *cards)` with `-` for no
    source or amount (`discard!`: a discard accepting its +101)."""
    if len(args) < 3 or args[0] not in LEGACY_KINDS:
        raise Refusal("err.okey101_usage")
    kind, source, amount = args[0], args[1], args[2]
    cards = tuple(c.upper() for c in args[3:])
    if kind == "discard!":
        if len(cards) != 1:
            raise Refusal("err.tile_usage", action="discard")
        return ConfirmDiscard(cards[0])
    number = parse_int(amount) if amount != "-" else None
    if amount != "-" and number is None:
        raise Refusal("err.okey101_usage")
    return Action(kind, cards=cards, amount=number, source=None if source == "-" else source)


def _word(move: Move) -> str:
    """How a refusal names the move."""
    if isinstance(move, Action):
        return "show" if move.kind == "show_indicator" else move.kind
    if isinstance(move, Plan):
        return move.kind
    if isinstance(move, ConfirmDiscard):
        return "discard"
    return type(move).__name__.lower()
