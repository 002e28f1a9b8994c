"""What the classic and the 101 Okey tables say alike (`TileMessages`): the table message's
header, waiting, indicator, seat and turn lines, the public events both games have, the match
totals, a player's rack note and `/verify`. Each game's own messages build the rest
(`bot.core.okey.messages`, `bot.core.okey101.messages`). Tiles a player holds only ever go to
that player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from bot.core.sketch import Sketch
from bot.core.table import house
from bot.core.table.fairness import check_seed
from bot.core.table.session import ButtonSpec, Msg, Note, Seat, TableSession, msg
from bot.render import text as show
from games.base import Event, seed_from_hex
from games.okey.common import TileRound


def rack_order(tile: str) -> tuple[int, int]:
    """Tiles by colour (red, yellow, blue, black), then number; the false okey last."""
    if tile == "F":
        return (9, 0)
    return ("RYBK".index(tile[0]), int(tile[1:]))


class TileMessages(TableSession):
    """The lines both Okey tables share (mixed into their sessions); subclasses set
    `round_type` (the round `/verify` deals again) and build a rack's lines and picture."""

    round_type: ClassVar[type[TileRound]]
    staked: list[int]

    if TYPE_CHECKING:  # provided by `bot.core.okey.tile_session.TileSession`

        def seat_of(self, index: int) -> Seat: ...

        def name(self, index: int) -> str: ...

    # --- the table message ----------------------------------------------------------------------

    def _head_lines(self, head: str, **params: Any) -> list[Msg]:
        """The table's header (`head`, or `head`_tournament at a tournament table) with the
        game's own `params`, then the house rules in force, if any."""
        o = self.options
        key = f"{head}_tournament" if o.get("tournament") else head
        lines = [
            msg(
                key,
                table=self.table_id,
                stake=o["stake"],
                **params,
                tournament=o.get("tournament"),
                slot=o.get("slot"),
            )
        ]
        rules = house.summary(self.game, o)
        if rules is not None:
            lines.append(rules)
        return lines

    def _waiting_line(self) -> Msg:
        """Who is seated while no round is played."""
        names = ", ".join(s.name for s in self.seats) or "—"
        return msg("okey.waiting", names=names, count=len(self.seats))

    @staticmethod
    def _indicator_line(view: dict[str, Any]) -> Msg:
        """The round's indicator, okey and stock size (from its public view)."""
        return msg(
            "okey.indicator",
            indicator=view["indicator"],
            okey=view["okey"],
            stock=view["stock"],
        )

    def _seat_line(
        self, key: str, view: dict[str, Any], index: int, actor: int | None, **params: Any
    ) -> Msg:
        """Engine seat `index`'s line (`key`) from the round's public view: the turn marker, the
        name, the rack's size, the top discard, the game's own `params` (its total, ...), and a
        computer player's level or an away player."""
        seat = self.seat_of(index)
        pile = view["discard_piles"][index]
        notes: list[Msg] = []
        if seat.bot:
            notes.append(msg("seat.bot_level", level=msg(f"level.{seat.level}")))
        if seat.away:
            notes.append(msg("seat.away"))
        return msg(
            key,
            marker="▶" if index == actor else "·",
            name=seat.name,
            tiles=view["rack_sizes"][index],
            top=pile[-1] if pile else "—",
            **params,
            notes=notes,
        )

    def _turn_line(self, actor: int, round_no: int, phase: Msg) -> Msg:
        """Whose turn it is, in which round and phase."""
        return msg("okey.turn", name=self.name(actor), round=round_no, phase=phase)

    # --- events ---------------------------------------------------------------------------------

    def _shared_event(self, event: Event) -> list[Msg]:
        """The public events both games say alike as lines (the round's start, a take, a
        discard, the match's totals and end); none for another event."""
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
        if kind == "match_totals":
            return [msg("okey.totals", totals=self._totals(d["totals"]))]
        if kind == "match_over":
            names = ", ".join(self.name(s) for s in d["winners"])
            return [msg("okey.match_over", names=names)]
        return []

    def _totals(self, totals: list[int]) -> str:
        return ", ".join(f"{self.name(i)} {t}" for i, t in enumerate(totals))

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
        """Deal the round again from its seed: the starter, the indicator and every rack."""
        lines = [msg("verify.ok" if check_seed(seed_hex, posted_hash) else "verify.bad")]
        players = info["players"]
        again = cls.round_type.new(
            [str(i) for i in range(len(players))], seed_from_hex(seed_hex), info["options"]
        )
        lines.append(msg("verify.okey", starter=players[again.starter], indicator=again.indicator))
        lines += [
            msg("verify.rack", name=name, tiles=show.tiles(sorted(again.racks[i], key=rack_order)))
            for i, name in enumerate(players)
        ]
        return lines
