"""What an Okey table says and shows: the table message and its take buttons, each engine
event in words, a player's own rack (texts, tile buttons and pictures), the rules and `/verify`.
Tiles a player holds only ever go to that player.

`OkeyMessages` is mixed into `bot.core.okey.session.OkeySession`, whose state it reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.core.commands import ARRANGE_MODES, lookup
from bot.core.errors import Refusal
from bot.core.sketch import Sketch
from bot.core.table import house, pictures
from bot.core.table.fairness import check_seed
from bot.core.table.session import ButtonSpec, Msg, Note, Seat, Step, TableSession, msg, spec_for
from bot.render import text as show
from games.base import Event, seed_from_hex
from games.okey import OkeyMatch, OkeyRound, arrange, winning_discards

MAX_BUTTONS = 25  # Discord's limit per message


class OkeyMessages(TableSession):
    """The Okey table's lines, buttons and pictures (mixed into `OkeySession`)."""

    # the state of `OkeySession` these are built from
    match: OkeyMatch | None
    staked: list[int]

    if TYPE_CHECKING:  # provided by `OkeySession`

        @property
        def round(self) -> OkeyRound | None: ...

        def seat_of(self, index: int) -> Seat: ...

        def name(self, index: int) -> str: ...

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
            out.append(ButtonSpec("ts", msg("btn.take_stock"), "primary"))
        if "discard" in sources:
            pile = game.view(None)["discard_piles"][game.previous(index)]
            out.append(ButtonSpec("td", msg("btn.take_discard", tile=pile[-1])))
        # no "show the indicator" here: offered only to its holder it would tell the table who
        # holds the twin; `_turn_note` offers it privately
        return out

    def table_lines(self) -> list[Msg]:
        """Header, indicator, seats with rack sizes and top discards, totals, whose turn."""
        o = self.options
        head = "okey.head_tournament" if o.get("tournament") else "okey.head"
        lines = [
            msg(
                head,
                table=self.table_id,
                stake=o["stake"],
                rounds=o["rounds"],
                preset=msg(f"preset.{o['preset']}"),
                tournament=o.get("tournament"),
                slot=o.get("slot"),
            )
        ]
        rules = house.summary(self.game, o)
        if rules is not None:
            lines.append(rules)
        game = self.round
        if game is None or self.match is None:
            names = ", ".join(s.name for s in self.seats) or "—"
            lines.append(msg("okey.waiting", names=names, count=len(self.seats)))
            return lines
        view = game.view(None)
        lines.append(
            msg(
                "okey.indicator",
                indicator=view["indicator"],
                okey=view["okey"],
                stock=view["stock"],
            )
        )
        actor = game.to_act()
        for index in range(len(self.staked)):
            seat = self.seat_of(index)
            pile = view["discard_piles"][index]
            notes: list[Msg] = []
            if seat.bot:
                notes.append(msg("seat.bot_level", level=msg(f"level.{seat.level}")))
            if seat.away:
                notes.append(msg("seat.away"))
            lines.append(
                msg(
                    "okey.seat",
                    marker="▶" if index == actor else "·",
                    name=seat.name,
                    tiles=view["rack_sizes"][index],
                    top=pile[-1] if pile else "—",
                    points=self.match.totals[index],
                    notes=notes,
                )
            )
        if actor is not None:
            lines.append(
                msg(
                    "okey.turn",
                    name=self.name(actor),
                    round=self.match.view(None)["rounds_played"] + 1,
                    phase=msg(f"okey.phase.{view['phase']}"),
                )
            )
        return lines

    def _public_event(self, event: Event) -> list[Msg]:
        """Public engine events as lines (only fields named here are shown)."""
        d = event.data
        kind = event.kind
        if kind == "round_started":
            return [
                msg(
                    "okey.started",
                    starter=self.name(d["starter"]),
                    indicator=d["indicator"],
                    okey=d["okey"],
                ),
                msg("okey.hash", hash=d["seed_hash"]),
            ]
        if kind == "took":
            if d["source"] == "discard":
                return [msg("okey.took_discard", name=self.name(d["seat"]), tile=d["tile"])]
            return [msg("okey.took_stock", name=self.name(d["seat"]))]
        if kind == "discarded":
            return [msg("okey.discarded", name=self.name(d["seat"]), tile=d["tile"])]
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
        if kind == "match_totals":
            return [msg("okey.totals", totals=self._totals(d["totals"]))]
        if kind == "match_over":
            names = ", ".join(self.name(s) for s in d["winners"])
            return [msg("okey.match_over", names=names)]
        return []

    def _totals(self, totals: list[int]) -> str:
        return ", ".join(f"{self.name(i)} {t}" for i, t in enumerate(totals))

    def _rack_note(
        self, index: int, lead: list[Msg] | None = None, buttons: list[ButtonSpec] | None = None
    ) -> Note:
        """Engine seat `index`'s rack as it is now, privately, in the round's slot."""
        lines = [*(lead or []), *self._rack_lines(index)]
        return self.tell_hand(
            self.seat_of(index), lines, buttons=buttons or [], picture=self._rack_sketch(index)
        )

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
        """Engine seat `index`'s private turn buttons: show, finish with and discard each tile,
        never the tile the table's `takeback` rule keeps in the rack this turn."""
        game = self.round
        assert game is not None
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

    def _rack_lines(self, index: int, mode: str = "runs") -> list[Msg]:
        game = self.match.round if self.match is not None else None
        assert game is not None
        view = game.view(index)
        rack = view["hand"]
        layout = arrange(rack, game.indicator, mode)
        lines = [
            msg("okey.your_rack", tiles=show.tiles(sorted(rack, key=_tile_order)), count=len(rack)),
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

    @classmethod
    def verify_lines(cls, info: dict[str, Any], seed_hex: str, posted_hash: str) -> list[Msg]:
        """Deal the round again from its seed: the starter, the indicator and every rack."""
        lines = [msg("verify.ok" if check_seed(seed_hex, posted_hash) else "verify.bad")]
        players = info["players"]
        again = OkeyRound.new(
            [str(i) for i in range(len(players))], seed_from_hex(seed_hex), info["options"]
        )
        lines.append(msg("verify.okey", starter=players[again.starter], indicator=again.indicator))
        lines += [
            msg("verify.rack", name=name, tiles=show.tiles(sorted(again.racks[i], key=_tile_order)))
            for i, name in enumerate(players)
        ]
        return lines


def _tile_order(tile: str) -> tuple[int, int]:
    if tile == "F":
        return (9, 0)
    return ("RYBK".index(tile[0]), int(tile[1:]))
