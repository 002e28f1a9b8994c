"""The public end of the previous hand or round (`bot.core.api.LastHand`), kept in the table's
snapshot (`TableSession.last`) until the next one ends, so that a live surface can show the
showdown or the finishing rack after the next hand was dealt at once (and after a restart).

A game's session calls `keep_last` when a hand or round ends, with data taken from the
engine's PUBLIC view only (the cards shown at a showdown, the finisher's laid-down melds, the
penalties): never a folded or mucked hand, never a rack. The lines are the step's public
announcements since the hand's deal, kept as messages and put into words when a view is built,
in the language the view is asked in (a snapshot of an older version kept them as text, in the
table's language, and shows them so).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.core.api import RACK_SLOTS, LastHand, LastSeat
from bot.core.table.deliver import kept_words

if TYPE_CHECKING:
    from bot.core.table.session import Step, TableSession


def player(
    name: str,
    user_id: str,
    shown: Sequence[str] = (),
    delta: int | None = None,
    penalty: int | None = None,
    points: int | None = None,
    winner: bool = False,
    paid: int | None = None,
    match_winner: bool = False,
) -> dict[str, Any]:
    """One player's entry of the kept end (JSON-safe)."""
    return {
        "name": name,
        "user_id": user_id,
        "shown": list(shown),
        "delta": delta,
        "penalty": penalty,
        "points": points,
        "winner": winner,
        "paid": paid,
        "match_winner": match_winner,
    }


def keep_last(
    session: TableSession,
    step: Step,
    hand_id: str,
    players: list[dict[str, Any]],
    melds: Sequence[Sequence[str]] = (),
    rack: Sequence[str | None] | None = None,
    over: bool = False,
    indicator: str | None = None,
    okey: str | None = None,
    reason: str | None = None,
) -> None:
    """Keep the end of the hand or round `hand_id` that just ended in `step`: its public
    announcements so far (after the step's last deal, if it dealt), `players` (`player`), and
    Okey's finishing melds and rack, the round's indicator and okey, how it ended (`reason`)."""
    start = 0
    for index, note in enumerate(step.notes):
        if note.new_hand:
            start = index + 1
    lines = [
        line.to_dict()
        for note in step.notes[start:]
        if note.to is None and note.announce
        for line in note.lines
    ]
    session.last = {
        "hand_id": hand_id,
        "lines": lines,
        "players": players,
        "melds": [list(m) for m in melds],
        "rack": None if rack is None else list(rack),
        "over": over,
        "indicator": indicator,
        "okey": okey,
        "reason": reason,
    }


def last_view(session: TableSession, locale: str | None = None) -> LastHand | None:
    """The kept end of the previous hand or round as the view's `LastHand`, its lines in
    `locale` (None: the table's language), each player's `seat` their index among the table's
    seats now; None before one ended."""
    data = session.last
    if not data:
        return None
    seats = {s.user_id: i for i, s in enumerate(session.seats)}
    rack = data.get("rack")
    return LastHand(
        hand_id=str(data["hand_id"]),
        lines=tuple(kept_words(locale or session.locale, data.get("lines", ()))),
        players=tuple(
            LastSeat(
                name=p["name"],
                user_id=p["user_id"],
                seat=seats.get(p["user_id"]),
                shown=tuple(p.get("shown", ())),
                delta=p.get("delta"),
                penalty=p.get("penalty"),
                points=p.get("points"),
                winner=bool(p.get("winner", False)),
                paid=p.get("paid"),
                match_winner=bool(p.get("match_winner", False)),
            )
            for p in data.get("players", ())
        ),
        melds=tuple(tuple(m) for m in data.get("melds", ())),
        rack=None if rack is None else tuple(rack),
        over=bool(data.get("over", False)),
        indicator=data.get("indicator"),
        okey=data.get("okey"),
        reason=data.get("reason"),
    )


def packed(groups: Sequence[Sequence[str]]) -> tuple[str | None, ...]:
    """Groups of tiles in `RACK_SLOTS` slots: each group in a row with a gap after it, a
    group that does not fit the first row starting the second (tiles beyond the rack dropped)."""
    row = RACK_SLOTS // 2
    slots: list[str | None] = [None] * RACK_SLOTS
    at = 0
    for meld in groups:
        if not meld:
            continue
        if at < row and at + len(meld) > row:
            at = row
        for tile in meld:
            if at < RACK_SLOTS:
                slots[at] = tile
                at += 1
        at += 1
    return tuple(slots)
