"""Skill ratings kept by ``Store.commit`` (storage/ratings.py, docs/ratings.md): who is rated,
the alt-account rule, exactly once on a replayed key, and no lost update when two stores
commit results of the same players at once."""

from __future__ import annotations

import asyncio

import sqlalchemy as sa

from storage import MIN_OPPONENTS, GameResult, RatingRecord, Store
from storage.models import ALL_COMMUNITIES, ratings
from storage.rating_model import MU, SIGMA, Skill, rate
from tests.storage.helpers import AT, funded_player


async def _people(store: Store, n: int, prefix: str = "p") -> list[int]:
    return [await funded_player(store, f"{prefix}{k}", 0) for k in range(n)]


def _hand(hand: str, deltas: dict[int, int], game: str = "turkish") -> list[GameResult]:
    return [
        GameResult(p, game, d, hand_id=hand, detail={"kind": "hand"}) for p, d in deltas.items()
    ]


async def _rows(store: Store) -> dict[tuple[int, str, str], tuple[float, float, int]]:
    stmt = sa.select(
        ratings.c.player_id,
        ratings.c.game,
        ratings.c.community,
        ratings.c.mu,
        ratings.c.sigma,
        ratings.c.games,
    )
    async with store.engine.connect() as conn:
        return {(p, g, c): (mu, s, n) for p, g, c, mu, s, n in await conn.execute(stmt)}


async def _table(store: Store, channel: str = "c", community: str | None = "g1") -> list[int]:
    record = await store.create_table("discord", channel, "turkish", {}, {}, community=community)
    return [record.id, record.version]


async def _commit(
    store: Store, table: list[int], results: list[GameResult], people: list[int], key=None
) -> None:
    table[1] = await store.commit(
        table[0], table[1], {}, results=results, people=people, idempotency_key=key
    )


async def test_a_hand_of_four_people_rates_each_in_its_community_and_globally(
    store: Store,
) -> None:
    a, b, c, d = await _people(store, 4)
    table = await _table(store)
    await _commit(store, table, _hand("h1", {a: 30, b: -10, c: -10, d: -10}), [a, b, c, d])
    rows = await _rows(store)
    assert set(rows) == {(p, "turkish", k) for p in (a, b, c, d) for k in ("g1", ALL_COMMUNITIES)}
    assert all(n == 1 for _, _, n in rows.values())
    mu_a, sigma_a, _ = rows[(a, "turkish", "g1")]
    assert mu_a > MU and sigma_a < SIGMA
    assert rows[(b, "turkish", "g1")][0] < MU
    assert rows[(a, "turkish", "g1")] == rows[(a, "turkish", ALL_COMMUNITIES)]
    shown = await store.rating(a, "turkish", "g1")
    assert isinstance(shown, RatingRecord) and shown.name == "P0" and shown.games == 1
    assert shown.provisional and shown.shown > 1000
    assert await store.rating(a, "okey", "g1") is None
    board = await store.rating_board("turkish", "g1")
    assert board[0].player_id == a
    assert len(board) == 4
    seats = await store.seat_ratings([a, b, 999], "turkish", None)
    assert set(seats) == {a, b}


async def test_the_update_is_openskills_plackett_luce(store: Store) -> None:
    a, b, c, d = await _people(store, 4)
    table = await _table(store, community=None)
    await _commit(store, table, _hand("h1", {a: 5, b: 20, c: -10, d: -15}), [a, b, c, d])
    expected = rate([[Skill()]] * 4, [-5.0, -20.0, 10.0, 15.0])
    rows = await _rows(store)
    for pid, [skill] in zip((a, b, c, d), expected, strict=True):
        mu, sigma, _ = rows[(pid, "turkish", ALL_COMMUNITIES)]
        assert (round(mu, 9), round(sigma, 9)) == (round(skill.mu, 9), round(skill.sigma, 9))
    assert {k[2] for k in rows} == {ALL_COMMUNITIES}  # no community: the global rows only


async def test_computer_players_are_left_out_and_one_person_is_not_rated(store: Store) -> None:
    a, b, c, d = await _people(store, 4)
    bot = await funded_player(store, "computer1", 0, platform="bot")
    table = await _table(store)
    await _commit(store, table, _hand("h1", {a: 30, bot: -30}), [a])
    await _commit(store, table, _hand("h2", {a: 30, b: -10, c: -10, d: -5, bot: -5}), [a, b, c, d])
    rows = await _rows(store)
    assert all(pid != bot for pid, _, _ in rows)
    assert rows[(a, "turkish", "g1")][2] == 1  # the hand against the computer alone: not rated


async def test_rounds_carried_pots_and_equal_results_are_not_rated(store: Store) -> None:
    people = await _people(store, 4)
    table = await _table(store)
    results = [GameResult(p, "okey", 0, hand_id="r1", detail={"kind": "round"}) for p in people] + [
        GameResult(p, "turkish", 5, hand_id="c1", detail={"kind": "carried"}) for p in people
    ]
    results += _hand("even", dict.fromkeys(people, -10))
    await _commit(store, table, results, people)
    assert await _rows(store) == {}


async def test_teams_are_the_sides_and_the_place_orders_them(store: Store) -> None:
    a, b, c, d = await _people(store, 4)
    table = await _table(store)
    results = [
        GameResult(
            p,
            "okey101",
            chips,
            hand_id="m1",
            detail={"kind": "match", "side": side, "place": place},
        )
        for p, chips, side, place in ((a, 50, 0, 1), (b, -50, 1, 2), (c, 50, 0, 1), (d, -50, 1, 2))
    ]
    await _commit(store, table, results, [a, b, c, d])
    rows = await _rows(store)
    [[ta, _], [_, td]] = rate([[Skill(), Skill()], [Skill(), Skill()]], [1.0, 2.0])
    assert round(rows[(a, "okey101", "g1")][0], 9) == round(ta.mu, 9)
    assert round(rows[(d, "okey101", "g1")][0], 9) == round(td.mu, 9)
    assert rows[(a, "okey101", "g1")][0] == rows[(c, "okey101", "g1")][0] > MU


async def test_alt_accounts_that_only_meet_each_other_are_never_rated(store: Store) -> None:
    alt, main, *others = await _people(store, 2 + MIN_OPPONENTS + 1)
    table = await _table(store)
    for n in range(30):
        await _commit(store, table, _hand(f"d{n}", {alt: -100, main: 100}), [alt, main])
    assert await _rows(store) == {}
    # the main account meets other people (a four-person hand, rated: each met three) ...
    await _commit(
        store,
        table,
        _hand("x", dict(zip([main, *others[:3]], (9, -3, -3, -3), strict=True))),
        [main, *others[:3]],
    )
    rated = await _rows(store)
    assert (main, "turkish", "g1") in rated and (alt, "turkish", "g1") not in rated
    # ... but the alt met nobody else, so their hands together still rate neither
    await _commit(store, table, _hand("d-late", {alt: -100, main: 100}), [alt, main])
    assert await _rows(store) == rated


async def test_a_player_who_met_three_people_is_rated_in_a_two_person_hand(store: Store) -> None:
    a, b, c, d = await _people(store, 4)
    table = await _table(store)
    await _commit(store, table, _hand("h1", {a: 1, b: -1, c: 0}), [a, b, c])  # each met two
    assert await _rows(store) == {}
    await _commit(store, table, _hand("h2", {a: 1, b: -1, d: 0}), [a, b, d])  # a, b: three
    assert await _rows(store) == {}  # d met two only
    await _commit(store, table, _hand("h3", {a: 5, b: -5}), [a, b])
    rows = await _rows(store)
    assert set(rows) == {(p, "turkish", k) for p in (a, b) for k in ("g1", ALL_COMMUNITIES)}


async def test_a_replayed_key_rates_once(store: Store) -> None:
    people = await _people(store, 4)
    table = await _table(store)
    hand = _hand("h1", dict(zip(people, (9, -3, -3, -3), strict=True)))
    version = table[1]
    await _commit(store, table, hand, people, key="step-1")
    once = await _rows(store)
    table[1] = version  # the same step sent again after a restart: the key answers
    await _commit(store, table, hand, people, key="step-1")
    assert await _rows(store) == once
    assert all(n == 1 for _, _, n in once.values())


async def test_two_stores_rating_the_same_players_at_once_lose_no_update(
    stores: list[Store],
) -> None:
    """Every match has the same order, so any serial order of them ends in the same ratings.
    No chips are won (no win tally row locks and so serialises the commits by accident)."""
    first, second = stores
    people = await _people(first, 4)
    tables = [await _table(s, f"c{n}", "g1") for n, s in enumerate((first, second) * 3)]
    rounds = 4

    async def play(store: Store, table: list[int], n: int) -> None:
        for k in range(rounds):
            match = [
                GameResult(p, "okey", 0, hand_id=f"t{n}-{k}", detail={"place": place})
                for place, p in enumerate(people, 1)
            ]
            await _commit(store, table, match, people)

    await asyncio.gather(
        *(play((first, second)[n % 2], table, n) for n, table in enumerate(tables))
    )
    skills = [[Skill()] for _ in people]
    for _ in range(len(tables) * rounds):
        skills = rate(skills, [1.0, 2.0, 3.0, 4.0])
    rows = await _rows(first)
    for pid, [skill] in zip(people, skills, strict=True):
        for key in ("g1", ALL_COMMUNITIES):
            mu, sigma, games = rows[(pid, "okey", key)]
            assert games == len(tables) * rounds
            assert abs(mu - skill.mu) < 1e-9 and abs(sigma - skill.sigma) < 1e-9


async def test_a_platforms_board_skips_the_other_platforms_across_pages(store: Store) -> None:
    from storage.models import players as player_rows

    mine = [await funded_player(store, f"m{k}", 0, platform="telegram") for k in range(5)]
    others = [await funded_player(store, f"o{k}", 0, platform="discord") for k in range(90)]
    rows = [
        {
            "player_id": p,
            "game": "okey",
            "community": ALL_COMMUNITIES,
            "mu": 40.0 - k * 0.1,
            "sigma": 1.0,
            "conservative": 37.0 - k * 0.1,
            "games": 20,
            "updated_at": AT,
        }
        for k, p in enumerate(others + mine)  # the other platform's players rank above
    ]
    async with store.engine.begin() as conn:
        await conn.execute(ratings.insert(), rows)
        assert await conn.scalar(sa.select(sa.func.count()).select_from(player_rows)) == 95
    board = await store.rating_board("okey", None, limit=3, platform="telegram")
    assert [r.player_id for r in board] == mine[:3]
    assert [r.player_id for r in await store.rating_board("okey", None, 3)] == others[:3]
    assert len(await store.rating_board("okey", None, limit=10, platform="telegram")) == 5
    assert not board[0].provisional and board[0].shown == round(1000 + 40 * (37.0 - 9.0))
