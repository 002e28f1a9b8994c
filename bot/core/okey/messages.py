"""What an Okey table says and shows: the table message and its take buttons, each engine
event in words, a player's own rack (texts, tile buttons and pictures) and the rules; what the
101 table says alike (seat lines, shared events, `/verify`) is in `bot.core.okey.tile_messages`.
Tiles a player holds only ever go to that player.

`OkeyMessages` is mixed into `bot.core.okey.session.OkeySession`, whose state it reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core.commands import ARRANGE_MODES, lookup
from bot.core.errors import Refusal
from bot.core.okey.tile_messages import TileMessages, rack_order
from bot.core.sketch import Sketch
from bot.core.table import house, pictures
from bot.core.table.session import ButtonSpec, Msg, Note, Step, msg, spec_for
from bot.render import text as show
from games.base import Action, Event
from games.okey import OkeyMatch, OkeyRound, arrange, winning_discards

SHOW = Action("show_indicator")

MAX_BUTTONS = 25  # Discord's limit per message


class OkeyMessages(TileMessages):
    """The Okey table's lines, buttons and pictures (mixed into `OkeySession`)."""

    round_type = OkeyRound
    # the state of `OkeySession` these are built from
    match: OkeyMatch | None

    if TYPE_CHECKING:  # provided by `OkeySession`

        @property
        def round(self) -> OkeyRound | None: ...

        def engine_seat(self, player_id: int) -> int | None: ...

        def _turn_of(self, index: int) -> bool: ...

    def buttons(self) -> list[ButtonSpec]:
        """Public turn buttons: take from the stock or the discard (never a tile of a rack)."""
        game = self.round
        if game is None:
            return []
        index = game.to_act()
        assert index is not None
        out = []
        sources = game.sources(index)
        if "stock" in sources:
            out.append(ButtonSpec(Action("take", source="stock"), msg("btn.take_stock"), "primary"))
        if "discard" in sources:
            pile = game.view(None)["discard_piles"][game.previous(index)]
            out.append(
                ButtonSpec(Action("take", source="discard"), msg("btn.take_discard", tile=pile[-1]))
            )
        # no "show the indicator" here: offered only to its holder it would tell the table who
        # holds the twin; `_turn_note` offers it privately
        return out

    def table_lines(self) -> list[Msg]:
        """Header, indicator, seats with rack sizes and top discards, totals, whose turn."""
        o = self.options
        lines = self._head_lines(
            "okey.head", rounds=o["rounds"], preset=msg(f"preset.{o['preset']}")
        )
        game = self.round
        if game is None or self.match is None:
            lines.append(self._waiting_line())
            return lines
        view = game.view(None)
        lines.append(self._indicator_line(view))
        actor = game.to_act()
        for index in range(len(self.staked)):
            points = self.match.totals[index]
            lines.append(self._seat_line("okey.seat", view, index, actor, points=points))
        if actor is not None:
            round_no = self.match.view(None)["rounds_played"] + 1
            lines.append(self._turn_line(actor, round_no, msg(f"okey.phase.{view['phase']}")))
        return lines

    def _public_event(self, event: Event) -> list[Msg]:
        """Public engine events as lines (only fields named here and in `_shared_event` are
        shown)."""
        d = event.data
        kind = event.kind
        if kind == "indicator_shown":
            return [
                msg("okey.shown", name=self.name(d["seat"]), tile=d["tile"], charge=d["charge"])
            ]
        if kind == "finished":
            key = "okey.finished_pairs" if d["seven_pairs"] else "okey.finished"
            lines = [
                msg(key, name=self.name(d["seat"]), tile=d["discard"], melds=show.melds(d["melds"]))
            ]
            if d["okey_discard"]:
                lines.append(msg("okey.okey_discard"))
            return lines
        if kind == "stock_exhausted":
            return [msg("okey.exhausted")]
        return self._shared_event(event)

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
        """Engine seat `index`'s private turn buttons: show, finish with and discard each tile,
        never the tile the table's `takeback` rule keeps in the rack this turn."""
        game = self.round
        assert game is not None
        view = game.view(index)
        rack = view["hand"]
        forbidden = view["forbidden_discard"]
        out: list[ButtonSpec] = []
        if spec_for(game.legal_actions(index), "show_indicator"):
            out.append(ButtonSpec(SHOW, msg("btn.show")))
        for tile in sorted(set(winning_discards(rack, game.indicator)) - {forbidden}):
            out.append(
                ButtonSpec(Action("finish", cards=(tile,)), msg("btn.finish", tile=tile), "success")
            )
        for tile in arrange(rack, game.indicator).tiles():
            if len(out) >= MAX_BUTTONS:
                break
            discard = Action("discard", cards=(tile,))
            if tile != forbidden and discard not in {b.move for b in out}:
                out.append(ButtonSpec(discard, msg("btn.discard", tile=tile)))
        return out

    def _rack_lines(self, index: int, mode: str = "runs") -> list[Msg]:
        game = self.match.round if self.match is not None else None
        assert game is not None
        view = game.view(index)
        rack = view["hand"]
        layout = arrange(rack, game.indicator, mode)
        lines = [
            msg("okey.your_rack", tiles=show.tiles(sorted(rack, key=rack_order)), count=len(rack)),
            msg(
                "okey.layout",
                melds=show.melds(layout.melds) or "—",
                loose=show.tiles(layout.loose) or "—",
            ),
            msg("okey.okey_is", okey=game.okey),
        ]
        if view["forbidden_discard"]:
            lines.append(msg("okey.no_takeback", tile=view["forbidden_discard"]))
        return lines

    def private_buttons(self, index: int) -> list[ButtonSpec]:
        """The tile buttons while the seat at `index` must discard (as on their turn's rack)."""
        engine_index = self.engine_seat(self.seats[index].player_id)
        seat = self.seats[index]
        if engine_index is None or not self._turn_of(engine_index) or seat.bot or seat.away:
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
        o = self.options
        return [
            msg(
                "okey.rules",
                stake=o["stake"],
                rounds=o["rounds"],
                preset=msg(f"preset.{o['preset']}"),
            ),
            msg(f"rules.okey.{o['preset']}"),
            *house.rules_lines(self.game, self.group, o, self.pending),
        ]

    def _rack_sketch(self, index: int, mode: str = "runs") -> Sketch | None:
        """The rack picture of engine seat `index` from their own view, when pictures are on."""
        game = self.round
        seat = self.seat_of(index)
        if game is None or not self.draws_for(seat):
            return None
        return pictures.okey_rack(game.view(index), seat.locale, mode)

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
