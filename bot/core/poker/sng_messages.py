"""What a sit-and-go table says on top of any poker table, as functions of data: the ante level
and the next one, forfeited seats, the eliminated, and the sit-and-go's terms in its rules
(`bot.core.poker.sng_table.SitAndGoSession` calls them with its state).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.poker import sng
from bot.core.table.session import Msg, Seat, msg

AWAY_KEYS = ("seat.away", "seat.kept")  # a forfeited seat is marked as such instead


def table_lines(
    poker: list[Msg],
    seats: Sequence[Seat],
    forfeit_ids: Sequence[int],
    level: Msg | None,
    out: Sequence[dict[str, Any]],
) -> list[Msg]:
    """The poker table's lines (`poker`) with the ante `level` line, forfeited seats marked and
    the eliminated (`out`, first out first) listed; no buy-in line: nobody buys in."""
    lines = [line for line in poker if line.key != "poker.idle"]
    seat_lines = [i for i, line in enumerate(lines) if line.key == "poker.seat"]
    for i, seat in zip(seat_lines, seats, strict=True):
        if seat.player_id in forfeit_ids:
            notes = [n for n in lines[i].params["notes"] if n.key not in AWAY_KEYS]
            lines[i] = msg(
                "poker.seat", **{**lines[i].params, "notes": [*notes, msg("seat.forfeit")]}
            )
    if level is not None:
        lines.insert(1, level)
    if out:
        entries = [
            msg("sng.out_entry", name=o["name"], place=msg(f"ord.{o['place']}"))
            for o in reversed(out)
        ]
        lines.append(msg("sng.out_list", players=entries))
    return lines


def level_line(level: int, ante: int, reached: int, next_ante: int, wait: float) -> Msg:
    """`Level 2: ante 15 · next 25 in 3 min` for the running `level` (0-based) and its `ante`;
    once the clock has `reached` a later level, that the next hand deals at `next_ante`
    (else `next_ante` comes in `wait` seconds)."""
    if reached > level:
        return msg("sng.levels_due", level=level + 1, ante=ante, next=next_ante)
    return msg("sng.levels", level=level + 1, ante=ante, next=next_ante, wait=duration(wait))


def rules_lines(game: str, options: dict[str, Any], players: int, poker: list[Msg]) -> list[Msg]:
    """The sit-and-go's terms (chips, level length, the first antes), then the game's rules and
    house rules as at any poker table (`poker`: a poker table's rules lines)."""
    schedule = ", ".join(
        str(sng.ante_for(level, options["chips"], options["antes"])) for level in range(6)
    )
    terms = msg(
        "sng.rules",
        game=msg(f"game.{game}"),
        chips=options["chips"],
        wait=duration(options["level_seconds"]),
        schedule=schedule,
        structure=msg(f"structure.{options['structure']}"),
        players=players,
    )
    return [terms, *poker[1:]]


def duration(seconds: float) -> Msg:
    """A wait in words: whole minutes (rounded up) from a minute on, else seconds."""
    whole = max(0, int(-(-seconds // 1)))
    if whole >= 60:
        return msg("sng.minutes", n=-(-whole // 60))
    return msg("sng.seconds", n=whole)
