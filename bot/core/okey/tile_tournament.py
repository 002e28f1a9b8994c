"""What a knockout's match table (Okey or 101 Okey) shows on its web page of the tournament
(`TournamentView`), as a pure function of the table's data: the tournament, the table's number
in its stage, the round of the match, and the table's standing (penalty totals, forfeits, who
would go on were the match over now: the better half, rounded up, of the entrants still in, as
the tournament's `Slot.advancing` decides once it is). The chat's table header and the
tournament's living message say the same in words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.core.api import StandingView, TournamentView
from bot.core.table.session import Seat, TableOutcome, is_computer

KIND = "knockout"


def knockout_view(
    options: Mapping[str, Any],
    rounds: int,
    round_no: int | None,
    seats: Sequence[Seat],
    outcome: TableOutcome,
) -> TournamentView:
    """The tournament as the table shows it: `options` the table's (`tournament`, `slot`),
    `rounds` the match's, `round_no` the round being played or the last one (None before the
    first), `seats` the table's, `outcome` its current order (player ids, best first) with each
    one's `penalty` and `forfeit`."""
    index = {seat.player_id: i for i, seat in enumerate(seats)}
    entrants = [s.player_id for s in seats if not is_computer(s)]
    still_in = [
        pid
        for pid in outcome.order
        if pid in entrants and not outcome.figures.get(pid, {}).get("forfeit")
    ]
    advancing = set(still_in[: -(-len(entrants) // 2)])
    standing = []
    for pid in outcome.order:
        if pid not in index:
            continue
        figures = outcome.figures.get(pid, {})
        standing.append(
            StandingView(
                seats[index[pid]].name,
                index[pid],
                int(figures.get("penalty", 0)),
                forfeit=bool(figures.get("forfeit")),
                advancing=pid in advancing,
            )
        )
    return TournamentView(
        id=int(options["tournament"]),
        kind=KIND,
        table=options.get("slot"),
        round=round_no,
        rounds=rounds,
        entrants=len(entrants),
        standing=tuple(standing),
    )
