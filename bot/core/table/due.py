"""When a table's timer is next due, as the store keeps it (`tables.deadline`, claimed by the
turn-timer tick of whichever process gets there first)."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.core.table.session import TableSession, from_iso
from bot.core.table.speed import next_call

AUTO_RESCUE = timedelta(seconds=5)  # a computer's turn left unplayed by a failed process


def due(
    session: TableSession, now: datetime, status: str | None, idle_close_seconds: float
) -> datetime | None:
    """The turn's deadline (a relaxed turn's calls first); soon when a computer player is to
    act (only if the committing process fails to play it); the idle close of a table still
    waiting for players, or its rematch offer's end if sooner; else never."""
    if status == "closed" or session.phase == "closed":
        return None
    if session.deadline is not None:
        return next_call(session, now) or session.deadline
    if session.auto_seat() is not None:
        return now + AUTO_RESCUE
    if session.phase == "waiting":
        idle = session.touched + timedelta(seconds=idle_close_seconds)
        offer = session.rematch  # its end takes the button off the table message
        until = None if offer is None else from_iso(offer["until"])
        return idle if until is None else min(idle, until)
    return None
