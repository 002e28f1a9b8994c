"""A season's end over 10,000 rated players in 4 games (issue 36: < 2 s), side by side with a
plain baseline in the same run.

One community of `--players` players, each rated in every registered game (4 x 10,000 rows of
the community, and as many global rows beside them, as `Store.commit` keeps them), and a
season that is due. Each round times:

- **season end**: what the timer does (`Seasons.tick`): claim the due season, end it in one
  transaction (every game's standings ranked and kept, 40,000 `season_standings` rows, every
  community rating softened, the next season begun), then read the top three of each game for
  the announcement;
- **baseline**: the same 40,000 community rating rows read and written back unchanged one by
  one (by primary key, in one transaction): the least any end that keeps and changes every row
  could cost.

Rounds alternate the two; the season is set due again (and its standings dropped) before each
end. On SQLite (a file, WAL, as the bot runs) always; on PostgreSQL too when BENCH_DATABASE_URL
or TEST_DATABASE_URL is set (a database `bench_season` is made on that server, dropped first).

Run: ``.venv/bin/python -m benchmarks.bench_season [--players 10000] [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa

from benchmarks.rated_rows import rating_row
from benchmarks.scratch_postgres import fresh_database
from bot.core.config import CoreConfig
from bot.core.registry import GAMES
from bot.core.seasons import Seasons
from storage import Store
from storage.models import ALL_COMMUNITIES, players, ratings, season_standings, seasons

PLATFORM = "bench"
COMMUNITY = "guild"
START = datetime(2026, 11, 1, tzinfo=UTC)
NOW = datetime(2026, 12, 1, 0, 0, 5, tzinfo=UTC)


async def fill(store: Store, count: int) -> None:
    """`count` players rated in every game, in the community and globally, and season 1."""
    rng = random.Random(36)
    games = list(GAMES)
    async with store.engine.begin() as conn:
        for first in range(0, count, 5_000):
            rows = [
                {"platform": PLATFORM, "user_id": f"u{n}", "name": f"P{n}", "created_at": START}
                for n in range(first, min(count, first + 5_000))
            ]
            await conn.execute(players.insert(), rows)
        ids = list(
            await conn.scalars(sa.select(players.c.id).where(players.c.platform == PLATFORM))
        )
        for game in games:
            for community in (COMMUNITY, ALL_COMMUNITIES):
                rows = []
                for pid in ids:
                    played = rng.randint(1, 200)
                    at = START + timedelta(minutes=rng.randint(1, 40_000))
                    rows.append(rating_row(rng, pid, game, community, played, at))
                for first in range(0, len(rows), 5_000):
                    await conn.execute(ratings.insert(), rows[first : first + 5_000])
    await store.start_season(PLATFORM, COMMUNITY, START, START, "announcements")


async def make_due(store: Store) -> None:
    """Season 1 due again, its standings dropped (before each timed end)."""
    async with store.engine.begin() as conn:
        await conn.execute(sa.delete(season_standings))
        await conn.execute(
            sa.update(seasons).values(
                number=1, started_at=START, ends_at=NOW - timedelta(seconds=5), deadline=START
            )
        )


async def season_end(store: Store) -> float:
    """Seconds of the timer's season end (claim, end, the announcement's read)."""
    await make_due(store)
    timer = Seasons(store, CoreConfig(default_locale="en"), lambda: NOW)
    timer.enrolled = NOW  # the enrolment's look at the tables is not this benchmark's
    started = time.perf_counter()
    out = await timer.tick(NOW)
    took = time.perf_counter() - started
    assert len(out) == 1 and "P" in out[0].text, out
    return took


def _read_and_write_back(conn: sa.Connection) -> int:
    rows = conn.execute(
        sa.select(
            ratings.c.player_id, ratings.c.game, ratings.c.mu, ratings.c.sigma, ratings.c.games
        ).where(ratings.c.game.in_(list(GAMES)), ratings.c.community == COMMUNITY)
    ).all()
    stmt = (
        sa.update(ratings)
        .where(
            ratings.c.player_id == sa.bindparam("pid"),
            ratings.c.game == sa.bindparam("g"),
            ratings.c.community == COMMUNITY,
        )
        .values(mu=sa.bindparam("m"), sigma=sa.bindparam("s"), games=sa.bindparam("n"))
    )
    conn.execute(
        stmt,
        [{"pid": r.player_id, "g": r.game, "m": r.mu, "s": r.sigma, "n": r.games} for r in rows],
    )
    return len(rows)


async def baseline(store: Store) -> float:
    """Seconds to read the community's rating rows and write each back unchanged."""
    started = time.perf_counter()
    written = await store._writer.run_sync(_read_and_write_back)
    took = time.perf_counter() - started
    assert written == len(GAMES) * PLAYERS[0], written
    return took


PLAYERS = [10_000]


async def measure(name: str, url: str, rounds: int) -> dict[str, Any]:
    """Fill the database at `url` and time the rounds; one result line."""
    store = await Store.open(url)
    try:
        started = time.perf_counter()
        await fill(store, PLAYERS[0])
        filled = time.perf_counter() - started
        ends: list[float] = []
        bases: list[float] = []
        for _ in range(rounds):
            ends.append(await season_end(store))
            bases.append(await baseline(store))
        async with store.engine.connect() as conn:
            kept = await conn.scalar(sa.select(sa.func.count()).select_from(season_standings))
    finally:
        await store.close()
    rows = len(GAMES) * PLAYERS[0]
    print(
        f"{name:<11} {PLAYERS[0]:,} players x {len(GAMES)} games ({rows:,} community rows,"
        f" {kept:,} standings kept; filled in {filled:.1f} s)\n"
        f"  season end: median {statistics.median(ends):.3f} s  (rounds: "
        f"{', '.join(f'{s:.3f}' for s in ends)})\n"
        f"  baseline:   median {statistics.median(bases):.3f} s  (rounds: "
        f"{', '.join(f'{s:.3f}' for s in bases)})  read + {rows:,} rows written back"
    )
    return {"db": name, "end": ends, "baseline": bases}


async def postgres_url() -> str | None:
    """A fresh `bench_season` database on the server of BENCH_DATABASE_URL or
    TEST_DATABASE_URL, or None when neither is set."""
    base = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL")
    return await fresh_database(base, "bench_season") if base else None


async def main() -> None:
    """SQLite, then PostgreSQL when a server is given."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    PLAYERS[0] = args.players
    runs: list[tuple[str, Callable[[], Awaitable[str | None]]]] = []
    with tempfile.TemporaryDirectory() as folder:

        async def sqlite() -> str:
            return f"sqlite+aiosqlite:///{folder}/season.db"

        runs = [("SQLite", sqlite), ("PostgreSQL", postgres_url)]
        for name, url_of in runs:
            url = await url_of()
            if url is None:
                print(f"{name:<11} skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL")
                continue
            await measure(name, url, args.rounds)


if __name__ == "__main__":
    asyncio.run(main())
