"""Ratings written straight into the store, for the seasons' tests and benchmark: what
`Store.commit` keeps after rated results (storage/ratings.py), without playing the games."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

from storage import Store
from storage.models import players, ratings


@dataclass(frozen=True)
class Rated:
    """One player's rating in a game of a community."""

    player_id: int
    game: str
    mu: float
    sigma: float
    games: int
    at: datetime


async def make_players(
    store: Store, platform: str, count: int, at: datetime, first: int = 1
) -> list[int]:
    """`count` players (`p<first>`...), made in one transaction; their ids in order."""
    rows = [
        {"platform": platform, "user_id": f"p{n}", "name": f"P{n}", "created_at": at}
        for n in range(first, first + count)
    ]
    async with store.engine.begin() as conn:
        await conn.execute(players.insert(), rows)
        found = await conn.execute(
            sa.select(players.c.id).where(players.c.platform == platform).order_by(players.c.id)
        )
        return [row.id for row in found][-count:]


async def write_ratings(store: Store, community: str, rated: Sequence[Rated]) -> None:
    """Write (or replace) these ratings of `community`."""
    rows = [
        {
            "player_id": r.player_id,
            "game": r.game,
            "community": community,
            "mu": r.mu,
            "sigma": r.sigma,
            "conservative": r.mu - 3 * r.sigma,
            "games": r.games,
            "updated_at": r.at,
        }
        for r in rated
    ]
    async with store.engine.begin() as conn:
        for r in rated:
            await conn.execute(
                sa.delete(ratings).where(
                    ratings.c.player_id == r.player_id,
                    ratings.c.game == r.game,
                    ratings.c.community == community,
                )
            )
        if rows:
            await conn.execute(ratings.insert(), rows)


async def rating_rows(store: Store, community: str) -> dict[tuple[int, str], tuple[float, float]]:
    """Every (player, game) of `community` -> (mu, sigma)."""
    async with store.engine.connect() as conn:
        found = await conn.execute(
            sa.select(ratings.c.player_id, ratings.c.game, ratings.c.mu, ratings.c.sigma).where(
                ratings.c.community == community
            )
        )
        return {(r.player_id, r.game): (r.mu, r.sigma) for r in found}
