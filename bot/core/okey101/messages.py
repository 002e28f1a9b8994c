"""What a 101 table says and shows: the table message (seats, who opened how, the melds lying on
the table, this round's penalties) and its one public button, each engine event in words, a
player's own rack with its one-press buttons (open with the best melds or with pairs, take the
discard and open, lay, add, discard with the +101 warning, finish) and pictures, and the rules;
what the classic table says alike (seat lines, shared events, `/verify`) is in
`bot.core.okey.tile_messages`. Tiles a player holds only ever go to that player. Each is a pure
function of data (`Okey101Presenter`, `table_lines` of a `TileTable`, `rack_lines`,
`turn_buttons`, `add_picker`, `rules_lines` of the round and the options).

`Okey101Messages`, a base of `bot.core.okey101.session.Okey101Session` on the tile-table base,
calls them with the table's state (and keeps the notes and pictures that need the session).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.messages import MELDS, TILES, Pick, Picker
from bot.core.moves import PickMeld, Plan
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
from bot.core.okey101 import plays
from bot.core.table import house
from bot.core.table.session import ButtonSpec, Msg, Note, Seat, msg
from bot.render import text as show
from games.base import Action, Event
from games.okey101 import Round101
from games.okey101.round import PAIRS, TAKE

TAKE_STOCK = Action("take", source="stock")
MAX_BUTTONS = 25  # Discord's limit per message
# public events announced in a message of their own; every other public event is a move
ANNOUNCED_EVENTS = ("round_started", "finished", "stock_exhausted", "round_over", "match_over")


def meld_text(meld: dict[str, Any]) -> str:
    """A meld's tiles as the table shows them: `R3 R4 R5`."""
    return show.tiles(meld["tiles"])


class Okey101Presenter(TilePresenter):
    """101 Okey events in words (pure: see `TilePresenter`)."""

    def describe(self, event: Event, names: Sequence[str], locale: str) -> list[Msg]:
        """Public engine events as lines (only fields named here and in `shared_event` are
        shown)."""
        d = event.data
        kind = event.kind
        if kind == "opened":
            melds = show.melds([m["tiles"] for m in d["melds"]])
            if d["how"] == PAIRS:
                key, count = "okey101.opened_with_pairs", len(d["melds"])
                return [msg(key, name=names[d["seat"]], pairs=count, melds=melds)]
            return [
                msg("okey101.opened_with_series", name=names[d["seat"]], value=d["value"]),
                msg("okey101.laid_melds", melds=melds),
            ]
        if kind == "laid":
            melds = show.melds([m["tiles"] for m in d["melds"]])
            return [msg("okey101.laid", name=names[d["seat"]], melds=melds)]
        if kind == "added":
            return [
                msg(
                    "okey101.added",
                    name=names[d["seat"]],
                    tile=d["tile"],
                    meld=d["meld"] + 1,
                    to=meld_text(d["to"]),
                )
            ]
        if kind == "swapped":
            return [
                msg("okey101.swapped", name=names[d["seat"]], tile=d["tile"], meld=d["meld"] + 1)
            ]
        if kind == "penalty":
            reason = msg(f"okey101.reason.{d['reason']}")
            return [
                msg(
                    "okey101.penalty",
                    name=names[d["seat"]],
                    tile=d["tile"],
                    points=d["points"],
                    reason=reason,
                )
            ]
        if kind == "finished":
            lines = [msg("okey101.finished", name=names[d["seat"]], tile=d["discard"])]
            if d["okey_finish"]:
                lines.append(msg("okey101.okey_finish"))
            if d["by_hand"]:
                lines.append(msg("okey101.by_hand"))
            if d["factor"] > 1:
                lines.append(msg("okey101.factor", factor=d["factor"]))
            return lines
        if kind == "stock_exhausted":
            return [msg("okey101.exhausted")]
        if kind == "round_over":
            scores = ", ".join(f"{names[i]} {s:+d}" for i, s in enumerate(d["penalties"]))
            return [msg("okey101.round_scores", scores=scores)]
        return shared_event(event, names)


PRESENTER = Okey101Presenter()


def table_lines(table: TileTable) -> list[Msg]:
    """Header, indicator, seats (tiles, top discard, opening, totals), the melds on the table,
    this round's penalties, whose turn."""
    o = table.options
    lines = head_lines(table, "okey101.head", rounds=o["rounds101"], open=o["open"])
    view = table.view
    if view is None:
        lines.append(waiting_line(table.seats))
        return lines
    lines.append(indicator_line(view))
    for index, seat in enumerate(table.players):
        opened, points = opening(view, index), table.totals[index]
        line = seat_line(
            "okey101.seat", view, index, table.actor, seat, opened=opened, points=points
        )
        lines.append(line)
    names = [seat.name for seat in table.players]
    lines += meld_lines(view, names)
    charged = [(i, p) for i, p in enumerate(view["penalties"]) if p]
    if charged:
        items = ", ".join(f"{names[i]} +{p}" for i, p in charged)
        lines.append(msg("okey101.penalties", items=items))
    if table.actor is not None:
        lines.append(turn_line(table, msg(f"okey101.phase.{view['phase']}")))
    return lines


def opening(view: dict[str, Any], index: int) -> Msg:
    """How engine seat `index` opened (or that it has not), from the round's public view."""
    how = view["opened"][index]
    if how is None:
        return msg("okey101.not_opened")
    if how == PAIRS:
        pairs = sum(1 for m in view["table"] if m["owner"] == index and m["kind"] == "pair")
        return msg("okey101.opened_pairs", pairs=pairs)
    return msg("okey101.opened_series", value=view["opening_values"][index])


def meld_lines(view: dict[str, Any], names: Sequence[str]) -> list[Msg]:
    """The melds lying on the table, numbered, with who laid each."""
    table = view["table"]
    if not table:
        return [msg("okey101.no_melds")]
    items = " · ".join(
        f"{k}) {meld_text(m)} ({names[m['owner']]})" for k, m in enumerate(table, start=1)
    )
    return [msg("okey101.melds", items=items)]


def rack_lines(game: Round101, index: int) -> list[Msg]:
    """Engine seat `index`'s rack in words: the tiles, the okey, the best opening while it has
    not opened, the tiles it can add to the table, and the tiles whose discard would cost it
    (the +101 warning)."""
    rack = game.racks[index]
    okey = game.okey
    best = plays.best(rack, okey)
    lines = [
        msg("okey.your_rack", tiles=show.tiles(sorted(rack, key=rack_order)), count=len(rack)),
        msg("okey.okey_is", okey=okey),
    ]
    if game.opened[index] is None:
        lines.append(
            msg(
                "okey101.best",
                value=best.value,
                need=game.threshold,
                melds=show.melds(best.melds) or "—",
                pairs=best.pairs,
            )
        )
    adds = plays.additions(game, index)
    if adds:
        items = ", ".join(f"{tile}→{k + 1}" for tile, k in adds)
        lines.append(msg("okey101.can_add", items=items))
    warned = sorted({t for t in rack if plays.warning(game, index, t) is not None}, key=rack_order)
    if warned and len(rack) > 1:
        lines.append(msg("okey101.warned_tiles", tiles=show.tiles(warned)))
    return lines


def turn_buttons(game: Round101, index: int) -> list[ButtonSpec]:
    """Engine seat `index`'s private turn buttons: in the take phase the ways to take the
    previous discard with the move that uses it; after the draw the laying moves, then a
    discard button per tile (or the finish)."""
    out: list[ButtonSpec] = []
    if game.phase == TAKE:
        tile = game.last_discard(index)
        out.append(ButtonSpec(TAKE_STOCK, msg("btn.take_stock"), "primary"))
        if tile is None:
            return out
        if game.opened[index] is None:
            plan = plays.open_plan(game, index, plays.SERIES_OPEN, take=True)
            if plan is not None:
                label = msg("btn.okey101_take_open", tile=tile, value=plan.value)
                out.append(ButtonSpec(Plan("take_open_best"), label, "success"))
            plan = plays.open_plan(game, index, plays.PAIRS_OPEN, take=True)
            if plan is not None:
                label = msg("btn.okey101_take_pairs", tile=tile, pairs=plan.value)
                out.append(ButtonSpec(Plan("take_open_pairs"), label, "success"))
        elif plays.use_discard(game, index) is not None:
            out.append(
                ButtonSpec(Plan("take_use"), msg("btn.okey101_take_use", tile=tile), "success")
            )
        return out
    rack = game.racks[index]
    if len(rack) == 1:
        finish = Action("finish", cards=(rack[0],))
        return [ButtonSpec(finish, msg("btn.finish", tile=rack[0]), "success")]
    if game.opened[index] is None:
        plan = plays.open_plan(game, index, plays.SERIES_OPEN)
        if plan is not None:
            label = msg("btn.okey101_open", value=plan.value)
            out.append(ButtonSpec(Plan("open_best"), label, "success"))
        plan = plays.open_plan(game, index, plays.PAIRS_OPEN)
        if plan is not None:
            label = msg("btn.okey101_pairs", pairs=plan.value)
            out.append(ButtonSpec(Plan("open_pairs"), label, "success"))
    else:
        if plays.lay_plan(game, index) is not None:
            out.append(ButtonSpec(Plan("lay_best"), msg("btn.okey101_lay"), "success"))
        if plays.additions(game, index) or plays.swaps(game, index):
            out.append(ButtonSpec(PickMeld(), msg("btn.okey101_add")))
    for tile in sorted(dict.fromkeys(rack), key=rack_order):
        if len(out) >= MAX_BUTTONS:
            break
        warned = plays.warning(game, index, tile) is not None
        key = "btn.okey101_discard_warned" if warned else "btn.discard"
        out.append(
            ButtonSpec(
                Action("discard", cards=(tile,)),
                msg(key, tile=tile),
                "danger" if warned else "secondary",
            )
        )
    return out


def add_picker(game: Round101, index: int, seat: Seat, tile: str | None = None) -> Note:
    """The add picker for engine seat `index`, privately to `seat`: the tiles that fit the table (`a.<tile>`, with a tiles
    picker), or for one tile the melds it fits (`a.<tile>.<k>`, with a melds picker);
    wild swaps are offered beside (`s.<tile>.<k>`)."""
    adds = plays.additions(game, index)
    swaps = plays.swaps(game, index)
    if tile is None:
        tiles = list(dict.fromkeys(t for t, _ in adds))
        buttons = [ButtonSpec(PickMeld(t), msg("btn.discard", tile=t), "primary") for t in tiles]
        buttons += [
            ButtonSpec(
                Action("swap", cards=(t,), amount=k),
                msg("btn.okey101_swap", tile=t, meld=k + 1),
            )
            for t, k in swaps
        ]
        picker = Picker(TILES, tuple(Pick(t, t) for t in tiles))
        lines = [msg("okey101.pick_tile")]
        return Note(lines, to=seat, buttons=buttons[:MAX_BUTTONS], picker=picker)
    melds = [k for t, k in adds if t == tile]
    view = game.view(None)
    buttons = [
        ButtonSpec(
            Action("add", cards=(tile,), amount=k),
            msg("btn.okey101_to_meld", meld=k + 1, tiles=meld_text(view["table"][k])),
            "primary",
        )
        for k in melds
    ]
    picker = Picker(
        MELDS,
        tuple(Pick(str(k), f"{k + 1}) {meld_text(view['table'][k])}") for k in melds),
    )
    lines = [msg("okey101.pick_meld", tile=tile)]
    return Note(lines, to=seat, buttons=buttons[:MAX_BUTTONS], picker=picker)


def rules_lines(
    game: str, group: str, options: dict[str, Any], pending: dict[str, Any]
) -> list[Msg]:
    """The table's options: stake, rounds and the opening, then every house rule with its
    value and meaning."""
    o = options
    return [
        msg("okey101.rules", stake=o["stake"], rounds=o["rounds101"], open=o["open"]),
        *house.rules_lines(game, group, o, pending),
    ]
