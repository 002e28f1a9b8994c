"""A kept seat: a person who missed their turns keeps their place, and a computer player at the
`normal` level plays it for them, openly ("playing for Ayşe"), until they are back.

- The table service decides that a player is away when they time out `CoreConfig.afk_limit`
  times in a row; the move of that very time-out is already the kept seat's (no extra wait).
- The kept seat plays the player's own chips, cards or rack, from what that player may see
  (`bot.core.table.ai`: the computer players read only their seat's `view`), and its moves are
  logged with `KEPT_MARK` (`/replay`, `/export`).
- The player takes the seat back with one press (`Back`, "I'm back" on the table message and
  the web page) or with any move of theirs (`TableService._apply`).
- After the house option `away` (hands at poker, rounds at Okey and 101; default
  `DEFAULT_AWAY_LIMIT`) ended with them away, they leave as a player who asked to: poker cashes
  them out between hands, Okey plays their seat out to the match's end (the partner's 101
  match goes on) and then pays them what the match gives. A tournament table never stands a
  kept seat up: the tournament's clock and standings go on with the computer playing for them.
"""

from __future__ import annotations

from typing import Any

from bot.core.moves import Back
from bot.core.table.session import (
    DEFAULT_AWAY_LIMIT,
    ButtonSpec,
    Msg,
    Seat,
    TableSession,
    msg,
)

__all__ = ["DEFAULT_AWAY_LIMIT", "KEPT_LEVEL", "away_note", "back_buttons"]

KEPT_LEVEL = "normal"  # the computer player that keeps a seat
KEPT_MARK = {"auto": True, "kept": True}  # on the action log entry of a kept seat's move


def poker_how(seat: Seat, afk: bool) -> tuple[bool, str]:
    """(cautious, level) of the computer acting for a poker seat: a kept seat plays at
    `KEPT_LEVEL`; a time-out, a leaver or any other stand-in checks or folds."""
    if seat.kept and not afk:
        return False, KEPT_LEVEL
    return afk or seat.leaving or seat.away, seat.level


def okey_level(seat: Seat, afk: bool) -> str:
    """The level of the computer playing an Okey seat's turn: a computer player's own, a kept
    seat's `KEPT_LEVEL`, else (a time-out, a leaver) `easy`."""
    if afk:
        return "easy"
    if seat.bot:
        return seat.level
    return KEPT_LEVEL if seat.kept else "easy"


def marker(seat: Seat, afk: bool) -> dict[str, Any]:
    """What a computer move's action log entry carries: `auto`, and `kept` for a kept seat's."""
    return dict(KEPT_MARK) if seat.kept and not afk else {"auto": True}


def away_note(seat: Seat) -> Msg:
    """The mark on an away seat's line of the table message: "away, computer playing for Ayşe"
    for a kept seat, "away" for another (a forfeit, a player leaving mid-match)."""
    return msg("seat.kept", name=seat.name) if seat.kept else msg("seat.away")


def back_buttons(session: TableSession) -> list[ButtonSpec]:
    """The "I'm back" button of the table message while a person's seat is kept (anyone may
    see it; only the away player's press is taken)."""
    if session.phase == "closed" or not any(s.kept for s in session.seats):
        return []
    return [ButtonSpec(Back(), msg("btn.back"), style="primary")]
