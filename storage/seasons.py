"""Seasons in SQL (docs/seasons.md): a community's current season, the claim of the seasons
that are due, the end of one (final standings written, the community's ratings softened and the
number moved on, in ONE transaction) and the standings' reads.

Exactly once across processes, like the turn timers (``storage.tables.claim_due``): a claim
moves the season's ``deadline`` a lease ahead (PostgreSQL: ``FOR UPDATE SKIP LOCKED``), so other
processes skip it; the end's transaction moves ``number`` on from the number it read and
writes nothing when another process got there first. The standings' primary key (community,
season, game, rank) could not take a second copy anyway.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from storage.models import players, ratings, season_standings, seasons, tables
from storage.rating_model import MU, SHOWN_BASE, SHOWN_SCALE, SIGMA
from storage.sql import aware, upsert

# Softening at a season's end (docs/seasons.md): mu keeps this share of its distance from
# openskill's default mean, sigma gets back this share of its distance to the default sigma.
MU_KEEP = 0.75
SIGMA_BACK = 0.5


@dataclass(frozen=True)
class SeasonRecord:
    """A community's current season: ``number`` (from 1), ``length_days`` (None: calendar
    months), when it started and ends, where its end is announced and in which language."""

    platform: str
    community: str
    number: int
    length_days: int | None
    started_at: datetime
    ends_at: datetime
    channel_id: str | None
    locale: str | None


@dataclass(frozen=True)
class Standing:
    """One place in a game's season standings: the player's id and name, the rating shown
    (``storage.rating_model.shown``) and their rated games in the community."""

    game: str
    rank: int
    player_id: int
    name: str
    rating: int
    games: int


def season_record(row: Any) -> SeasonRecord:
    """A SeasonRecord from a ``seasons`` row."""
    return SeasonRecord(
        platform=row.platform,
        community=row.community,
        number=row.number,
        length_days=row.length_days,
        started_at=aware(row.started_at),
        ends_at=aware(row.ends_at),
        channel_id=row.channel_id,
        locale=row.locale,
    )


def _key(platform: str, community: str) -> sa.ColumnElement[bool]:
    return sa.and_(seasons.c.platform == platform, seasons.c.community == community)


def get_sync(conn: sa.Connection, platform: str, community: str) -> SeasonRecord | None:
    """The community's current season, or None when it has none yet."""
    row = conn.execute(sa.select(seasons).where(_key(platform, community))).first()
    return None if row is None else season_record(row)


def create_sync(
    conn: sa.Connection,
    platform: str,
    community: str,
    now: datetime,
    ends_at: datetime,
    channel_id: str | None,
) -> SeasonRecord:
    """The community's current season, season 1 (monthly, from ``now`` to ``ends_at``) made
    first when it has none."""
    values = {
        "platform": platform,
        "community": community,
        "number": 1,
        "length_days": None,
        "started_at": now,
        "ends_at": ends_at,
        "deadline": ends_at,
        "channel_id": channel_id,
    }
    conn.execute(
        upsert(conn, seasons)
        .values(**values)
        .on_conflict_do_nothing(index_elements=["platform", "community"])
    )
    found = get_sync(conn, platform, community)
    assert found is not None
    return found


def set_length_sync(
    conn: sa.Connection,
    season: SeasonRecord,
    length_days: int | None,
    ends_at: datetime,
    channel_id: str,
    locale: str,
) -> bool:
    """Give the current season (still ``season.number``) a new length and end, and remember
    the channel and language its end is announced in; False when it ended meanwhile."""
    stmt = (
        sa.update(seasons)
        .where(_key(season.platform, season.community), seasons.c.number == season.number)
        .values(
            length_days=length_days,
            ends_at=ends_at,
            deadline=ends_at,
            channel_id=channel_id,
            locale=locale,
        )
    )
    return bool(conn.execute(stmt).rowcount)


def enrol_sync(
    conn: sa.Connection, since: datetime, now: datetime, ends_at: datetime
) -> list[SeasonRecord]:
    """Give every community whose tables (outside tournaments) changed since ``since`` and has
    no season yet its season 1, from ``now`` to ``ends_at``, announced in the channel of its
    table that changed last; the seasons made."""
    stmt = (
        sa.select(tables.c.platform, tables.c.community, tables.c.channel_id)
        .where(
            tables.c.status.in_(("open", "closed")),
            tables.c.updated_at >= since,
            tables.c.community.is_not(None),
            tables.c.tournament_id.is_(None),
        )
        .order_by(tables.c.updated_at)
    )
    latest: dict[tuple[str, str], str] = {  # the last change's channel wins
        (row.platform, row.community): row.channel_id for row in conn.execute(stmt)
    }
    made: list[SeasonRecord] = []
    for (platform, community), channel in sorted(latest.items()):
        if get_sync(conn, platform, community) is None:
            made.append(create_sync(conn, platform, community, now, ends_at, channel))
    return made


def claim_sync(
    conn: sa.Connection,
    now: datetime,
    until: datetime,
    platforms: Sequence[str] | None,
    limit: int,
) -> list[SeasonRecord]:
    """Select seasons due at ``now`` (earliest first; on PostgreSQL locked, skipping rows another
    claim holds) and move their deadline to ``until``; the seasons claimed."""
    stmt = (
        sa.select(seasons)
        .where(seasons.c.deadline <= now)
        .order_by(seasons.c.deadline, seasons.c.platform, seasons.c.community)
        .limit(limit)
    )
    if platforms is not None:
        stmt = stmt.where(seasons.c.platform.in_(list(platforms)))
    if conn.dialect.name == "postgresql":
        stmt = stmt.with_for_update(skip_locked=True)
    claimed = [season_record(row) for row in conn.execute(stmt)]
    for season in claimed:
        conn.execute(
            sa.update(seasons).where(_key(season.platform, season.community)).values(deadline=until)
        )
    return claimed


def _shown() -> sa.ColumnElement[int]:
    """The rating shown (``storage.rating_model.shown``: ``1000 + 40 (mu - 3 sigma)``,
    rounded), in SQL."""
    return sa.cast(sa.func.round(SHOWN_BASE + SHOWN_SCALE * ratings.c.conservative), sa.Integer)


def _in_season(games: Sequence[str], community: str, since: datetime) -> sa.ColumnElement[bool]:
    """The community's ratings in ``games`` that moved since ``since`` (played this season)."""
    return sa.and_(
        ratings.c.game.in_(list(games)),
        ratings.c.community == community,
        ratings.c.updated_at >= since,
        ratings.c.games > 0,
    )


# The standings' order (docs/seasons.md): the rating shown, higher first; then more games;
# then the rating reached earlier (its last change); then the lower player id.
def _order() -> list[sa.ColumnElement[Any]]:
    return [
        _shown().desc(),
        ratings.c.games.desc(),
        ratings.c.updated_at,
        ratings.c.player_id,
    ]


def end_sync(
    conn: sa.Connection,
    season: SeasonRecord,
    games: Sequence[str],
    next_ends_at: datetime,
) -> bool:
    """End ``season`` once: move the community's season number on (from ``season.number`` and
    its end as read only: False, and nothing written, when another process ended it first or
    a moderator changed its length since), keep the final
    standings of each of ``games`` and soften the community's ratings towards the mean."""
    moved = conn.execute(
        sa.update(seasons)
        .where(
            _key(season.platform, season.community),
            seasons.c.number == season.number,
            seasons.c.ends_at == season.ends_at,  # a moderator's new length since the claim
        )
        .values(
            number=season.number + 1,
            started_at=season.ends_at,
            ends_at=next_ends_at,
            deadline=next_ends_at,
        )
    ).rowcount
    if not moved:
        return False
    if games:  # every place of every game, ranked and kept by the database in one statement
        ranked = sa.select(
            sa.literal(season.platform),
            ratings.c.community,
            sa.literal(season.number),
            ratings.c.game,
            sa.func.row_number().over(partition_by=ratings.c.game, order_by=_order()),
            ratings.c.player_id,
            _shown(),
            ratings.c.games,
        ).where(_in_season(games, season.community, season.started_at))
        columns = ["platform", "community", "season", "game", "rank", "player_id", "rating"]
        conn.execute(season_standings.insert().from_select([*columns, "games"], ranked))
    soften_sync(conn, season.community, games)
    return True


def soften_sync(conn: sa.Connection, community: str, games: Sequence[str]) -> None:
    """Pull every rating of the community in ``games`` (not the global ones) towards
    openskill's defaults: ``mu' = MU + MU_KEEP (mu - MU)``, and a sigma below the default
    ``sigma' = sigma + SIGMA_BACK (SIGMA - sigma)``; the conservative rating follows. When the
    rating moved is left as it was (a softened rating was not played)."""
    mine = sa.and_(ratings.c.game.in_(list(games)), ratings.c.community == community)
    if conn.dialect.name == "postgresql":
        # lock in the order the ratings' own updates lock (storage.ratings: by player id), so
        # a hand rated meanwhile waits for the softening instead of deadlocking with it
        locking = (
            sa.select(ratings.c.player_id)
            .where(mine)
            .order_by(ratings.c.player_id, ratings.c.game)
            .with_for_update()
            .subquery()
        )
        conn.execute(sa.select(sa.func.count()).select_from(locking))
    mu = MU + (ratings.c.mu - MU) * MU_KEEP
    sigma = sa.case(
        (ratings.c.sigma < SIGMA, ratings.c.sigma + (SIGMA - ratings.c.sigma) * SIGMA_BACK),
        else_=ratings.c.sigma,
    )
    conn.execute(
        sa.update(ratings).where(mine).values(mu=mu, sigma=sigma, conservative=mu - 3 * sigma)
    )


def _named(stmt: sa.Select[Any]) -> sa.Select[Any]:
    return stmt.join(players, players.c.id == season_standings.c.player_id)


def standings_sync(
    conn: sa.Connection, platform: str, community: str, number: int, most: int
) -> list[Standing]:
    """A finished season's final standings, the first ``most`` places of each game."""
    stmt = _named(
        sa.select(
            season_standings.c.game,
            season_standings.c.rank,
            season_standings.c.player_id,
            players.c.name,
            season_standings.c.rating,
            season_standings.c.games,
        ).where(
            season_standings.c.platform == platform,
            season_standings.c.community == community,
            season_standings.c.season == number,
            season_standings.c.rank <= most,
        )
    ).order_by(season_standings.c.game, season_standings.c.rank)
    return [
        Standing(r.game, r.rank, r.player_id, r.name, r.rating, r.games) for r in conn.execute(stmt)
    ]


def leaders_sync(
    conn: sa.Connection, season: SeasonRecord, games: Sequence[str], most: int
) -> list[Standing]:
    """The current season's leaders: the first ``most`` of each game as the standings would
    be now."""
    out: list[Standing] = []
    for game in games:
        stmt = (
            sa.select(
                ratings.c.player_id, players.c.name, _shown().label("rating"), ratings.c.games
            )
            .join(players, players.c.id == ratings.c.player_id)
            .where(_in_season([game], season.community, season.started_at))
            .order_by(*_order())
            .limit(most)
        )
        out += [
            Standing(game, rank, r.player_id, r.name, r.rating, r.games)
            for rank, r in enumerate(conn.execute(stmt), 1)
        ]
    return out
