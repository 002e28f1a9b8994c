"""The 101 table's face: `Okey101Messages`, a base of `bot.core.okey101.session.Okey101Session`
on the tile-table base, calls the pure functions of `bot.core.okey101.messages` with the
table's state and keeps what needs the session: the turn's private note, the add picker's
note, the rack's note and pictures, the refusals of `/okey rack`.
"""

from __future__ import annotations

from bot.core.errors import Refusal
from bot.core.messages import Prompt
from bot.core.okey.tile_face import TileMessages
from bot.core.okey101 import plays
from bot.core.okey101.messages import (
    PRESENTER,
    TAKE_STOCK,
    add_picker,
    rack_lines,
    rules_lines,
    table_lines,
    turn_buttons,
)
from bot.core.sketch import Sketch
from bot.core.table import pictures
from bot.core.table.session import ButtonSpec, Msg, Note, msg
from games.okey101 import Match101, Round101
from games.okey101.round import TAKE


class Okey101Messages(TileMessages[Match101, Round101]):
    """The 101 table's face (a base of `Okey101Session`): its lines, buttons and pictures from
    the pure functions of `bot.core.okey101.messages`."""

    round_type = Round101
    presenter = PRESENTER

    # --- the table message ----------------------------------------------------------------------

    def buttons(self) -> list[ButtonSpec]:
        """The public turn button: draw from the stock (what else the player may do with the
        previous discard is theirs to know: it comes privately)."""
        game = self.round
        if game is None or game.phase != TAKE:
            return []
        return [ButtonSpec(TAKE_STOCK, msg("btn.take_stock"), "primary")]

    def table_lines(self) -> list[Msg]:
        """Header, indicator, seats (tiles, top discard, opening, totals), the melds on the
        table, this round's penalties, whose turn."""
        game, match = self.round, self.match
        if game is None or match is None:
            return table_lines(self._tile_table(None, None, [], 0))
        view, round_no = game.view(None), len(match.history) + 1
        return table_lines(self._tile_table(view, game.to_act(), match.totals, round_no))

    # --- a player's rack --------------------------------------------------------------------

    def _rack_lines(self, index: int) -> list[Msg]:
        if self.round is None:
            raise Refusal("err.no_round")
        return rack_lines(self.round, index)

    def _turn_buttons(self, index: int) -> list[ButtonSpec]:
        assert self.round is not None
        return turn_buttons(self.round, index)

    def _turn_note(self, lead: list[Msg] | None = None) -> Note | None:
        """The rack of the player to act with their turn buttons, privately; None for a
        computer or away seat, and in the take phase when the previous discard is of no use to
        them (the table's public button draws)."""
        game = self.round
        if game is None:
            return None
        index = game.to_act()
        assert index is not None
        seat = self.seat_of(index)
        if seat.bot or seat.away:
            return None
        buttons = self._turn_buttons(index)
        if game.phase == TAKE and len(buttons) == 1:
            return None
        return self._rack_note(index, lead, buttons)

    def add_picker_note(self, index: int, tile: str | None = None) -> Note:
        """The add picker, privately (`add_picker`)."""
        assert self.round is not None
        note = add_picker(self.round, index, self.seat_of(index), tile)
        if note.picker is not None:  # the picker as data too, so any front end can ask it
            note.prompt = Prompt(
                note.picker.kind,
                str(self.table_id),
                self.nonce,
                "add",
                choices=note.picker.choices,
                tile=tile,
            )
        return note

    def private_buttons(self, index: int) -> list[ButtonSpec]:
        """The turn buttons while the seat at `index` is to act (as on their turn's rack)."""
        engine_index = self.engine_seat(self.seats[index].player_id)
        seat = self.seats[index]
        game = self.round
        if (
            engine_index is None
            or game is None
            or game.to_act() != engine_index
            or seat.bot
            or seat.away
        ):
            return []
        return self._turn_buttons(engine_index)

    def private_lines(self, index: int, sub: str, args: tuple[str, ...]) -> list[Msg]:
        """`/okey rack` (and `arrange`): the player's own tiles and what they can lay."""
        engine_index = self.engine_seat(self.seats[index].player_id)
        if engine_index is None or self.round is None:
            raise Refusal("err.no_round")
        return self._rack_lines(engine_index)

    def rules_lines(self) -> list[Msg]:
        """The table's options, then every house rule with its value and meaning."""
        return rules_lines(self.game, self.group, self.options, self.pending)

    # --- pictures -----------------------------------------------------------------------------

    def _rack_sketch(self, index: int) -> Sketch | None:
        """The rack picture of engine seat `index` from their own view (the tiles that can be
        laid marked), when pictures are on."""
        game = self.round
        seat = self.seat_of(index)
        if game is None or not self.draws_for(seat):
            return None
        marked = plays.layable(game, index)
        return pictures.okey101_rack(game.view(index), marked, seat.locale, seat.symbols)

    def table_sketch(self) -> Sketch | None:
        """The public table of the round in play (from the match's `view(None)`)."""
        if self.match is None or self.round is None or not self.draws_for(None):
            return None
        names = [self.name(i) for i in range(len(self.staked))]
        return pictures.okey101_table(self.match.view(None), names, self.locale)

    def private_sketch(self, index: int, sub: str, args: tuple[str, ...]) -> Sketch | None:
        """`/okey rack`'s picture."""
        engine_index = self.engine_seat(self.seats[index].player_id)
        if engine_index is None or self.round is None:
            return None
        return self._rack_sketch(engine_index)
