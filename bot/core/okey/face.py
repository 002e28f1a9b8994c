"""The Okey table's face: `OkeyMessages`, a base of `bot.core.okey.session.OkeySession` on the
tile-table base, calls the pure functions of `bot.core.okey.messages` with the table's state
and keeps what needs the session: the turn's private note, the rack's note and pictures, the
refusals of `/okey rack`.
"""

from __future__ import annotations

from bot.core.commands import ARRANGE_MODES, lookup
from bot.core.errors import Refusal
from bot.core.okey.messages import (
    PRESENTER,
    SHOW,
    public_buttons,
    rack_lines,
    rules_lines,
    table_lines,
    tile_buttons,
)
from bot.core.okey.tile_face import TileMessages
from bot.core.sketch import Sketch
from bot.core.table import pictures
from bot.core.table.session import ButtonSpec, Msg, Note, Step, msg, spec_for
from games.okey import OkeyMatch, OkeyRound


class OkeyMessages(TileMessages[OkeyMatch, OkeyRound]):
    """The Okey table's face (a base of `OkeySession`): its lines, buttons and pictures from
    the pure functions of `bot.core.okey.messages`."""

    round_type = OkeyRound
    presenter = PRESENTER

    def buttons(self) -> list[ButtonSpec]:
        """Public turn buttons: take from the stock or the discard (never a tile of a rack)."""
        return [] if self.round is None else public_buttons(self.round)

    def table_lines(self) -> list[Msg]:
        """Header, indicator, seats with rack sizes and top discards, totals, whose turn."""
        game, match = self.round, self.match
        if game is None or match is None:
            return table_lines(self._tile_table(None, None, [], 0))
        round_no = match.view(None)["rounds_played"] + 1
        return table_lines(self._tile_table(game.view(None), game.to_act(), match.totals, round_no))

    def _turn_note(self, step: Step, drawn: dict[int, Msg]) -> None:
        """The player to discard gets their rack with a button per tile (privately), after the
        tile they just drew, if any."""
        game = self.round
        if game is None:
            return
        index = game.to_act()
        assert index is not None
        seat = self.seat_of(index)
        if seat.bot or seat.away:
            return
        if game.phase != "discard":
            if spec_for(game.legal_actions(index), "show_indicator"):
                line = msg("okey.can_show", tile=game.view(None)["indicator"])
                step.notes.append(
                    Note([line], to=seat, buttons=[ButtonSpec(SHOW, msg("btn.show"))])
                )
            return
        lead = [drawn[index]] if index in drawn else []
        step.notes.append(self._rack_note(index, lead, self._tile_buttons(index)))

    def _tile_buttons(self, index: int) -> list[ButtonSpec]:
        assert self.round is not None
        return tile_buttons(self.round, index)

    def _rack_lines(self, index: int, mode: str = "runs") -> list[Msg]:
        game = self.match.round if self.match is not None else None
        assert game is not None
        return rack_lines(game, index, mode)

    def private_buttons(self, index: int) -> list[ButtonSpec]:
        """The tile buttons while the seat at `index` must discard (as on their turn's rack)."""
        engine_index = self.engine_seat(self.seats[index].player_id)
        seat = self.seats[index]
        game = self.round
        if engine_index is None or game is None or seat.bot or seat.away:
            return []
        if game.to_act() != engine_index or game.phase != "discard":  # not theirs to discard
            return []
        return self._tile_buttons(engine_index)

    def private_lines(self, index: int, sub: str, args: tuple[str, ...]) -> list[Msg]:
        """`/okey rack` and `/okey arrange runs|pairs`: the player's own tiles."""
        engine_index = self.engine_seat(self.seats[index].player_id)
        if engine_index is None or self.round is None:
            raise Refusal("err.no_round")
        mode = "runs"
        if sub == "arrange":
            found = lookup(ARRANGE_MODES, args[0]) if len(args) == 1 else None
            if found is None and args:
                raise Refusal("err.arrange_usage")
            mode = found or "runs"
        return self._rack_lines(engine_index, mode)

    def rules_lines(self) -> list[Msg]:
        """The table's options: stake, rounds and scoring, then every house rule with its
        value and meaning."""
        return rules_lines(self.game, self.group, self.options, self.pending)

    def _rack_sketch(self, index: int, mode: str = "runs") -> Sketch | None:
        """The rack picture of engine seat `index` from their own view, when pictures are on."""
        game = self.round
        seat = self.seat_of(index)
        if game is None or not self.draws_for(seat):
            return None
        return pictures.okey_rack(game.view(index), seat.locale, mode, seat.symbols)

    def table_sketch(self) -> Sketch | None:
        """The public table of the round in play (from the match's `view(None)`)."""
        if self.match is None or self.round is None or not self.draws_for(None):
            return None
        names = [self.name(i) for i in range(len(self.staked))]
        return pictures.okey_table(self.match.view(None), names, self.locale)

    def private_sketch(self, index: int, sub: str, args: tuple[str, ...]) -> Sketch | None:
        """`/okey rack` and `/okey arrange`'s picture: the rack laid out as the text says."""
        engine_index = self.engine_seat(self.seats[index].player_id)
        if engine_index is None or self.round is None:
            return None
        found = lookup(ARRANGE_MODES, args[0]) if sub == "arrange" and len(args) == 1 else None
        return self._rack_sketch(engine_index, found or "runs")
