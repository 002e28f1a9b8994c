"""A tile table's face: `TileMessages`, on the tile-table base (`TileSession`), says what the
table says through the pure functions of `bot.core.okey.tile_messages`, with the table's state
(the match's names, the `TileTable` record, a player's rack note in the round's slot). Each
game's face builds on it (`bot.core.okey.face`, `bot.core.okey101.face`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from bot.core.okey.tile_match import MatchT, RoundT
from bot.core.okey.tile_messages import TilePresenter, TileTable, verify_lines
from bot.core.okey.tile_session import TileSession
from bot.core.sketch import Sketch
from bot.core.table.session import ButtonSpec, Msg, Note
from games.base import Event
from games.okey.common import TileRound


class TileMessages(TileSession[MatchT, RoundT]):
    """A tile table's face: what it says, through `bot.core.okey.tile_messages`, from its state.
    Each game's messages class builds on it and sets `presenter` (its events in words) and
    `round_type` (the round `/verify` deals again), and builds a rack's lines and picture."""

    round_type: ClassVar[type[TileRound]]
    presenter: ClassVar[TilePresenter]

    def _public_event(self, event: Event) -> list[Msg]:
        """A public engine event as lines: the game's presenter with the match's names."""
        names = [self.name(i) for i in range(len(self.staked))]
        return self.presenter.describe(event, names, self.locale)

    # --- the table message (a `TileTable` record for the pure `table_lines`) ----------------

    def _tile_table(
        self, view: dict[str, Any] | None, actor: int | None, totals: list[int], round_no: int
    ) -> TileTable:
        """The data the table message is built from (`view`: the round's public view, None
        while no round is played)."""
        players = [] if view is None else [self.seat_of(i) for i in range(len(self.staked))]
        return TileTable(
            *(self.game, self.table_id, self.options, list(self.seats), players),
            *(view, actor, totals, round_no),
        )

    # --- a player's rack ------------------------------------------------------------------------

    def _rack_lines(self, index: int) -> list[Msg]:
        """Engine seat `index`'s rack in words; each game says its own."""
        raise NotImplementedError

    def _rack_sketch(self, index: int) -> Sketch | None:
        """Engine seat `index`'s rack picture, when pictures are on; each game draws its own."""
        raise NotImplementedError

    def _rack_note(
        self, index: int, lead: list[Msg] | None = None, buttons: list[ButtonSpec] | None = None
    ) -> Note:
        """Engine seat `index`'s rack as it is now, privately, in the round's slot."""
        lines = [*(lead or []), *self._rack_lines(index)]
        return self.tell_hand(
            self.seat_of(index), lines, buttons=buttons or [], picture=self._rack_sketch(index)
        )

    @classmethod
    def verify_lines(cls, info: dict[str, Any], seed_hex: str, posted_hash: str) -> list[Msg]:
        """Deal the round again from its seed (`verify_lines` of the game's `round_type`)."""
        return verify_lines(cls.round_type, info, seed_hex, posted_hash)
