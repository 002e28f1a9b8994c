"""The one compact encoding of a move on a chat button (`MoveCodec`).

A button carries `<table>:<code>:<nonce>` (what `Button.custom_id` is): at most 64 bytes, so it
fits Telegram's callback data as it is and Discord's 100-character custom ids with the adapter's
own prefix. The code is the move, the same on every platform and every process:

    check call fold pass     poker moves that take nothing (`Action(kind)`)
    open bet raise draw      the buttons that need an answer (`Ask(kind)`)
    pat                      stand pat (`Action("draw")`); `draw.Ah.7c` exchange those cards
    <kind>.<n>               a poker move with its amount (`raise.40`)
    ts td show               Okey: take from the stock / the discard, show the indicator
    d.<tile> f.<tile>        discard, finish
    a.<tile>.<k> s.<tile>.<k>  101: add the tile to meld k (0-based) / swap it for its okey
    dd.<tile>                101: the discard warned about, made anyway (`ConfirmDiscard`)
    a  a.<tile>              101: the add picker (`PickMeld`)
    ob op tb tp tu lb        101: the solver's moves (`Plan`)
    x.<kind>.<source>.<amount>.<tile>...   any other engine move (`-` for none)
    join leave start         a tournament's registration (`Sit`, `Leave`, `Start`)
    again                    play again on a stopped table (`Rematch`)
    r  r.<reaction>          the reactions picker (`React(None)`) / a reaction (`React`)
    back                     "I'm back": an away player takes their kept seat back (`Back`)

`decode` takes what a platform hands back and returns the table, the nonce and the move, or a
`Refusal` (`err.bad_button`) for anything else: forged, cut, oversized or from no table of
ours. Each move has exactly one text (`decode` reads only what `encode` writes). The table's own checks (its nonce, the turn, the rules) come after, in `Core.act`.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.errors import Refusal
from bot.core.moves import (
    ASK_KINDS,
    Back,
    ConfirmDiscard,
    Leave,
    Move,
    PickMeld,
    Plan,
    React,
    Rematch,
    Sit,
    Start,
)
from bot.core.moves import Ask as AskMove
from bot.core.reactions import reaction_of
from games.base import Action

__all__ = ["MAX_BUTTON_BYTES", "ButtonMove", "CodecError", "MoveCodec", "codec"]

MAX_BUTTON_BYTES = 64  # Telegram's callback data; Discord's custom ids allow 100 characters
MAX_PART = 40  # a table id or a nonce
MAX_DIGITS = 12
SIMPLE = ("check", "call", "fold", "pass")
AMOUNTED = ("open", "bet", "raise", "call")
PLANS = {
    "ob": "open_best",
    "op": "open_pairs",
    "tb": "take_open_best",
    "tp": "take_open_pairs",
    "tu": "take_use",
    "lb": "lay_best",
}
PLAN_CODES = {kind: code for code, kind in PLANS.items()}
REGISTRATION: dict[str, Move] = {
    "join": Sit(),
    "leave": Leave(),
    "start": Start(),
    "again": Rematch(),
    "back": Back(),  # (not a registration: a table move of the same shape, a word alone)
}
TAKES = {"ts": "stock", "td": "discard"}
NONE = "-"


class CodecError(ValueError):
    """A move that no button can carry (too long for 64 bytes, or no code for it)."""


@dataclass(frozen=True)
class ButtonMove:
    """What a pressed button says: its table, the turn nonce it was drawn with, the move."""

    table_id: str
    nonce: str
    move: Move


def _is_code(word: str) -> bool:
    """A card or tile in notation (`Ah`, `R5`, `K13`, `F`)."""
    return 0 < len(word) <= 4 and word.isascii() and word.isalnum()


def _is_part(word: str) -> bool:
    """A table id or nonce: short ASCII letters, digits, `-` and `_`."""
    return (
        0 < len(word) <= MAX_PART and word.isascii() and all(c.isalnum() or c in "-_" for c in word)
    )


def _number(word: str) -> int | None:
    """A whole number as `code` writes it (no sign, no leading zero), else None."""
    if not (word.isascii() and word.isdigit() and len(word) <= MAX_DIGITS):
        return None
    return int(word) if word == str(int(word)) else None


class MoveCodec:
    """Moves <-> the compact text a chat button carries (see the module's docstring)."""

    def code(self, move: Move) -> str:
        """The move's code alone (the middle of a button's id); `CodecError` when no button
        can carry it."""
        if isinstance(move, Action):
            return self._action(move)
        if isinstance(move, AskMove) and move.kind in ASK_KINDS:
            return move.kind
        if isinstance(move, Plan) and move.kind in PLAN_CODES:
            return PLAN_CODES[move.kind]
        if isinstance(move, ConfirmDiscard) and _is_code(move.tile):
            return f"dd.{move.tile}"
        if isinstance(move, PickMeld):
            if move.tile is None:
                return "a"
            if _is_code(move.tile):
                return f"a.{move.tile}"
        for word, registration in REGISTRATION.items():
            if move == registration:
                return word
        if isinstance(move, React):
            return "r" if move.reaction is None else f"r.{move.reaction.value}"
        raise CodecError(f"no button carries {move!r}")

    def _action(self, action: Action) -> str:
        kind, amount, cards, source = action.kind, action.amount, action.cards, action.source
        plain = source is None and all(_is_code(c) for c in cards)
        if kind == "take" and not cards and amount is None and source in ("stock", "discard"):
            return "ts" if source == "stock" else "td"
        if plain and kind == "show_indicator" and not cards and amount is None:
            return "show"
        if plain and kind in ("discard", "finish") and len(cards) == 1 and amount is None:
            return f"{kind[0]}.{cards[0]}"
        if plain and kind in ("add", "swap") and len(cards) == 1 and _small(amount):
            return f"{kind[0]}.{cards[0]}.{amount}"
        if plain and kind == "draw" and amount is None:
            return ".".join(("draw", *cards)) if cards else "pat"
        if plain and not cards and kind in SIMPLE and amount is None:
            return kind
        if plain and not cards and kind in AMOUNTED and _small(amount):
            return f"{kind}.{amount}"
        if not all(_is_code(c) or c == "/" for c in cards) or not kind.isalpha():
            raise CodecError(f"no button carries {action!r}")
        how = NONE if amount is None else str(amount)
        return ".".join(("x", kind, source or NONE, how, *cards))

    def encode(self, table_id: str, nonce: str, move: Move) -> str:
        """The button id of `move` at `table_id` drawn with `nonce`: `<table>:<code>:<nonce>`,
        at most `MAX_BUTTON_BYTES`; `CodecError` when it does not fit."""
        if not (_is_part(table_id) and _is_part(nonce)):
            raise CodecError("bad table id or nonce")
        raw = f"{table_id}:{self.code(move)}:{nonce}"
        if len(raw.encode()) > MAX_BUTTON_BYTES:
            raise CodecError(f"{raw!r} is longer than {MAX_BUTTON_BYTES} bytes")
        return raw

    def decode(self, raw: str) -> ButtonMove | Refusal:
        """What a button id says, or the refusal (`err.bad_button`) for anything that is not
        one of ours."""
        if not isinstance(raw, str) or len(raw.encode("utf-8", "replace")) > MAX_BUTTON_BYTES:
            return Refusal("err.bad_button")
        parts = raw.split(":")
        if len(parts) != 3 or not (_is_part(parts[0]) and _is_part(parts[2])):
            return Refusal("err.bad_button")
        move = self.move_of(parts[1])
        if move is None:
            return Refusal("err.bad_button")
        return ButtonMove(parts[0], parts[2], move)

    def move_of(self, code: str) -> Move | None:
        """The move a code stands for (the middle of a button id), or None."""
        if not code.isascii() or len(code) > MAX_BUTTON_BYTES:
            return None
        if code in ASK_KINDS:
            return AskMove(code)
        if code in SIMPLE:
            return Action(code)
        if code == "pat":
            return Action("draw")
        if code in TAKES:
            return Action("take", source=TAKES[code])
        if code == "show":
            return Action("show_indicator")
        if code in PLANS:
            return Plan(PLANS[code])
        if code == "a":
            return PickMeld(None)
        if code in REGISTRATION:
            return REGISTRATION[code]
        if code == "r":
            return React(None)
        head, _, rest = code.partition(".")
        words = rest.split(".") if rest else []
        if head == "x":  # only what has no shorter code: every move is read from one text
            general = _general(words)
            return general if general is not None and self.code(general) == code else None
        if not words:
            return None
        if head == "r":  # only the set's own values: never free text
            reaction = reaction_of(words[0]) if len(words) == 1 else None
            return None if reaction is None else React(reaction)
        if head == "draw":
            return Action("draw", cards=tuple(words)) if all(map(_is_code, words)) else None
        if head in AMOUNTED and len(words) == 1 and (number := _number(words[0])) is not None:
            return Action(head, amount=number)
        if not _is_code(words[0]):
            return None
        tile = words[0]
        if len(words) == 1:
            if head in ("d", "f"):
                return Action("discard" if head == "d" else "finish", cards=(tile,))
            if head == "dd":
                return ConfirmDiscard(tile)
            if head == "a":
                return PickMeld(tile)
            return None
        if len(words) == 2 and head in ("a", "s") and (meld := _number(words[1])) is not None:
            return Action("add" if head == "a" else "swap", cards=(tile,), amount=meld)
        return None


def _small(amount: int | None) -> bool:
    return amount is not None and 0 <= amount < 10**MAX_DIGITS


def _general(words: list[str]) -> Move | None:
    """`x.<kind>.<source>.<amount>.<tile>...`: any engine move."""
    if len(words) < 3 or not words[0].isalpha():
        return None
    kind, source, how, cards = words[0], words[1], words[2], words[3:]
    if source not in (NONE, "stock", "discard"):
        return None
    amount = None if how == NONE else _number(how)
    if how != NONE and amount is None:
        return None
    if not all(_is_code(c) or c == "/" for c in cards):
        return None
    return Action(
        kind, amount=amount, cards=tuple(cards), source=None if source == NONE else source
    )


codec = MoveCodec()  # the core's one codec (it keeps no state)
