"""What an Okey table says and shows, as pure functions of data: each engine event in words
(`OkeyPresenter`), the table message (`table_lines` of a `TileTable`) and its take buttons, a
player's own rack (its lines and tile buttons, from the round) and the rules; what the 101 table
says alike (seat lines, shared events, `/verify`) is in `bot.core.okey.tile_messages`. Tiles a
player holds only ever go to that player.

`OkeyMessages`, a base of `bot.core.okey.session.OkeySession` on the tile-table base, calls
them with the table's state (and keeps the notes and pictures that need the session).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.okey.tile_messages import (
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
from bot.core.table import house
from bot.core.table.session import ButtonSpec, Msg, msg, spec_for
from bot.render import text as show
from games.base import Action, Event
from games.okey import OkeyRound, arrange, winning_discards

SHOW = Action("show_indicator")
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
        out.append(ButtonSpec(Action("take", source="stock"), msg("btn.take_stock"), "primary"))
    if "discard" in sources:
        pile = game.view(None)["discard_piles"][game.previous(index)]
        out.append(
            ButtonSpec(Action("take", source="discard"), msg("btn.take_discard", tile=pile[-1]))
        )
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
