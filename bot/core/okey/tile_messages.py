"""What the classic and the 101 Okey tables say alike, as pure functions of data: the public
events both games have (`TilePresenter`, `shared_event`), the table message's header, waiting,
indicator, seat and turn lines (of a `TileTable` record) and `/verify`. `TileMessages`, on the
tile-table base, calls them with a table's state and keeps a player's rack note. Each game's own
messages build the rest (`bot.core.okey.messages`, `bot.core.okey101.messages`). Tiles a player
holds only ever go to that player.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.table import house
from bot.core.table.fairness import check_seed
from bot.core.table.kept import away_note
from bot.core.table.session import Msg, Seat, msg
from bot.render import text as show
from games.base import Event, seed_from_hex
from games.okey.common import TileRound


def rack_order(tile: str) -> tuple[int, int]:
    """Tiles by colour (red, yellow, blue, black), then number; the false okey last."""
    if tile == "F":
        return (9, 0)
    return ("RYBK".index(tile[0]), int(tile[1:]))


@dataclass(frozen=True)
class TileTable:
    """What a tile table's message is built from: the table's game, id and options, its seats
    (who waits between rounds), the match's players by engine seat, the round's public view
    (None while no round is played), the engine seat to act, the match totals by engine seat
    and the round's number."""

    game: str
    table_id: int
    options: dict[str, Any]
    seats: Sequence[Seat]
    players: Sequence[Seat]
    view: dict[str, Any] | None
    actor: int | None
    totals: Sequence[int]
    round_no: int


def head_lines(table: TileTable, head: str, **params: Any) -> list[Msg]:
    """The table's header (`head`, or `head`_tournament at a tournament table) with the game's
    own `params`, then the house rules in force, if any."""
    o = table.options
    key = f"{head}_tournament" if o.get("tournament") else head
    lines = [
        msg(
            key,
            table=table.table_id,
            stake=o["stake"],
            **params,
            tournament=o.get("tournament"),
            slot=o.get("slot"),
        )
    ]
    rules = house.summary(table.game, o)
    if rules is not None:
        lines.append(rules)
    return lines


def waiting_line(seats: Sequence[Seat]) -> Msg:
    """Who is seated while no round is played."""
    names = ", ".join(s.name for s in seats) or "—"
    return msg("okey.waiting", names=names, count=len(seats))


def indicator_line(view: dict[str, Any]) -> Msg:
    """The round's indicator, okey and stock size (from its public view)."""
    return msg(
        "okey.indicator", indicator=view["indicator"], okey=view["okey"], stock=view["stock"]
    )


def seat_line(
    key: str, view: dict[str, Any], index: int, actor: int | None, seat: Seat, **params: Any
) -> Msg:
    """Engine seat `index`'s line (`key`) from the round's public view: the turn marker, the
    name, the rack's size, the top discard, the game's own `params` (its total, ...), and a
    computer player's level or an away player."""
    pile = view["discard_piles"][index]
    notes: list[Msg] = []
    if seat.bot:
        notes.append(msg("seat.bot_level", level=msg(f"level.{seat.level}")))
    if seat.away:
        notes.append(away_note(seat))
    return msg(
        key,
        marker="▶" if index == actor else "·",
        name=seat.name,
        tiles=view["rack_sizes"][index],
        top=pile[-1] if pile else "—",
        **params,
        notes=notes,
    )


def turn_line(table: TileTable, phase: Msg) -> Msg:
    """Whose turn it is, in which round and phase."""
    assert table.actor is not None
    name = table.players[table.actor].name
    return msg("okey.turn", name=name, round=table.round_no, phase=phase)


class TilePresenter:
    """Tile game events in words, pure: `describe(event, names, locale)` for a public event
    (`names`: the players of the match's engine seats, in seat order) and `own(event)` for a
    player's own; each game adds its events (`bot.core.okey.messages.OkeyPresenter`,
    `bot.core.okey101.messages.Okey101Presenter`) to the ones both say alike."""

    def describe(self, event: Event, names: Sequence[str], locale: str) -> list[Msg]:
        """One public engine event as lines (only the fields named here are shown)."""
        return shared_event(event, names)

    def own(self, event: Event) -> list[Msg]:
        """A player's own event as lines: the tile they drew (their rack is told apart)."""
        if event.kind == "drew":
            return [msg("okey.you_drew", tile=event.data["tile"])]
        return []


def shared_event(event: Event, names: Sequence[str]) -> list[Msg]:
    """The public events both games say alike as lines (the round's start, a take, a discard,
    the match's totals and end); none for another event."""
    d = event.data
    kind = event.kind
    if kind == "round_started":
        return [
            msg(
                "okey.started",
                starter=names[d["starter"]],
                indicator=d["indicator"],
                okey=d["okey"],
            ),
            msg("okey.hash", hash=d["seed_hash"]),
        ]
    if kind == "took":
        if d["source"] == "discard":
            return [msg("okey.took_discard", name=names[d["seat"]], tile=d["tile"])]
        return [msg("okey.took_stock", name=names[d["seat"]])]
    if kind == "discarded":
        return [msg("okey.discarded", name=names[d["seat"]], tile=d["tile"])]
    if kind == "match_totals":
        totals = ", ".join(f"{names[i]} {t}" for i, t in enumerate(d["totals"]))
        return [msg("okey.totals", totals=totals)]
    if kind == "match_over":
        return [msg("okey.match_over", names=", ".join(names[s] for s in d["winners"]))]
    return []


def verify_lines(
    round_type: type[TileRound], info: dict[str, Any], seed_hex: str, posted_hash: str
) -> list[Msg]:
    """Deal a round of `round_type` again from its seed: the starter, the indicator and every
    rack."""
    lines = [msg("verify.ok" if check_seed(seed_hex, posted_hash) else "verify.bad")]
    players = info["players"]
    again = round_type.new(
        [str(i) for i in range(len(players))], seed_from_hex(seed_hex), info["options"]
    )
    lines.append(msg("verify.okey", starter=players[again.starter], indicator=again.indicator))
    lines += [
        msg("verify.rack", name=name, tiles=show.tiles(sorted(again.racks[i], key=rack_order)))
        for i, name in enumerate(players)
    ]
    return lines
