"""A tournament's optional start time: `start=21:30` (the next 21:30 in the bot's time zone) or
`in=15m` (`in=2h`, `in=90` minutes) from now. Registration closes and the tournament starts by
itself then (`TournamentService.tick`); the registration message shows when.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bot.core.commands import fold
from bot.core.errors import Refusal

START_WORDS = ("start", "baslangic", "basla", "saat", "at")
IN_WORDS = ("in", "sonra", "icinde")
MAX_WAIT = timedelta(hours=24)  # a start further off is refused: a chat forgets it
MIN_WAIT = timedelta(minutes=1)
CLOCK_RE = re.compile(r"^([01]?\d|2[0-3])[:.]([0-5]\d)$")
DELAY_RE = re.compile(r"^(\d{1,4})\s*(m|min|dk|dakika|h|sa|saat)?$")


def is_schedule_word(name: str) -> bool:
    """True when `name=` (folded) sets the start time."""
    return name in START_WORDS or name in IN_WORDS


def start_time(name: str, value: str, now: datetime, zone: str) -> datetime:
    """When the tournament starts, in UTC; `name` is a folded `START_WORDS` or `IN_WORDS`
    word. `start=` takes a clock time (its next occurrence in `zone`) or a delay, `in=` a delay.
    A time less than a minute or more than a day away is refused."""
    word = fold(value)
    clock = CLOCK_RE.match(word)
    if clock is not None and name in START_WORDS:
        local = now.astimezone(ZoneInfo(zone))
        at = local.replace(hour=int(clock[1]), minute=int(clock[2]), second=0, microsecond=0)
        if at <= local:
            at += timedelta(days=1)
        when = at.astimezone(now.tzinfo)
    else:
        delay = DELAY_RE.match(word)
        if delay is None:
            raise Refusal("err.tournament_start_time")
        hours = delay[2] in ("h", "sa", "saat")
        when = (
            now + timedelta(hours=int(delay[1]))
            if hours
            else now + timedelta(minutes=int(delay[1]))
        )
    if not MIN_WAIT <= when - now <= MAX_WAIT:
        raise Refusal("err.tournament_start_time")
    return when


def label(when: datetime, zone: str) -> str:
    """`21:30 (Europe/Istanbul)`: the start time as the registration message shows it."""
    return f"{when.astimezone(ZoneInfo(zone)):%H:%M} ({zone})"
