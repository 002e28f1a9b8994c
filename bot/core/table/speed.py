"""Table speed (issue 37): how long the player to act has, by the table's `speed` house option.

`fast` 20 s, `normal` the bot's `TURN_SECONDS` (`CoreConfig.turn_seconds`), `slow` 5 minutes,
`relaxed` 12 hours. A tournament table keeps the bot's clock whatever its options say (its
blinds and rounds run on their own time). At a `relaxed` table the player to act is called by a
mention twice a turn: when their turn has waited `CALL_AFTER` (so that players who are at the
table and move at once are not pinged at every move, and the channel's traffic stays within its
budget) and `REMINDER` before their time runs out. Both calls come from the table's timer, each
once: after a call the timer moves on to the next one (see docs/telegram.md, "Relaxed play").
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from bot.core.messages import Mention, Outgoing, OutKind
from bot.core.table.deliver import words
from bot.core.table.session import Msg, Seat, TableSession

NORMAL = "normal"
RELAXED = "relaxed"
# the turn time of each speed in seconds; None: the bot's own (`CoreConfig.turn_seconds`)
SECONDS: dict[str, float | None] = {"fast": 20.0, NORMAL: None, "slow": 300.0, RELAXED: 43_200.0}
CALL_AFTER = timedelta(minutes=1)  # a relaxed turn's first call, after it came
REMINDER = timedelta(hours=1)  # a relaxed turn's second call, before it runs out


def speed_of(options: Mapping[str, Any]) -> str:
    """A table's speed: its `speed` option, `normal` for a tournament table or a table stored
    before the option existed."""
    if options.get("tournament"):
        return NORMAL
    speed = str(options.get("speed", NORMAL))
    return speed if speed in SECONDS else NORMAL


def turn_time(options: Mapping[str, Any], normal: float) -> timedelta:
    """How long the player to act has at a table with `options`; `normal`: the bot's turn
    seconds."""
    seconds = SECONDS[speed_of(options)]
    return timedelta(seconds=normal if seconds is None else seconds)


def turn_deadline(session: TableSession, now: datetime, normal: float) -> datetime | None:
    """The deadline of the player to act after a step committed `now` (None: nobody to act, or
    a computer player plays the seat). `session.turn_of` and `turn_from` remember whose turn it
    is and since when: a step that leaves the same person to act (Okey: the draw before the
    discard) goes on with their turn, so a relaxed turn's first call is not made again."""
    index = session.actor()
    if index is None or session.auto_seat() is not None:
        session.turn_of = session.turn_from = None
        return None
    player = session.seats[index].player_id
    if session.turn_of != player or session.turn_from is None:
        session.turn_of, session.turn_from = player, now
    return now + turn_time(session.options, normal)


def _calls(session: TableSession) -> list[tuple[datetime, str]]:
    """A relaxed turn's calls (when, line key), in time order; none at another speed, or when
    nobody, a computer player or an away seat is to act."""
    if speed_of(session.options) != RELAXED or session.deadline is None or _called(session) is None:
        return []
    start = session.turn_from or session.deadline - turn_time(session.options, 0.0)
    return [(start + CALL_AFTER, "speed.turn"), (session.deadline - REMINDER, "speed.reminder")]


def next_call(session: TableSession, now: datetime) -> datetime | None:
    """When the table's timer is due for the next call of the relaxed turn (one still ahead of
    `now`: a call whose time passed while the player acted is not made), or None."""
    return next((at for at, _ in _calls(session) if at > now), None)


def due_call(session: TableSession, now: datetime) -> tuple[str, datetime] | None:
    """The call due `now` (the latest one whose time has come) and when the timer is due after
    it (the next call, else the deadline), or None."""
    passed = [key for at, key in _calls(session) if at <= now]
    if not passed or session.deadline is None:
        return None
    return passed[-1], next_call(session, now) or session.deadline


def call(session: TableSession, channel_id: str, key: str, now: datetime) -> list[Outgoing]:
    """The channel message calling the player to act (`Mention`), its text starting with their
    name; `now`: the timer's time, for the minutes left."""
    seat = _called(session)
    if seat is None or session.deadline is None:
        return []
    left = max(1, round((session.deadline - now).total_seconds() / 60))
    hours = max(1, round(left / 60))
    line = Msg(key, {"name": seat.name, "table": session.table_id, "minutes": left, "hours": hours})
    return [
        Outgoing(
            OutKind.PUBLIC,
            words(session.locale, line),
            channel_id=channel_id,
            table_id=str(session.table_id),
            mention=Mention(seat.user_id, seat.name),
        )
    ]


def _called(session: TableSession) -> Seat | None:
    """The person to act, or None (nobody, a computer player, an away seat)."""
    index = session.actor()
    if index is None or session.auto_seat() is not None:
        return None
    seat = session.seats[index]
    return None if seat.bot else seat
