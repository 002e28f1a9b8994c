"""Each game's presenter: its engine events in words, as pure functions of data.

A presenter's `describe(event, names, locale)` gives the lines a public event shows as (`names`:
the players of the hand's engine seats, in seat order) and `own(event)` the lines of a player's
own event (their cards, the tile they drew). The live tables, `/replay`, and so the web moves
list and the exports' text, all say an event through these; none needs a session.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.core.okey.messages import PRESENTER as OKEY
from bot.core.okey101.messages import PRESENTER as OKEY101
from bot.core.poker.messages import PokerPresenter
from bot.core.table.session import Msg
from games.base import Event


class Presenter(Protocol):
    """What a game's events read as (pure: the same event and names give the same lines)."""

    def describe(self, event: Event, names: Sequence[str], locale: str) -> list[Msg]:
        """A public event as lines."""
        ...

    def own(self, event: Event) -> list[Msg]:
        """A player's own (private) event as lines, for that player alone."""
        ...


# the game of a hand's setup (`games.history.Setup.game`) -> its presenter
PRESENTERS: dict[str, Presenter] = {
    "turkish": PokerPresenter("turkish"),
    "acik": PokerPresenter("acik"),
    "okey": OKEY,
    "okey101": OKEY101,
}


def presenter(game: str) -> Presenter:
    """The presenter of `game` (a `KeyError` for a game nobody registered)."""
    return PRESENTERS[game]
