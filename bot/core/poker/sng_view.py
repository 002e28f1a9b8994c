"""What a sit-and-go table's web page shows of its tournament (`TournamentView`), as a pure
function of the table's data: the ante level, the next one and when it starts on the table's
clock, the starting chips and the standing (those still in by chips, then the eliminated, the
last one out first), with forfeited seats marked. The chat's table message says the same in
words (`bot.core.poker.sng_messages`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from bot.core.api import StandingView, TournamentView
from bot.core.poker import sng
from bot.core.table.session import Seat, TableOutcome

KIND = "sng"


def sng_view(
    options: Mapping[str, Any],
    seats: Sequence[Seat],
    outcome: TableOutcome,
    out: Sequence[Mapping[str, Any]],
    forfeits: Sequence[int],
    level: tuple[datetime, int, datetime] | None,
) -> TournamentView:
    """The tournament as the table shows it: `options` the table's (`tournament`, `chips`,
    `level_seconds`, `antes`, the running `ante`), `seats` those still in, `outcome` the
    current order with each one's chips, `out` the eliminated (first out first), `forfeits`
    the player ids who left; `level` (when the first hand was dealt, the running level, the
    table's clock), None before the first hand and once the table has closed."""
    index = {seat.player_id: i for i, seat in enumerate(seats)}
    gone = {o["player"]: o for o in out}
    standing = []
    for pid in outcome.order:
        forfeit = pid in forfeits
        if pid in index:
            seat = seats[index[pid]]
            chips = outcome.figures.get(pid, {}).get("chips", 0)
            standing.append(StandingView(seat.name, index[pid], chips, forfeit=forfeit))
        elif pid in gone:
            o = gone[pid]
            standing.append(StandingView(o["name"], None, 0, o["place"], forfeit=forfeit))
    chips = int(options["chips"])
    ante = next_ante = number = None
    next_level: datetime | None = None
    if level is not None:
        started, running, now = level
        seconds = int(options["level_seconds"])
        reached = sng.level_at(started, now, seconds)
        number, ante = running + 1, int(options["ante"])
        if reached > running:  # the clock is past the level: the next hand deals at it
            next_ante = sng.ante_for(reached, chips, options.get("antes"))
        else:
            next_ante = sng.ante_for(running + 1, chips, options.get("antes"))
            next_level = started + timedelta(seconds=(running + 1) * seconds)
    return TournamentView(
        id=int(options["tournament"]),
        kind=KIND,
        level=number,
        ante=ante,
        next_ante=next_ante,
        next_level=next_level,
        chips=chips,
        entrants=len(seats) + len(out),
        standing=tuple(standing),
    )
