"""The Store's seasons (``Store`` inherits them; storage/seasons.py, docs/seasons.md)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from storage import seasons as season_ops
from storage import validators as check
from storage.seasons import SeasonRecord, Standing
from storage.store_base import StoreBase


def _community(platform: str, community: str) -> tuple[str, str]:
    return check.text(platform, "platform", 32), check.text(community, "community", 64)


class StoreSeasons(StoreBase):
    """A community's season: made, given a length, claimed when due, ended once, listed."""

    async def season(self, platform: str, community: str) -> SeasonRecord | None:
        """The community's current season, or None when it has none yet."""
        platform, community = _community(platform, community)
        async with self._writer.read() as conn:
            return await conn.run_sync(lambda c: season_ops.get_sync(c, platform, community))

    async def start_season(
        self,
        platform: str,
        community: str,
        now: datetime,
        ends_at: datetime,
        channel_id: str | None = None,
    ) -> SeasonRecord:
        """The community's current season; its season 1 (monthly, ``now`` to ``ends_at``,
        announced in ``channel_id``) is made first when it has none."""
        platform, community = _community(platform, community)
        now, ends_at = check.moment(now), check.moment(ends_at)
        return await self._writer.run_sync(
            lambda c: season_ops.create_sync(c, platform, community, now, ends_at, channel_id)
        )

    async def set_season_length(
        self,
        season: SeasonRecord,
        length_days: int | None,
        ends_at: datetime,
        channel_id: str,
        locale: str,
    ) -> bool:
        """The current season's new length (None: calendar months) and end, announced in
        ``channel_id`` in ``locale``; False when that season ended meanwhile."""
        ends_at = check.moment(ends_at)
        return await self._writer.run_sync(
            lambda c: season_ops.set_length_sync(
                c, season, length_days, ends_at, channel_id, locale
            )
        )

    async def enrol_seasons(
        self, since: datetime, now: datetime, ends_at: datetime
    ) -> list[SeasonRecord]:
        """Season 1 (``now`` to ``ends_at``) for every community whose tables changed since
        ``since`` and that has no season yet; the seasons made."""
        since, now, ends_at = check.moment(since), check.moment(now), check.moment(ends_at)
        return await self._writer.run_sync(lambda c: season_ops.enrol_sync(c, since, now, ends_at))

    async def claim_seasons(
        self,
        now: datetime,
        *,
        platforms: Sequence[str] | None = None,
        limit: int = 20,
        lease: timedelta = timedelta(seconds=60),
    ) -> list[SeasonRecord]:
        """Claim up to ``limit`` seasons due at ``now`` (only ``platforms``' when given): their
        timer moves ``lease`` ahead in the same transaction, so no other process claims them
        again unless the claimer's end does not come before the lease runs out."""
        now = check.moment(now)
        check.positive_int(limit, "limit")
        until = now + lease
        return await self._writer.run_sync(
            lambda c: season_ops.claim_sync(c, now, until, platforms, limit)
        )

    async def end_season(
        self, season: SeasonRecord, games: Sequence[str], next_ends_at: datetime
    ) -> bool:
        """End ``season`` in one transaction: its final standings in ``games`` kept, the
        community's ratings softened, the next season begun (ending ``next_ends_at``). False,
        and nothing written, when another process ended it first."""
        next_ends_at = check.moment(next_ends_at)
        return await self._writer.run_sync(
            lambda c: season_ops.end_sync(c, season, list(games), next_ends_at)
        )

    async def season_standings(
        self, platform: str, community: str, number: int, most: int = 10
    ) -> list[Standing]:
        """A finished season's final standings: the first ``most`` places of each game."""
        platform, community = _community(platform, community)
        check.positive_int(number, "season")
        check.limit(most)
        async with self._writer.read() as conn:
            return await conn.run_sync(
                lambda c: season_ops.standings_sync(c, platform, community, number, most)
            )

    async def season_leaders(
        self, season: SeasonRecord, games: Sequence[str], most: int = 3
    ) -> list[Standing]:
        """The current season's first ``most`` of each of ``games`` as it stands now."""
        check.limit(most)
        async with self._writer.read() as conn:
            return await conn.run_sync(
                lambda c: season_ops.leaders_sync(c, season, list(games), most)
            )
