"""The skill ratings' SQL: updated with the rated results inside ``Store.commit``'s transaction
(``record_ratings``, next to ``storage.tallies.record_tallies``), and read by the rating board,
``/rating`` and the web table's seat badges (docs/ratings.md, docs/storage.md).

What is rated: the results of one hand (poker) or one match (Okey, 101 Okey; never a single
round, never a carried pot) between people. Computer players are left out of the group; a group
with fewer than two people, or in which every person did equally well, is not rated. A team is
the people with the same ``detail["side"]`` (101 partners); the order is ``detail["place"]``
(lower is better) when the result gives one, else the chips won. Each result updates the
player's row of its community and their global row (community ``ALL_COMMUNITIES``).

Alt accounts: a group is rated only when every person in it has met at least
``MIN_OPPONENTS`` distinct people in that game (this result included), so two accounts that only
ever play each other are never rated. ``rating_opponents`` keeps each player's first
``MIN_OPPONENTS`` opponents per game, met in groups that would otherwise be rated.

Exactly once: the caller's transaction claims the commit's idempotency key and the table's
version first, so a replayed or lost commit rates nothing. Concurrent commits on PostgreSQL:
the rows are created if missing (``ON CONFLICT DO NOTHING``, which waits for a concurrent
insert) and then read ``FOR UPDATE`` in (community, player id) order before the new values are
computed, so two processes rating the same players serialise instead of losing an update.
SQLite has one writer.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from storage import rating_model
from storage.history import CARRIED, ROUND
from storage.models import ALL_COMMUNITIES, players, rating_opponents, ratings
from storage.rating_model import Skill
from storage.records import GameResult
from storage.sql import aware, upsert

MIN_OPPONENTS = 3  # distinct people a player must have met in a game before its results rate


@dataclass(frozen=True)
class RatingRecord:
    """A player's stored rating in one game and community (``ALL_COMMUNITIES``: global)."""

    player_id: int
    name: str
    game: str
    community: str
    mu: float
    sigma: float
    games: int
    updated_at: datetime

    @property
    def conservative(self) -> float:
        """``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        """The number players see (``storage.rating_model.shown``)."""
        return rating_model.shown(self.conservative)

    @property
    def provisional(self) -> bool:
        """Fewer than ``PROVISIONAL_GAMES`` rated games."""
        return rating_model.provisional(self.games)


def community_key(community: str | None) -> str:
    """The ``community`` column of a community's rows; None: the global rows."""
    if community is None:
        return ALL_COMMUNITIES
    if not isinstance(community, str) or not community.strip() or len(community) > 64:
        raise ValueError(f"bad community {community!r}")
    return community


# -- writes, inside Store.commit ---------------------------------------------------------------


def record_ratings(
    conn: sa.Connection,
    results: Sequence[GameResult],
    people: Collection[int],
    community: str | None,
    now: datetime,
) -> int:
    """Rate the rated groups among ``results`` (see the module's docstring); ``people``: the
    players among them who are people, not computer players. How many groups were rated."""
    rated = 0
    keys = [ALL_COMMUNITIES] if community is None else sorted({ALL_COMMUNITIES, community})
    for (game, _hand), group in sorted(_groups(results, people).items()):
        if len(group) < 2:
            continue
        teams, ranks = _standing(group)
        if len(teams) < 2 or len(set(ranks)) < 2:
            continue
        if not _met_enough(conn, game, sorted(group)):
            continue
        _rate_in(conn, game, keys, teams, ranks, now)
        rated += 1
    return rated


def _groups(
    results: Sequence[GameResult], people: Collection[int]
) -> dict[tuple[str, str], dict[int, GameResult]]:
    """The people's rated results by (game, hand or match id), one per player."""
    groups: dict[tuple[str, str], dict[int, GameResult]] = defaultdict(dict)
    for r in results:
        if r.player_id not in people or r.hand_id is None:
            continue
        if r.detail.get("kind") in (CARRIED, ROUND):
            continue
        groups[(r.game, r.hand_id)][r.player_id] = r
    return groups


def _standing(group: dict[int, GameResult]) -> tuple[list[list[int]], list[float]]:
    """The group's teams (player ids) and each team's rank, lower is better."""
    sides: dict[Any, list[int]] = defaultdict(list)
    for pid, r in sorted(group.items()):
        side = r.detail.get("side")
        sides[("side", side) if side is not None else ("player", pid)].append(pid)
    teams = list(sides.values())
    ranks = [min(_rank(group[p]) for p in team) for team in teams]
    return teams, ranks


def _rank(r: GameResult) -> float:
    place = r.detail.get("place")
    if isinstance(place, int) and not isinstance(place, bool):
        return float(place)
    return float(-r.chips_delta)


# The statements, built once per dialect: settling a hand then only looks them up in the
# compiled-statement cache instead of building and compiling them again (docs/ratings.md,
# "Cost").
_STATEMENTS: dict[str, dict[str, Any]] = {}


def _statements(conn: sa.Connection) -> dict[str, Any]:
    found = _STATEMENTS.get(conn.dialect.name)
    if found is not None:
        return found
    ids: sa.BindParameter[list[int]] = sa.bindparam("ids", expanding=True)
    built = {
        "met": sa.select(rating_opponents.c.player_id, rating_opponents.c.opponent_id).where(
            rating_opponents.c.game == sa.bindparam("game"),
            rating_opponents.c.player_id.in_(ids),
        ),
        "meet": upsert(conn, rating_opponents)
        .values(
            player_id=sa.bindparam("player_id"),
            game=sa.bindparam("game"),
            opponent_id=sa.bindparam("opponent_id"),
        )
        .on_conflict_do_nothing(),
        "seed": upsert(conn, ratings)
        .values(
            player_id=sa.bindparam("player_id"),
            game=sa.bindparam("game"),
            community=sa.bindparam("community"),
            mu=sa.bindparam("mu"),
            sigma=sa.bindparam("sigma"),
            conservative=sa.bindparam("conservative"),
            games=0,
            updated_at=sa.bindparam("now"),
        )
        .on_conflict_do_nothing(),
        "lock": sa.select(
            ratings.c.community, ratings.c.player_id, ratings.c.mu, ratings.c.sigma, ratings.c.games
        )
        .where(
            ratings.c.game == sa.bindparam("game"),
            ratings.c.community.in_(sa.bindparam("keys", expanding=True)),
            ratings.c.player_id.in_(ids),
        )
        .order_by(ratings.c.community, ratings.c.player_id)
        .with_for_update(),
        "write": ratings.update()
        .where(
            ratings.c.game == sa.bindparam("b_game"),
            ratings.c.community == sa.bindparam("b_community"),
            ratings.c.player_id == sa.bindparam("b_player"),
        )
        .values(
            mu=sa.bindparam("mu"),
            sigma=sa.bindparam("sigma"),
            conservative=sa.bindparam("conservative"),
            games=sa.bindparam("games"),
            updated_at=sa.bindparam("now"),
        ),
    }
    _STATEMENTS[conn.dialect.name] = built
    return built


def _met_enough(conn: sa.Connection, game: str, group: list[int]) -> bool:
    """Record the people of ``group`` as each other's opponents in ``game`` (each player's
    first ``MIN_OPPONENTS`` only) and say whether every one of them has now met enough."""
    sql = _statements(conn)
    rows: Any = conn.execute(sql["met"], {"game": game, "ids": group})
    met: dict[int, set[int]] = defaultdict(set)
    for pid, opponent in rows:
        met[int(pid)].add(int(opponent))
    new: list[dict[str, Any]] = []
    for pid in group:
        for other in group:
            if other != pid and other not in met[pid] and len(met[pid]) < MIN_OPPONENTS:
                met[pid].add(other)
                new.append({"player_id": pid, "game": game, "opponent_id": other})
    if new:
        conn.execute(sql["meet"], new)
    return all(len(met[pid]) >= MIN_OPPONENTS for pid in group)


def _lock(
    conn: sa.Connection, game: str, keys: list[str], ids: list[int]
) -> dict[str, dict[int, tuple[Skill, int]]]:
    """The stored rows of ``ids`` under ``keys``, locked (PostgreSQL: ``FOR UPDATE``, in
    community and player order): community -> player -> (skill, games)."""
    locked: Any = conn.execute(_statements(conn)["lock"], {"game": game, "keys": keys, "ids": ids})
    current: dict[str, dict[int, tuple[Skill, int]]] = defaultdict(dict)
    for key, pid, mu, sigma, games in locked:
        current[key][int(pid)] = (Skill(float(mu), float(sigma)), int(games))
    return current


def _rate_in(
    conn: sa.Connection,
    game: str,
    keys: list[str],
    teams: list[list[int]],
    ranks: list[float],
    now: datetime,
) -> None:
    """Update the teams' rows of ``game`` under each community key: lock the rows (in
    community, player order), create the missing ones and lock again, compute, write."""
    sql = _statements(conn)
    ids = sorted(p for team in teams for p in team)
    current = _lock(conn, game, keys, ids)
    missing = [(k, p) for k in keys for p in ids if p not in current[k]]
    if missing:  # a first rated game here: create the rows (waiting for a concurrent insert)
        fresh = Skill()
        seed = {"mu": fresh.mu, "sigma": fresh.sigma, "conservative": fresh.conservative}
        conn.execute(
            sql["seed"],
            [
                {"player_id": p, "game": game, "community": k, "now": now, **seed}
                for k, p in missing
            ],
        )
        current = _lock(conn, game, keys, ids)
    rows: list[dict[str, Any]] = []
    for key in keys:
        now_of = current[key]
        after = rating_model.rate([[now_of[p][0] for p in team] for team in teams], ranks)
        for team, skills in zip(teams, after, strict=True):
            for p, skill in zip(team, skills, strict=True):
                rows.append(
                    {
                        "b_game": game,
                        "b_community": key,
                        "b_player": p,
                        "mu": skill.mu,
                        "sigma": skill.sigma,
                        "conservative": skill.conservative,
                        "games": now_of[p][1] + 1,
                        "now": now,
                    }
                )
    rows.sort(key=lambda row: (row["b_community"], row["b_player"]))
    conn.execute(sql["write"], rows)


# -- reads -----------------------------------------------------------------------------------

_COLUMNS = (
    ratings.c.player_id,
    players.c.name,
    ratings.c.game,
    ratings.c.community,
    ratings.c.mu,
    ratings.c.sigma,
    ratings.c.games,
    ratings.c.updated_at,
)


def _record(row: Any) -> RatingRecord:
    pid, name, game, community, mu, sigma, games, updated_at = row
    return RatingRecord(
        int(pid), name, game, community, float(mu), float(sigma), int(games), aware(updated_at)
    )


def _select() -> sa.Select[Any]:
    return sa.select(*_COLUMNS).join(players, players.c.id == ratings.c.player_id)


async def rating_of(
    conn: AsyncConnection, player_id: int, game: str, key: str
) -> RatingRecord | None:
    """One player's row (a primary-key read), or None."""
    stmt = _select().where(
        ratings.c.player_id == player_id, ratings.c.game == game, ratings.c.community == key
    )
    row = (await conn.execute(stmt)).first()
    return None if row is None else _record(row)


async def ratings_of(
    conn: AsyncConnection, player_ids: Sequence[int], game: str, key: str
) -> dict[int, RatingRecord]:
    """The rows of ``player_ids`` (primary-key reads)."""
    stmt = _select().where(
        ratings.c.player_id.in_(player_ids), ratings.c.game == game, ratings.c.community == key
    )
    return {r.player_id: r for r in map(_record, await conn.execute(stmt))}


BOARD_PAGE = 4  # rows read per row wanted while a platform's board skips other platforms' rows


def board_query(
    game: str, key: str, limit: int, after: tuple[float, int] | None = None
) -> sa.Select[Any]:
    """The board's select: ``ix_ratings_game_community_conservative`` read backwards (ties go to
    the higher player id, so that no sort is needed), each row's player joined by primary key;
    ``after``: the (conservative, player id) of the last row of the page before."""
    stmt = (
        sa.select(*_COLUMNS, ratings.c.conservative, players.c.platform)
        .join(players, players.c.id == ratings.c.player_id)
        .where(ratings.c.game == game, ratings.c.community == key)
        .order_by(ratings.c.conservative.desc(), ratings.c.player_id.desc())
        .limit(limit)
    )
    if after is not None:
        stmt = stmt.where(
            sa.tuple_(ratings.c.conservative, ratings.c.player_id) < sa.tuple_(*after)
        )
    return stmt


async def board(
    conn: AsyncConnection, game: str, key: str, limit: int, platform: str | None = None
) -> list[RatingRecord]:
    """The best ``limit`` rows of ``game`` under ``key``; with ``platform``, of its players
    only: read in pages down the index, the other platforms' rows skipped (on one platform,
    one page), so that the database never orders a whole platform's players."""
    if platform is None:
        return [_record(row[:8]) for row in await conn.execute(board_query(game, key, limit))]
    found: list[RatingRecord] = []
    after: tuple[float, int] | None = None
    page = limit * BOARD_PAGE
    while len(found) < limit:
        rows = list(await conn.execute(board_query(game, key, page, after)))
        found += [_record(row[:8]) for row in rows if row[9] == platform]
        if len(rows) < page:
            break
        after = (float(rows[-1][8]), int(rows[-1][0]))
    return found[:limit]
