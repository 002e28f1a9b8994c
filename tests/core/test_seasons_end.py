"""A season's end (docs/seasons.md): one message with each game's top three in the season's
channel, the final standings kept and listed, the ratings softened; exactly once, also with
two processes on one database (SQLite and, with TEST_DATABASE_URL, PostgreSQL)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
import sqlalchemy as sa

from bot.core.messages import OutKind
from storage.models import season_standings
from storage.rating_model import MU, SIGMA
from storage.seasons import MU_KEEP, SIGMA_BACK
from testkit.helpers import START, Clock, cmd, make_core
from testkit.seasons import Rated, make_players, rating_rows, write_ratings

COMMUNITY = "g1"
DAY = timedelta(days=1)


async def _setup(store, clock: Clock) -> list[int]:
    """Season 1 of g1 (weekly, from START, announced in "c1") and rated players in two games
    (Türk pokeri: five, with ties; 101 Okey: one), plus a player of another community."""
    core = make_core(store, clock=clock)
    await core.handle(cmd("mod", "/season length weekly", mod=True, community=COMMUNITY))
    ids = await make_players(store, "test", 7, START)
    a, b, c, d, e, f, g = ids
    during = START + DAY
    await write_ratings(
        store,
        COMMUNITY,
        [
            Rated(a, "turkish", 30.0, 2.0, 40, during),  # shown 1000 + 40 * 24 = 1960
            Rated(b, "turkish", 28.0, 2.0, 12, during),  # 1880, fewer games than c
            Rated(c, "turkish", 28.0, 2.0, 30, during + DAY),  # 1880, more games: before b
            Rated(d, "turkish", 28.0, 2.0, 12, during + DAY),  # 1880, as b but later: after b
            Rated(e, "turkish", 20.0, 2.0, 99, during),  # 1560
            Rated(f, "okey101", 26.0, 4.0, 15, during),
            # rated before the season began: not in its standings, softened all the same
            Rated(g, "turkish", 40.0, 1.0, 80, START - DAY),
        ],
    )
    await write_ratings(store, "other", [Rated(a, "turkish", 35.0, 1.0, 50, during)])
    return ids


def _soft(mu: float, sigma: float) -> tuple[float, float]:
    return MU + (mu - MU) * MU_KEEP, (sigma + (SIGMA - sigma) * SIGMA_BACK)


async def _standings(store) -> list[tuple]:
    async with store.engine.connect() as conn:
        found = await conn.execute(
            sa.select(
                season_standings.c.season,
                season_standings.c.game,
                season_standings.c.rank,
                season_standings.c.player_id,
                season_standings.c.rating,
                season_standings.c.games,
            ).order_by(season_standings.c.game, season_standings.c.rank)
        )
        return [tuple(r) for r in found]


async def test_the_end_announces_keeps_and_softens_once(store) -> None:
    clock = Clock()
    a, b, c, d, e, f, _ = await _setup(store, clock)
    core = make_core(store, clock=clock)
    assert await core.tick(START + 6 * DAY) == []  # not over yet
    before = await rating_rows(store, COMMUNITY)

    out = await core.tick(START + 7 * DAY + timedelta(seconds=3))
    [announced] = [o for o in out if o.kind is OutKind.PUBLIC]
    assert announced.channel_id == "c1"
    assert announced.text.splitlines() == [
        "🏆 Season 1 is over! The top three of each game:",
        "Türk pokeri:",
        "🥇 P1: 1960 (40 games)",
        "🥈 P3: 1880 (30 games)",
        "🥉 P2: 1880 (12 games)",
        "101 Okey:",
        "🥇 P6: 1560 (15 games)",
        "Season 2 begins now: every rating here moves partway back towards the start, "
        "so everyone can climb again.",
    ]
    assert await _standings(store) == [
        (1, "okey101", 1, f, 1560, 15),
        (1, "turkish", 1, a, 1960, 40),
        (1, "turkish", 2, c, 1880, 30),
        (1, "turkish", 3, b, 1880, 12),
        (1, "turkish", 4, d, 1880, 12),
        (1, "turkish", 5, e, 1560, 99),
    ]
    after = await rating_rows(store, COMMUNITY)
    for key, (mu, sigma) in before.items():
        assert after[key] == pytest.approx(_soft(mu, sigma))
        assert abs(after[key][0] - MU) < abs(mu - MU)  # towards the mean
        assert after[key][1] > sigma  # less sure again
    assert await rating_rows(store, "other") == {(a, "turkish"): (35.0, 1.0)}  # elsewhere: kept

    season = await store.season("test", COMMUNITY)
    assert (season.number, season.started_at) == (2, START + 7 * DAY)
    assert season.ends_at == START + 14 * DAY
    # ticking on ends nothing twice
    assert await core.tick(START + 7 * DAY + timedelta(seconds=90)) == []
    assert len(await _standings(store)) == 6
    assert await rating_rows(store, COMMUNITY) == after


async def test_past_and_current_seasons_are_listed(store) -> None:
    clock = Clock()
    e = (await _setup(store, clock))[4]
    core = make_core(store, clock=clock)
    await core.tick(START + 7 * DAY)
    clock.now = START + 8 * DAY
    [past] = await core.handle(cmd("ali", "/season 1", community=COMMUNITY))
    assert past.text.splitlines()[:6] == [
        "Season 1, final standings:",
        "Türk pokeri:",
        "🥇 P1: 1960 (40 games)",
        "🥈 P3: 1880 (30 games)",
        "🥉 P2: 1880 (12 games)",
        "4. P4: 1880 (12 games)",
    ]
    [now] = await core.handle(cmd("ali", "/sezon", community=COMMUNITY, locale="tr"))
    assert now.text.splitlines() == [
        "2. sezon (haftalık) 2026-01-19 15:00 (Europe/Istanbul) tarihinde bitiyor, "
        "6 gün 0 sa 0 dk kaldı.",
        "Bu sezon henüz puanlı oyun yok.",
    ]
    await write_ratings(store, COMMUNITY, [Rated(e, "turkish", 26.0, 2.0, 100, clock.now)])
    [now] = await core.handle(cmd("ali", "/season", community=COMMUNITY))
    assert now.text.splitlines()[1:] == ["Türk pokeri:", "🥇 P5: 1800 (100 games)"]


async def test_a_moderator_lengthening_the_season_after_the_claim_wins(store) -> None:
    clock = Clock()
    await _setup(store, clock)
    core = make_core(store, clock=clock)
    [claimed] = await store.claim_seasons(START + 7 * DAY)
    clock.now = START + 7 * DAY
    await core.handle(cmd("mod", "/season length 30", mod=True, community=COMMUNITY))
    assert not await store.end_season(claimed, ["turkish"], START + 14 * DAY)
    assert await _standings(store) == []
    assert (await store.season("test", COMMUNITY)).ends_at == START + 30 * DAY


async def test_two_processes_end_a_season_once(stores) -> None:
    first, second = stores
    clock = Clock()
    await _setup(first, clock)
    cores = [make_core(s, clock=clock) for s in stores]
    before = await rating_rows(first, COMMUNITY)
    due = START + 7 * DAY
    results = await asyncio.gather(*(core.tick(due) for core in cores))
    announced = [o for out in results for o in out if o.kind is OutKind.PUBLIC]
    assert len(announced) == 1
    assert announced[0].text.startswith("🏆 Season 1 is over!")
    assert len(await _standings(second)) == 6
    after = await rating_rows(second, COMMUNITY)
    assert after.keys() == before.keys()
    for key, (mu, sigma) in before.items():
        assert after[key] == pytest.approx(_soft(mu, sigma))  # softened once, not twice
    # the claim's lease runs out: the other process still finds nothing left to end
    later = [await core.tick(due + timedelta(minutes=5)) for core in reversed(cores)]
    assert later == [[], []]
    assert len(await _standings(first)) == 6
    assert (await first.season("test", COMMUNITY)).number == 2


async def test_a_season_of_rated_poker_hands_ends_with_its_players(memory_store) -> None:
    from tests.core.test_core_ratings import play_poker_hands

    clock = Clock()
    core = make_core(memory_store, seed="season", clock=clock)
    # the season begins here, before any hand: its end is announced in this channel
    await core.handle(cmd("deniz", "/season", channel="lobby", community=COMMUNITY))
    await play_poker_hands(core, 3, community=COMMUNITY)
    [leaders] = await core.handle(cmd("deniz", "/season", channel="lobby", community=COMMUNITY))
    top = leaders.text.splitlines()[2:5]
    assert [line[0] for line in top] == ["🥇", "🥈", "🥉"]
    assert {line.split()[1].rstrip(":") for line in top} < {"Ayse", "Mehmet", "Cem", "Deniz"}
    before = await rating_rows(memory_store, COMMUNITY)
    assert len(before) == 4

    out = await core.tick(START + 31 * DAY)
    [announced] = [o for o in out if o.kind is OutKind.PUBLIC and o.channel_id == "lobby"]
    assert announced.text.splitlines()[2:5] == top  # the leaders shown were the final three
    after = await rating_rows(memory_store, COMMUNITY)
    for key, (mu, sigma) in before.items():
        assert after[key] == pytest.approx(_soft(mu, sigma))
    assert (await memory_store.season("test", COMMUNITY)).number == 2
