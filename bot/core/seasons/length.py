"""A season's length and when a season of that length ends.

`monthly` (the default: `None` days) ends at the start of the next calendar month in the bot's
time zone; `weekly` is seven days; a number of days (`10`, `10d`, `10g`) from 1 to
`MAX_DAYS`. Anything else (0, a negative or huge number, a word we do not know) is refused.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bot.core.commands import fold
from bot.core.errors import Refusal

MAX_DAYS = 365
WEEK = 7
MONTHLY = ("monthly", "month", "aylik", "ay", "aylık")
WEEKLY = ("weekly", "week", "haftalik", "hafta", "haftalık")
DAYS_RE = re.compile(r"^(\d{1,6})\s*(d|day|days|g|gun|gunluk)?$")


def parse_length(word: str) -> int | None:
    """The days of a season of length `word`, None for calendar months; a Refusal
    (`err.season_length`) for anything else, 0, or more than `MAX_DAYS` days."""
    folded = fold(word)
    if folded in {fold(w) for w in MONTHLY}:
        return None
    if folded in {fold(w) for w in WEEKLY}:
        return WEEK
    found = DAYS_RE.match(folded)
    if found is None or not 1 <= int(found[1]) <= MAX_DAYS:
        raise Refusal("err.season_length", max=MAX_DAYS)
    return int(found[1])


def season_end(start: datetime, length_days: int | None, zone: str) -> datetime:
    """When a season that began at `start` ends: `length_days` later, or (None) at the start of
    the first calendar month in `zone` after `start`."""
    if length_days is not None:
        return start + timedelta(days=length_days)
    local = start.astimezone(ZoneInfo(zone))
    year, month = (local.year + 1, 1) if local.month == 12 else (local.year, local.month + 1)
    first = local.replace(year=year, month=month, day=1, hour=0, minute=0, second=0, microsecond=0)
    return first.astimezone(start.tzinfo)


def next_end(ended: datetime, length_days: int | None, zone: str, now: datetime) -> datetime:
    """When the season that follows one ended at `ended` ends: the first end after `now`
    (a bot that was down longer than a season does not end empty seasons one by one)."""
    end = season_end(ended, length_days, zone)
    while end <= now:
        end = season_end(end, length_days, zone)
    return end
