"""What a 101 table says and shows: the table message (seats, who opened how, the melds lying on
the table, this round's penalties) and its one public button, each engine event in words, a
player's own rack with its one-press buttons (open with the best melds or with pairs, take the
discard and open, lay, add, discard with the +101 warning, finish) and pictures, and the rules;
what the classic table says alike (seat lines, shared events, `/verify`) is in
`bot.core.okey.tile_messages`. Tiles a player holds only ever go to that player.

`Okey101Messages` is mixed into `bot.core.okey101.session.Okey101Session`, whose state it reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.core.errors import Refusal
from bot.core.messages import MELDS, TILES, Pick, Picker, Prompt
from bot.core.moves import PickMeld, Plan
from bot.core.okey.tile_messages import TileMessages, rack_order
from bot.core.okey101 import plays
from bot.core.sketch import Sketch
from bot.core.table import house, pictures
from bot.core.table.session import ButtonSpec, Msg, Note, msg
from bot.render import text as show
from games.base import Action, Event
from games.okey101 import Match101, Round101
from games.okey101.round import PAIRS, TAKE

MAX_BUTTONS = 25  # Discord's limit per message
# public events announced in a message of their own; every other public event is a move
TAKE_STOCK = Action("take", source="stock")
ANNOUNCED_EVENTS = ("round_started", "finished", "stock_exhausted", "round_over", "match_over")


def meld_text(meld: dict[str, Any]) -> str:
    """A meld's tiles as the table shows them: `R3 R4 R5`."""
    return show.tiles(meld["tiles"])


class Okey101Messages(TileMessages):
    """The 101 table's lines, buttons and pictures (mixed into `Okey101Session`)."""

    round_type = Round101
    match: Match101 | None

    if TYPE_CHECKING:  # provided by `Okey101Session`

        @property
        def game101(self) -> Round101 | None: ...

        def engine_seat(self, player_id: int) -> int | None: ...

    # --- the table message ----------------------------------------------------------------------

    def buttons(self) -> list[ButtonSpec]:
        """The public turn button: draw from the stock (what else the player may do with the
        previous discard is theirs to know: it comes privately)."""
        game = self.game101
        if game is None or game.phase != TAKE:
            return []
        return [ButtonSpec(TAKE_STOCK, msg("btn.take_stock"), "primary")]

    def table_lines(self) -> list[Msg]:
        """Header, indicator, seats (tiles, top discard, opening, totals), the melds on the
        table, this round's penalties, whose turn."""
        o = self.options
        lines = self._head_lines("okey101.head", rounds=o["rounds101"], open=o["open"])
        game = self.game101
        if game is None or self.match is None:
            lines.append(self._waiting_line())
            return lines
        view = game.view(None)
        lines.append(self._indicator_line(view))
        actor = game.to_act()
        for index in range(len(self.staked)):
            opened, points = self._opening(view, index), self.match.totals[index]
            lines.append(
                self._seat_line("okey101.seat", view, index, actor, opened=opened, points=points)
            )
        lines += self._meld_lines(view)
        charged = [(i, p) for i, p in enumerate(view["penalties"]) if p]
        if charged:
            items = ", ".join(f"{self.name(i)} +{p}" for i, p in charged)
            lines.append(msg("okey101.penalties", items=items))
        if actor is not None:
            phase = msg(f"okey101.phase.{view['phase']}")
            lines.append(self._turn_line(actor, len(self.match.history) + 1, phase))
        return lines

    def _opening(self, view: dict[str, Any], index: int) -> Msg:
        how = view["opened"][index]
        if how is None:
            return msg("okey101.not_opened")
        if how == PAIRS:
            pairs = sum(1 for m in view["table"] if m["owner"] == index and m["kind"] == "pair")
            return msg("okey101.opened_pairs", pairs=pairs)
        return msg("okey101.opened_series", value=view["opening_values"][index])

    def _meld_lines(self, view: dict[str, Any]) -> list[Msg]:
        table = view["table"]
        if not table:
            return [msg("okey101.no_melds")]
        items = " · ".join(
            f"{k}) {meld_text(m)} ({self.name(m['owner'])})" for k, m in enumerate(table, start=1)
        )
        return [msg("okey101.melds", items=items)]

    # --- events -----------------------------------------------------------------------------

    def _public_event(self, event: Event) -> list[Msg]:
        """Public engine events as lines (only fields named here and in `_shared_event` are
        shown)."""
        d = event.data
        kind = event.kind
        if kind == "opened":
            melds = show.melds([m["tiles"] for m in d["melds"]])
            if d["how"] == PAIRS:
                key, count = "okey101.opened_with_pairs", len(d["melds"])
                return [msg(key, name=self.name(d["seat"]), pairs=count, melds=melds)]
            return [
                msg("okey101.opened_with_series", name=self.name(d["seat"]), value=d["value"]),
                msg("okey101.laid_melds", melds=melds),
            ]
        if kind == "laid":
            melds = show.melds([m["tiles"] for m in d["melds"]])
            return [msg("okey101.laid", name=self.name(d["seat"]), melds=melds)]
        if kind == "added":
            return [
                msg(
                    "okey101.added",
                    name=self.name(d["seat"]),
                    tile=d["tile"],
                    meld=d["meld"] + 1,
                    to=meld_text(d["to"]),
                )
            ]
        if kind == "swapped":
            return [
                msg(
                    "okey101.swapped", name=self.name(d["seat"]), tile=d["tile"], meld=d["meld"] + 1
                )
            ]
        if kind == "penalty":
            reason = msg(f"okey101.reason.{d['reason']}")
            return [
                msg(
                    "okey101.penalty",
                    name=self.name(d["seat"]),
                    tile=d["tile"],
                    points=d["points"],
                    reason=reason,
                )
            ]
        if kind == "finished":
            lines = [msg("okey101.finished", name=self.name(d["seat"]), tile=d["discard"])]
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
            scores = ", ".join(f"{self.name(i)} {s:+d}" for i, s in enumerate(d["penalties"]))
            return [msg("okey101.round_scores", scores=scores)]
        return self._shared_event(event)

    # --- a player's rack --------------------------------------------------------------------

    def _rack_lines(self, index: int) -> list[Msg]:
        game = self.game101
        if game is None:
            raise Refusal("err.no_round")
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
        warned = sorted(
            {t for t in rack if plays.warning(game, index, t) is not None}, key=rack_order
        )
        if warned and len(rack) > 1:
            lines.append(msg("okey101.warned_tiles", tiles=show.tiles(warned)))
        return lines

    def _turn_buttons(self, index: int) -> list[ButtonSpec]:
        """Engine seat `index`'s private turn buttons: in the take phase the ways to take the
        previous discard with the move that uses it; after the draw the laying moves, then a
        discard button per tile (or the finish)."""
        game = self.game101
        assert game is not None
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

    def _turn_note(self, lead: list[Msg] | None = None) -> Note | None:
        """The rack of the player to act with their turn buttons, privately; None for a
        computer or away seat, and in the take phase when the previous discard is of no use to
        them (the table's public button draws)."""
        game = self.game101
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
        """The add picker, privately: the tiles that fit the table (`a.<tile>`, with a tiles
        picker), or for one tile the melds it fits (`a.<tile>.<k>`, with a melds picker);
        wild swaps are offered beside (`s.<tile>.<k>`)."""
        game = self.game101
        assert game is not None
        seat = self.seat_of(index)
        adds = plays.additions(game, index)
        swaps = plays.swaps(game, index)
        if tile is None:
            tiles = list(dict.fromkeys(t for t, _ in adds))
            buttons = [
                ButtonSpec(PickMeld(t), msg("btn.discard", tile=t), "primary") for t in tiles
            ]
            buttons += [
                ButtonSpec(
                    Action("swap", cards=(t,), amount=k),
                    msg("btn.okey101_swap", tile=t, meld=k + 1),
                )
                for t, k in swaps
            ]
            picker = Picker(TILES, tuple(Pick(t, t) for t in tiles))
            lines = [msg("okey101.pick_tile")]
            prompt = self._add_prompt(TILES, picker, None)
            return Note(lines, to=seat, buttons=buttons[:MAX_BUTTONS], picker=picker, prompt=prompt)
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
        prompt = self._add_prompt(MELDS, picker, tile)
        return Note(lines, to=seat, buttons=buttons[:MAX_BUTTONS], picker=picker, prompt=prompt)

    def _add_prompt(self, kind: str, picker: Picker, tile: str | None) -> Prompt:
        """The add picker as data (`Prompt`): which tile to add, or which meld `tile` goes
        onto (the answer: `PickMeld(tile)`, or the add itself)."""
        return Prompt(
            kind, str(self.table_id), self.nonce, "add", choices=picker.choices, tile=tile
        )

    def private_buttons(self, index: int) -> list[ButtonSpec]:
        """The turn buttons while the seat at `index` is to act (as on their turn's rack)."""
        engine_index = self.engine_seat(self.seats[index].player_id)
        seat = self.seats[index]
        game = self.game101
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
        if engine_index is None or self.game101 is None:
            raise Refusal("err.no_round")
        return self._rack_lines(engine_index)

    def rules_lines(self) -> list[Msg]:
        """The table's options: stake, rounds and the opening, then every house rule with its
        value and meaning."""
        o = self.options
        return [
            msg("okey101.rules", stake=o["stake"], rounds=o["rounds101"], open=o["open"]),
            *house.rules_lines(self.game, self.group, o, self.pending),
        ]

    # --- pictures -----------------------------------------------------------------------------

    def _rack_sketch(self, index: int) -> Sketch | None:
        """The rack picture of engine seat `index` from their own view (the tiles that can be
        laid marked), when pictures are on."""
        game = self.game101
        seat = self.seat_of(index)
        if game is None or not self.draws_for(seat):
            return None
        marked = plays.layable(game, index)
        return pictures.okey101_rack(game.view(index), marked, seat.locale)

    def table_sketch(self) -> Sketch | None:
        """The public table of the round in play (from the match's `view(None)`)."""
        if self.match is None or self.game101 is None or not self.draws_for(None):
            return None
        names = [self.name(i) for i in range(len(self.staked))]
        return pictures.okey101_table(self.match.view(None), names, self.locale)

    def private_sketch(self, index: int, sub: str, args: tuple[str, ...]) -> Sketch | None:
        """`/okey rack`'s picture."""
        engine_index = self.engine_seat(self.seats[index].player_id)
        if engine_index is None or self.game101 is None:
            return None
        return self._rack_sketch(engine_index)
