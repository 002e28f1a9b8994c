"""What seasons say, as pure functions of data: the end's announcement (the top three of each
game in one message), a past season's standings, the current season's leaders and time left,
and a length in words."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bot.core.table.session import Msg, msg
from storage import Standing

MEDALS = ("🥇", "🥈", "🥉")


def length_words(length_days: int | None) -> Msg:
    """`monthly`, `weekly` or `N days`, in words."""
    if length_days is None:
        return msg("season.monthly")
    if length_days == 7:
        return msg("season.weekly")
    return msg("season.days", days=length_days)


def when(at: datetime, zone: str) -> str:
    """`2027-01-01 00:00 (Europe/Istanbul)`."""
    return f"{at.astimezone(ZoneInfo(zone)):%Y-%m-%d %H:%M} ({zone})"


def time_left(left: timedelta) -> Msg:
    """Days, hours and minutes left (never below nothing)."""
    minutes = max(0, int(left.total_seconds()) // 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    return msg("season.left", days=days, hours=hours, minutes=minutes)


def _place(standing: Standing) -> Msg:
    medal = MEDALS[standing.rank - 1] if standing.rank <= len(MEDALS) else f"{standing.rank}."
    return msg(
        "season.place",
        medal=medal,
        name=standing.name,
        rating=standing.rating,
        games=standing.games,
    )


def by_game(standings: Sequence[Standing], games: Sequence[str]) -> list[Msg]:
    """Each game's places under its name, games in `games`' order; games without one left out."""
    lines: list[Msg] = []
    for game in games:
        places = [s for s in standings if s.game == game]
        if places:
            lines.append(msg("season.game", game=msg(f"game.{game}")))
            lines += [_place(s) for s in places]
    return lines


def announcement(number: int, standings: Sequence[Standing], games: Sequence[str]) -> list[Msg]:
    """The end of season `number`: the top three of each game, or that nobody was rated."""
    lines = [msg("season.ended", number=number)]
    lines += by_game(standings, games) or [msg("season.nobody")]
    lines.append(msg("season.softened", next=number + 1))
    return lines


def past(number: int, standings: Sequence[Standing], games: Sequence[str]) -> list[Msg]:
    """A finished season's final standings."""
    return [msg("season.final", number=number)] + (
        by_game(standings, games) or [msg("season.nobody")]
    )


def current(
    number: int,
    length_days: int | None,
    ends_at: datetime,
    now: datetime,
    zone: str,
    leaders: Sequence[Standing],
    games: Sequence[str],
) -> list[Msg]:
    """The current season: its number, length, end and time left, and each game's leaders."""
    lines = [
        msg(
            "season.current",
            number=number,
            length=length_words(length_days),
            when=when(ends_at, zone),
            left=time_left(ends_at - now),
        )
    ]
    return lines + (by_game(leaders, games) or [msg("season.nobody_yet")])


def length_set(length_days: int | None, ends_at: datetime, zone: str) -> list[Msg]:
    """A moderator's new length, and when the current season now ends."""
    return [msg("season.length_set", length=length_words(length_days), when=when(ends_at, zone))]
