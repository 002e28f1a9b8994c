"""Random `ratings` rows for the benchmarks that fill a database with rated players
(`bench_ratings`, `bench_season`)."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any


def rating_row(
    rng: random.Random,
    player_id: int,
    game: str,
    community: str,
    games: int,
    updated_at: datetime,
) -> dict[str, Any]:
    """One player's rating row with a plausible random mu and sigma (conservative derived)."""
    mu, sigma = rng.gauss(25, 4), rng.uniform(1.5, 8.3)
    return {
        "player_id": player_id,
        "game": game,
        "community": community,
        "mu": mu,
        "sigma": sigma,
        "conservative": mu - 3 * sigma,
        "games": games,
        "updated_at": updated_at,
    }
