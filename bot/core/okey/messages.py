"""What an Okey table says and shows: the table message and its take buttons, each engine
event in words, a player's own rack (texts, tile buttons and pictures) and the rules; what the
101 table says alike (seat lines, shared events, `/verify`) is in `bot.core.okey.tile_messages`.
Tiles a player holds only ever go to that player.

`OkeyMessages` is mixed into `bot.core.okey.session.OkeySession`, whose state it reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.core.commands import ARRANGE_MODES, lookup
from bot.core.errors import Refusal
from bot.core.okey.tile_messages import (
    TileMessages,
    TilePresenter,
    TileTable,
    head_lines,
    indicator_line,
    rack_order,
    seat_line,
    shared_event,
    turn_line,
    waiting_line,
)
from bot.core.sketch import Sketch
from bot.core.table import house, pictures
from bot.core.table.session import ButtonSpec, Msg, Note, Step, msg, spec_for
from bot.render import text as show
from games.base import Event
from games.okey import OkeyMatch, OkeyRound, arrange, winning_discards

MAX_BUTTONS = 25  # Discord's limit per message


class OkeyPresenter(TilePresenter):
    """Classic Okey events in words (pure: see `TilePresenter`)."""

    def describe(self, event: Event, names: Sequence[str], locale: str) -> list[Msg]:
        """Public engine events as lines (only fields named here and in `shared_event` are
        shown)."""
        d = event.data
        kind = event.kind
        if kind == "indicator_shown":
            return [msg("okey.shown", name=names[d["seat"]], tile=d["tile"], charge=d["charge"])]
        if kind == "finished":
            key = "okey.finished_pairs" if d["seven_pairs"] else "okey.finished"
            lines = [
                msg(key, name=names[d["seat"]], tile=d["discard"], melds=show.melds(d["melds"]))
            ]
            if d["okey_discard"]:
                lines.append(msg("okey.okey_discard"))
            return lines
        if kind == "stock_exhausted":
            return [msg("okey.exhausted")]
        return shared_event(event, names)


PRESENTER = OkeyPresenter()


def table_lines(table: TileTable) -> list[Msg]:
    """Header, indicator, seats with rack sizes and top discards, totals, whose turn."""
    o = table.options
    lines = head_lines(table, "okey.head", rounds=o["rounds"], preset=msg(f"preset.{o['preset']}"))
    view = table.view
    if view is None:
        lines.append(waiting_line(table.seats))
        return lines
    lines.append(indicator_line(view))
    for index, seat in enumerate(table.players):
        points = table.totals[index]
        lines.append(seat_line("okey.seat", view, index, table.actor, seat, points=points))
    if table.actor is not None:
        lines.append(turn_line(table, msg(f"okey.phase.{view['phase']}")))
    return lines


def public_buttons(game: OkeyRound) -> list[ButtonSpec]:
    """Public turn buttons: take from the stock or the discard (never a tile of a rack)."""
    index = game.to_act()
    assert index is not None
    out = []
    sources = game.sources(index)
    if "stock" in sources:
        out.append(ButtonSpec("ts", msg("btn.take_stock"), "primary"))
    if "discard" in sources:
        pile = game.view(None)["discard_piles"][game.previous(index)]
        out.append(ButtonSpec("td", msg("btn.take_discard", tile=pile[-1])))
    # no "show the indicator" here: offered only to its holder it would tell the table who
    # holds the twin; the turn's private note offers it
    return out


def tile_buttons(game: OkeyRound, index: int) -> list[ButtonSpec]:
    """Engine seat `index`'s private turn buttons: show, finish with and discard each tile,
    never the tile the table's `takeback` rule keeps in the rack this turn."""
    view = game.view(index)
    rack = view["hand"]
    forbidden = view["forbidden_discard"]
    out: list[ButtonSpec] = []
    if spec_for(game.legal_actions(index), "show_indicator"):
        out.append(ButtonSpec("show", msg("btn.show")))
    for tile in sorted(set(winning_discards(rack, game.indicator)) - {forbidden}):
        out.append(ButtonSpec(f"f.{tile}", msg("btn.finish", tile=tile), "success"))
    for tile in arrange(rack, game.indicator).tiles():
        if len(out) >= MAX_BUTTONS:
            break
        if tile != forbidden and f"d.{tile}" not in {b.action for b in out}:
            out.append(ButtonSpec(f"d.{tile}", msg("btn.discard", tile=tile)))
    return out


def rack_lines(game: OkeyRound, index: int, mode: str = "runs") -> list[Msg]:
    """Engine seat `index`'s rack in words (from its own view): the tiles, laid out in runs or
    pairs (`mode`), the okey and the tile the `takeback` rule keeps this turn."""
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


def rules_lines(
    game: str, group: str, options: dict[str, Any], pending: dict[str, Any]
) -> list[Msg]:
    """The table's options: stake, rounds and scoring, then every house rule with its value
    and meaning."""
    return [
        msg(
            "okey.rules",
            stake=options["stake"],
            rounds=options["rounds"],
            preset=msg(f"preset.{options['preset']}"),
        ),
        msg(f"rules.okey.{options['preset']}"),
        *house.rules_lines(game, group, options, pending),
    ]


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
                    Note([line], to=seat, buttons=[ButtonSpec("show", msg("btn.show"))])
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
        return rules_lines(self.game, self.group, self.options, self.pending)

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
