"""`/season [n]`, `/season length monthly|weekly|<days>` and the end of each community's season
from the timer (docs/seasons.md).

Every community has seasons without configuring: its season 1 begins (monthly) the first time
the timer sees one of its tables change, or at its first `/season`. At a season's end, exactly
once across processes (the claim of the turn timers, then the number moved on in the end's own
transaction: `storage.seasons`), the final standings are kept, the community's ratings soften
towards the mean and one message names each game's top three in the season's channel.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.core.checks import require_moderator
from bot.core.commands import SEASON_SUBS, lookup, parse_int
from bot.core.config import CoreConfig
from bot.core.errors import Refusal
from bot.core.messages import Command, Outgoing, OutKind
from bot.core.registry import GAMES
from bot.core.seasons import messages
from bot.core.seasons.length import MAX_DAYS, next_end, parse_length, season_end
from bot.core.table.deliver import text
from bot.core.table.session import Who
from bot.logs import kv
from storage import SeasonRecord

if TYPE_CHECKING:
    from storage import Store

log = logging.getLogger("bot.core.seasons")

ENROL_EVERY = timedelta(minutes=1)  # how often the timer looks for communities without a season
ENROL_LOOKBACK = timedelta(days=1)  # how far back a process's first look goes
CLAIM_LEASE = timedelta(minutes=1)
SHOWN = 10  # places of each game `/season <n>` shows
TOP = 3  # places of each game the end announces and `/season` shows


def is_length(args: tuple[str, ...]) -> bool:
    """Whether `/season` words set the length (what needs a moderator)."""
    return bool(args) and lookup(SEASON_SUBS, args[0]) == "length"


class Seasons:
    """Answers `/season` and ends the seasons that are due (`tick`)."""

    def __init__(self, store: Store, config: CoreConfig, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.config = config
        self.clock = clock
        self.enrolled: datetime | None = None  # when this process last looked for new communities

    @property
    def games(self) -> tuple[str, ...]:
        """Every registered game, in registration order (the standings' order)."""
        return tuple(GAMES)

    def _first_end(self, now: datetime) -> datetime:
        return season_end(now, None, self.config.timezone)

    async def _season(self, command: Command, community: str) -> SeasonRecord:
        season = await self.store.season(command.platform, community)
        if season is not None:
            return season
        now = self.clock()
        return await self.store.start_season(
            command.platform, community, now, self._first_end(now), command.channel_id
        )

    async def command(self, command: Command, who: Who, args: tuple[str, ...]) -> list[Outgoing]:
        """`/season`: the current season; `/season <n>`: a finished one's final standings;
        `/season length <length>`: a moderator sets the length. Refused, changing nothing:
        outside a community, a non-moderator's length, a bad length or season number."""
        if command.community is None:
            raise Refusal("err.season_no_community")
        community = command.community
        zone = self.config.timezone
        if is_length(args):
            require_moderator(command)
            if len(args) != 2:
                raise Refusal("err.season_length", max=MAX_DAYS)
            days = parse_length(args[1])
            season = await self._season(command, community)
            now = self.clock()
            ends_at = max(season_end(season.started_at, days, zone), now)
            if not await self.store.set_season_length(
                season, days, ends_at, command.channel_id, who.locale
            ):
                raise Refusal("err.season_busy")  # it ended meanwhile: nothing changed
            log.info(kv(event="season_length", community=community, days=days or "monthly"))
            body = text(who.locale, messages.length_set(days, ends_at, zone))
            return [Outgoing(OutKind.PUBLIC, body, channel_id=command.channel_id)]
        if len(args) > 1:
            raise Refusal("err.season_usage")
        number = _number(args[0]) if args else None
        if number is not None and await self.store.season(command.platform, community) is None:
            # no season here yet: only season 1 is running, none has finished
            raise Refusal("err.season_unknown", number=number, current=1)
        season = await self._season(command, community)
        if number is None or number == season.number:
            leaders = await self.store.season_leaders(season, self.games, TOP)
            lines = messages.current(
                season.number,
                season.length_days,
                season.ends_at,
                self.clock(),
                zone,
                leaders,
                self.games,
            )
        elif 1 <= number < season.number:
            standings = await self.store.season_standings(
                command.platform, community, number, SHOWN
            )
            lines = messages.past(number, standings, self.games)
        else:
            raise Refusal("err.season_unknown", number=number, current=season.number)
        return [Outgoing(OutKind.PUBLIC, text(who.locale, lines), channel_id=command.channel_id)]

    async def tick(self, now: datetime) -> list[Outgoing]:
        """From the timer: give new communities their first season (every `ENROL_EVERY`), then
        end the seasons that are due, each once across processes, announcing each end."""
        if self.enrolled is None or now - self.enrolled >= ENROL_EVERY:
            since = now - ENROL_LOOKBACK if self.enrolled is None else self.enrolled
            await self.store.enrol_seasons(since - CLAIM_LEASE, now, self._first_end(now))
            self.enrolled = now
        out: list[Outgoing] = []
        claimed = await self.store.claim_seasons(
            now, platforms=self.config.platforms, lease=CLAIM_LEASE
        )
        for season in claimed:
            out += await self._end(season, now)
        return out

    async def _end(self, season: SeasonRecord, now: datetime) -> list[Outgoing]:
        """End one claimed season, unless another process ended it or a moderator changed its
        length meanwhile (then nothing is written and nothing said)."""
        following = next_end(season.ends_at, season.length_days, self.config.timezone, now)
        if not await self.store.end_season(season, self.games, following):
            log.info(kv(event="season_end_skipped", community=season.community))
            return []
        top = await self.store.season_standings(
            season.platform, season.community, season.number, TOP
        )
        log.info(
            kv(
                event="season_ended",
                platform=season.platform,
                community=season.community,
                season=season.number,
                ranked=len(top),
            )
        )
        if not season.channel_id:
            return []
        locale = season.locale or self.config.default_locale
        body = text(locale, messages.announcement(season.number, top, self.games))
        return [Outgoing(OutKind.PUBLIC, body, channel_id=season.channel_id)]


def _number(word: str) -> int:
    """A season number (`3`, `#3`); a Refusal for any other word."""
    number = parse_int(word.lstrip("#"))
    if number is None:
        raise Refusal("err.season_usage")
    return number
