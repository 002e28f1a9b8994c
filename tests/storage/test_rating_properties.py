"""Property tests of the ratings over random results (docs/ratings.md): in a rated group the
sole winner's mu never falls and the sole last's never rises, each rated player's games grow by
exactly one (in the community and globally), a computer player never gets a rating row, an
unrated group (one person, an all-even result, a round, a carried pot) leaves the ratings as
they were, and the chips move exactly as the transfers say whatever is rated."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import GameResult, Store, Transfer, escrow, wallet
from storage.models import ALL_COMMUNITIES, rating_opponents, ratings
from testkit.databases import Clock, clear_postgres
from tests.storage.helpers import funded_player

POOL = 6  # people; every one has met three others before the examples' results
KINDS = ("hand", "hand", "hand", "match", "round", "carried")

group = st.tuples(
    st.lists(st.integers(0, POOL - 1), min_size=1, max_size=4, unique=True),  # the people
    st.booleans(),  # a computer player sits in too
    st.lists(st.integers(-50, 50), min_size=5, max_size=5),  # chips per seat
    st.sampled_from(KINDS),
    st.sampled_from(["g1", "g2", None]),  # the table's community
)

Rows = dict[tuple[int, str], tuple[float, float, int]]


async def _rows(store: Store, game: str) -> Rows:
    stmt = sa.select(
        ratings.c.player_id, ratings.c.community, ratings.c.mu, ratings.c.sigma, ratings.c.games
    ).where(ratings.c.game == game)
    async with store.engine.connect() as conn:
        return {(p, c): (mu, s, n) for p, c, mu, s, n in await conn.execute(stmt)}


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.lists(group, min_size=5, max_size=15))
def test_ratings_move_the_right_way_and_count_each_rated_result_once(
    backend: str, url_factory: Callable[..., str], steps: list[tuple]
) -> None:
    async def run() -> None:
        url = url_factory()
        if backend == "postgresql":
            await clear_postgres(url)
        store = await Store.open(url, clock=Clock())
        try:
            people = [await funded_player(store, f"p{k}", 1000) for k in range(POOL)]
            bot = await funded_player(store, "computer1", 1000, platform="bot")
            met = [
                {"player_id": p, "game": "turkish", "opponent_id": q}
                for p in people
                for q in [x for x in people if x != p][:3]
            ]
            async with store.engine.begin() as conn:
                await conn.execute(rating_opponents.insert(), met)
            tables = {}
            for community in ("g1", "g2", None):
                record = await store.create_table(
                    "discord", f"c-{community}", "turkish", {}, {}, community=community
                )
                tables[community] = [record.id, record.version]
                for p in [*people, bot]:
                    await store.buy_in(record.id, p, 100)
            expected = {p: await store.balance(wallet(p)) for p in [*people, bot]}
            for n, (seated, with_bot, chips, kind, community) in enumerate(steps):
                ids = [people[k] for k in seated] + ([bot] if with_bot else [])
                deltas = dict(zip(ids, chips, strict=False))
                results = [
                    GameResult(p, "turkish", d, hand_id=f"h{n}", detail={"kind": kind})
                    for p, d in deltas.items()
                ]
                winner = max(deltas, key=lambda p: deltas[p])
                table = tables[community]
                transfers = [Transfer(escrow(table[0]), wallet(winner), 1, "pot")]
                before = await _rows(store, "turkish")
                table[1] = await store.commit(
                    table[0],
                    table[1],
                    {},
                    results=results,
                    transfers=transfers,
                    people=[p for p in ids if p != bot],
                )
                expected[winner] += 1
                after = await _rows(store, "turkish")
                assert all(p != bot for p, _ in after)
                human = {p: d for p, d in deltas.items() if p != bot}
                rated = len(human) >= 2 and len(set(human.values())) > 1
                rated = rated and kind in ("hand", "match")
                keys = [ALL_COMMUNITIES] + ([community] if community else [])
                if not rated:
                    assert after == before
                    continue
                changed = {k for k in after if after[k] != before.get(k)}
                assert changed == {(p, c) for p in human for c in keys}
                fresh = (25.0, 25.0 / 3, 0)
                for p in human:
                    for c in keys:
                        assert after[(p, c)][2] == before.get((p, c), fresh)[2] + 1
                best, worst = max(human.values()), min(human.values())
                top = [p for p, d in human.items() if d == best]
                last = [p for p, d in human.items() if d == worst]
                for c in keys:
                    if len(top) == 1:
                        assert after[(top[0], c)][0] >= before.get((top[0], c), fresh)[0]
                    if len(last) == 1:
                        assert after[(last[0], c)][0] <= before.get((last[0], c), fresh)[0]
            for p, chips in expected.items():
                assert await store.balance(wallet(p)) == chips
            assert await store.audit() == []
        finally:
            await store.close()

    asyncio.run(run())
