"""What a player does at a table, typed: a `Move` is the engine's own `games.base.Action` or a
table move the core works out before (or instead of) an engine move.

    Action(...)          any engine move as the rules engine takes it (check, raise 40, take
                         from the stock, discard R5, a 101 opening with its melds ...)
    Ask(kind)            a button that needs an answer first: poker `open`/`bet`/`raise` (an
                         amount) and `draw` (the cards); the core plays the one amount a button
                         allows, else answers with a `Prompt` (`bot.core.messages`)
    Plan(kind)           101 Okey: a move the solver works out from the rack (`open_best`,
                         `open_pairs`, `take_open_best`, `take_open_pairs`, `take_use`,
                         `lay_best`)
    ConfirmDiscard(tile) 101 Okey: a discard the player was warned costs +101, made anyway
    PickMeld(tile)       101 Okey: ask which tile to add (None) or which meld a tile goes onto
    Sit() / Leave() / Start()   a tournament's registration buttons
    Rematch()            "Play again" on a stopped table's last message (`bot.core.table.rematch`)
    React(reaction)      a reaction of the fixed set (`bot.core.reactions`), None: ask which
                         (the chat's picker); not a turn's move, so no nonce binds it
    Back()               "I'm back": an away player takes their kept seat back
                         (`bot.core.table.kept`)

Every front end hands the core one of these (`Core.act`); chat buttons carry them compactly
(`bot.core.codec.MoveCodec`), the web table as JSON (`move_of_json`, docs/web.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.core.reactions import Reaction, reaction_of
from games.base import Action

__all__ = [
    "AMOUNT_KINDS",
    "ASK_KINDS",
    "PLAN_KINDS",
    "Action",
    "Ask",
    "Back",
    "BadMove",
    "ConfirmDiscard",
    "Leave",
    "Move",
    "PickMeld",
    "Plan",
    "React",
    "Rematch",
    "Sit",
    "Start",
    "TableMove",
    "move_json",
    "move_of_json",
]

AMOUNT_KINDS = ("open", "bet", "raise")  # poker: the moves that take a total stake
ASK_KINDS = (*AMOUNT_KINDS, "draw")
PLAN_KINDS = (
    "open_best",
    "open_pairs",
    "take_open_best",
    "take_open_pairs",
    "take_use",
    "lay_best",
)
ENGINE_KINDS = frozenset(
    {"check", "bet", "call", "raise", "fold", "open", "pass", "draw", "take", "discard",
     "finish", "show_indicator", "lay", "add", "swap"}
)  # fmt: skip
SOURCES = ("stock", "discard")
MAX_TILES = 40  # a 101 opening: up to 22 tiles and the "/" between its melds
MAX_CODE = 4  # a card (`Ah`, `Td`) or a tile (`R5`, `K13`, `F`) in notation
SEPARATOR = "/"  # 101 Okey: between two melds of one move
MAX_AMOUNT = 10**12


class BadMove(ValueError):
    """A move as JSON that is none of ours (a front end's bug or a forged frame)."""


@dataclass(frozen=True)
class Ask:
    """A poker button that needs an answer before it is a move: an amount (`open`, `bet`,
    `raise`) or the cards to exchange (`draw`)."""

    kind: str


@dataclass(frozen=True)
class Plan:
    """A 101 Okey move the core works out from the player's rack (one of `PLAN_KINDS`)."""

    kind: str


@dataclass(frozen=True)
class ConfirmDiscard:
    """A 101 Okey discard of `tile` the player was warned costs +101, made anyway."""

    tile: str


@dataclass(frozen=True)
class PickMeld:
    """101 Okey: which tiles can be added to the table (`tile` None), or which melds `tile`
    fits; answered with a picker, no move is made."""

    tile: str | None = None


@dataclass(frozen=True)
class Sit:
    """Take a place (a tournament's registration)."""


@dataclass(frozen=True)
class Leave:
    """Give one's place up (a tournament's registration)."""


@dataclass(frozen=True)
class Start:
    """Start now (a tournament: its organiser or a moderator)."""


@dataclass(frozen=True)
class Rematch:
    """Play again: the same players, seats, house rules and stake (`bot.core.table.rematch`)."""


@dataclass(frozen=True)
class React:
    """A reaction at the table (`Reaction`), or None: show me the reactions (a chat picker)."""

    reaction: Reaction | None = None


@dataclass(frozen=True)
class Back:
    """An away player takes their seat back from the computer that kept it."""


TableMove = Ask | Plan | ConfirmDiscard | PickMeld | Sit | Leave | Start | Rematch | React | Back
Move = Action | TableMove


def _code(value: Any) -> str:
    if not isinstance(value, str) or not (
        value == SEPARATOR or (0 < len(value) <= MAX_CODE and value.isascii() and value.isalnum())
    ):
        raise BadMove("bad card or tile")
    return value


def move_of_json(data: dict[str, Any]) -> Move:
    """A move from its JSON (docs/web.md, "Moves"): `kind` an engine move's kind with `amount`,
    `cards` and `source` as in `Action` (`confirm: true` with a 101 `discard` accepts its +101),
    or a table move's kind (`open_best` ... `lay_best`, `pick_meld`, `rematch`, `back`), or
    `react` with its `reaction` (one of `bot.core.reactions.Reaction`); `BadMove` otherwise."""
    kind = data.get("kind")
    if kind == "react":
        reaction = reaction_of(data.get("reaction"))
        if reaction is None:
            raise BadMove("unknown reaction")
        return React(reaction)
    amount = data.get("amount")
    cards = data.get("cards") or []
    source = data.get("source")
    confirm = data.get("confirm", False)
    if amount is not None and (
        not isinstance(amount, int) or isinstance(amount, bool) or abs(amount) > MAX_AMOUNT
    ):
        raise BadMove("amount must be a number")
    if not isinstance(cards, list) or len(cards) > MAX_TILES:
        raise BadMove("cards must be a list")
    tiles = tuple(_code(c) for c in cards)
    if source not in (None, *SOURCES):
        raise BadMove("bad source")
    if not isinstance(confirm, bool):
        raise BadMove("confirm must be true or false")
    if kind == "back":
        if amount is not None or source is not None or confirm or tiles:
            raise BadMove("that move takes nothing")
        return Back()
    if kind == "discard!":  # the page's older word for a confirmed discard
        kind, confirm = "discard", True
    if kind == "rematch":
        if amount is not None or source is not None or confirm or tiles:
            raise BadMove("that move takes nothing")
        return Rematch()
    if kind in PLAN_KINDS or kind == "pick_meld":
        if amount is not None or source is not None or confirm or len(tiles) > 1:
            raise BadMove("that move takes nothing")
        if kind == "pick_meld":
            return PickMeld(tiles[0] if tiles else None)
        if tiles:
            raise BadMove("that move takes nothing")
        return Plan(kind)
    if kind not in ENGINE_KINDS:
        raise BadMove("unknown move")
    if confirm:
        if kind != "discard" or len(tiles) != 1 or amount is not None or source is not None:
            raise BadMove("only a discard is confirmed")
        return ConfirmDiscard(tiles[0])
    return Action(kind, amount=amount, cards=tiles, source=source)


def move_json(move: Move) -> dict[str, Any]:
    """A move as JSON (`move_of_json` reads it back; tournament moves have none)."""
    if isinstance(move, Action):
        return {
            "kind": move.kind,
            "amount": move.amount,
            "cards": list(move.cards),
            "source": move.source,
        }
    if isinstance(move, ConfirmDiscard):
        return {"kind": "discard", "cards": [move.tile], "confirm": True}
    if isinstance(move, Plan):
        return {"kind": move.kind}
    if isinstance(move, PickMeld):
        return {"kind": "pick_meld", "cards": [] if move.tile is None else [move.tile]}
    if isinstance(move, Rematch):
        return {"kind": "rematch"}
    if isinstance(move, React) and move.reaction is not None:
        return {"kind": "react", "reaction": move.reaction.value}
    if isinstance(move, Back):
        return {"kind": "back"}
    raise BadMove(f"{type(move).__name__} has no JSON")
