"""Communities: recorded with tables, results and Okey penalties; the boards per community and
for everyone equal a direct recount; the queries read indexes; migration 0004 up and down."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest
import sqlalchemy as sa

from storage import (
    CommunityFull,
    ComputerLimit,
    GameResult,
    InvalidRequest,
    PenaltyEntry,
    Store,
)
from storage.boards import board_query
from storage.migrate import downgrade, upgrade
from storage.models import game_results, okey_penalties, tables
from tests.storage.helpers import funded_player, old_player


async def _rows(store: Store, stmt: sa.Select) -> list[tuple]:
    async with store.engine.connect() as conn:
        return [tuple(row) for row in await conn.execute(stmt)]


async def test_results_and_penalties_take_the_tables_community(store: Store) -> None:
    a = await funded_player(store, "a", 100)
    guild = await store.create_table("discord", "c1", "okey", {}, {}, community="guild-1")
    loose = await store.create_table("discord", "c2", "turkish", {}, {})
    assert guild.community == "guild-1" and loose.community is None
    assert (await store.get_table(guild.id)).community == "guild-1"
    assert (await store.load_open_tables())[0].community == "guild-1"
    await store.commit(
        guild.id,
        1,
        {},
        results=[GameResult(a, "okey", 5, hand_id="1-m1")],
        penalties=[PenaltyEntry(a, 12, "1-m1")],
    )
    await store.commit(loose.id, 1, {}, results=[GameResult(a, "turkish", -5, hand_id="2-1")])
    got = await _rows(
        store,
        sa.select(game_results.c.hand_id, game_results.c.community).order_by(game_results.c.id),
    )
    assert got == [("1-m1", "guild-1"), ("2-1", None)]
    got = await _rows(store, sa.select(okey_penalties.c.match_id, okey_penalties.c.community))
    assert got == [("1-m1", "guild-1")]
    # a later total of the same match stays in the community
    await store.commit(guild.id, 2, {}, penalties=[PenaltyEntry(a, 30, "1-m1")])
    got = await _rows(store, sa.select(okey_penalties.c.points, okey_penalties.c.community))
    assert got == [(30, "guild-1")]


async def test_a_bad_community_is_refused(store: Store) -> None:
    with pytest.raises(InvalidRequest, match="community"):
        await store.create_table("discord", "c1", "okey", {}, {}, community="x" * 65)
    with pytest.raises(InvalidRequest, match="community"):
        await store.create_table("discord", "c1", "okey", {}, {}, community=" ")
    with pytest.raises(InvalidRequest, match="community"):
        await store.leaderboard("chips", community="")
    with pytest.raises(InvalidRequest, match="wins"):
        await store.leaderboard("karma")  # type: ignore[arg-type]
    assert await _rows(store, sa.select(tables.c.id)) == []


async def test_boards_per_community(store: Store) -> None:
    a = await funded_player(store, "a", 50)
    b = await funded_player(store, "b", 70)
    c = await funded_player(store, "c", 90)
    t1 = await store.create_table("discord", "c1", "turkish", {}, {}, community="g1")
    t2 = await store.create_table("discord", "c2", "turkish", {}, {}, community="g2")
    await store.commit(
        t1.id, 1, {}, results=[GameResult(a, "turkish", 10), GameResult(b, "turkish", -10)]
    )
    await store.commit(t2.id, 1, {}, results=[GameResult(c, "turkish", 4)])
    await store.commit(t2.id, 2, {}, results=[GameResult(c, "turkish", 0)])
    assert await store.leaderboard("chips", community="g1") == [("B", 70), ("A", 50)]
    assert await store.leaderboard("chips", community="g2") == [("C", 90)]
    assert await store.leaderboard("chips") == [("C", 90), ("B", 70), ("A", 50)]
    assert await store.leaderboard("wins", community="g1") == [("A", 1)]
    assert await store.leaderboard("wins") == [("A", 1), ("C", 1)]  # a tie: lower id first
    assert await store.leaderboard("wins", community="elsewhere") == []
    assert await store.leaderboard("okey", community="g1") == []


async def test_boards_equal_a_direct_recount(store: Store) -> None:
    rng = random.Random(18)
    communities = ["g1", "g2", "-100777", None]
    people = []
    for n in range(12):
        platform = "telegram" if n % 3 == 0 else "discord"
        people.append(await funded_player(store, f"p{n}", rng.randrange(1, 500), platform))
    table_of = {}
    for n, community in enumerate(communities):
        record = await store.create_table("discord", f"ch{n}", "okey", {}, {}, community=community)
        table_of[community] = [record.id, record.version]
    results: list[tuple[int, int, str | None]] = []
    totals: dict[tuple[int, str], tuple[int, str | None]] = {}
    for step in range(60):
        community = rng.choice(communities)
        table = table_of[community]
        seated = rng.sample(people, rng.randrange(1, 4))
        hand = [GameResult(p, "okey", rng.randrange(-20, 21)) for p in seated]
        match = f"m{rng.randrange(10)}-{community}"
        fines = [PenaltyEntry(p, rng.randrange(0, 90), match) for p in seated]
        table[1] = await store.commit(table[0], table[1], {}, results=hand, penalties=fines)
        results += [(r.player_id, r.chips_delta, community) for r in hand]
        totals.update({(f.player_id, f.match_id): (f.points, community) for f in fines})
        del step
    names = {p: f"P{n}" for n, p in enumerate(people)}
    platform_of = {p: "telegram" if n % 3 == 0 else "discord" for n, p in enumerate(people)}
    chips = {p: await store.balance(f"player:{p}") for p in people}

    def expected(kind: str, community: str | None, platform: str | None) -> list:
        scope = {c for c in communities if community is None or c == community}
        value: dict[int, int] = defaultdict(int)
        if kind == "chips":
            members = {p for p, _, c in results if c in scope} if community else set(people)
            value.update({p: chips[p] for p in members})
        elif kind == "wins":
            for p, delta, c in results:
                value[p] += int(delta > 0 and c in scope)
            value = defaultdict(int, {p: v for p, v in value.items() if v})
        else:
            for (p, _), (points, c) in totals.items():
                if c in scope:
                    value[p] += points
        rows = [(v, p) for p, v in value.items() if platform is None or platform_of[p] == platform]
        rows.sort(key=lambda vp: (vp[0] if kind == "okey" else -vp[0], vp[1]))
        return [(names[p], v) for v, p in rows[:7]]

    for kind in ("chips", "okey", "wins"):
        for community in ("g1", "g2", "-100777", None):
            for platform in ("discord", "telegram", None):
                got = await store.leaderboard(kind, 7, platform=platform, community=community)
                assert got == expected(kind, community, platform), (kind, community, platform)


PLANS = {
    "chips": "ix_game_results_community_player_id",
    "okey": "ix_okey_penalties_community_player_id",
    "wins": "ix_win_tallies_community_wins",
}


@pytest.mark.parametrize("kind", sorted(PLANS))
async def test_community_boards_read_their_index(tmp_path, kind: str) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'plan.db'}")
    try:
        stmt = board_query(kind, 10, "discord", "g1")  # type: ignore[arg-type]
        plan = await _plan(store, stmt)
        assert PLANS[kind] in plan
        assert "SCAN game_results" not in plan and "SCAN okey_penalties" not in plan
        everyone = await _plan(store, board_query("wins", 10, None, None))
        assert "game_results" not in everyone and "win_tallies" in everyone
        everyone = await _plan(store, board_query("okey", 10, None, None))
        assert "COVERING INDEX ix_okey_penalties_player_id_points" in everyone
    finally:
        await store.close()


async def test_player_history_queries_read_their_index(tmp_path) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'plan.db'}")
    try:
        newest = game_results.c.at.desc()
        mine = sa.select(game_results).where(game_results.c.player_id == 1)
        plan = await _plan(store, mine.order_by(newest).limit(10))
        assert "ix_game_results_player_id_at" in plan and "TEMP B-TREE" not in plan
        one_game = mine.where(game_results.c.game == "okey").order_by(newest).limit(100)
        plan = await _plan(store, one_game)
        assert "ix_game_results_player_id_game_at" in plan and "TEMP B-TREE" not in plan
    finally:
        await store.close()


async def _plan(store: Store, stmt: sa.Select) -> str:
    async with store.engine.connect() as conn:
        compiled = stmt.compile(conn.sync_engine, compile_kwargs={"literal_binds": True})
        rows = await conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {compiled}")
        return "\n".join(str(row[-1]) for row in rows)


async def test_migration_0004_keeps_old_rows_without_a_community(unmigrated_url: str) -> None:
    store = await Store.open(unmigrated_url, migrate=False)
    try:
        await upgrade(store.engine, "0003")
        a = await old_player(store, "a", 40)
        at = "2026-01-01 00:00:00+00:00"
        async with store.engine.begin() as conn:
            await conn.exec_driver_sql(
                "INSERT INTO tables (platform, channel_id, game, options, status, snapshot,"
                " version, last_seq, created_at, updated_at)"
                f" VALUES ('discord', 'c', 'okey', '{{}}', 'open', '{{}}', 1, 0, '{at}', '{at}')"
            )
            await conn.exec_driver_sql(
                "INSERT INTO game_results (table_id, player_id, game, chips_delta, hand_id,"
                f" detail, at) VALUES (1, {a}, 'okey', 9, '1-m1', '{{}}', '{at}')"
            )
            await conn.exec_driver_sql(
                "INSERT INTO okey_penalties (player_id, match_id, table_id, points, updated_at)"
                f" VALUES ({a}, '1-m1', 1, 33, '{at}')"
            )
        await upgrade(store.engine, "head")
        assert (await store.get_table(1)).community is None
        assert await store.leaderboard("wins") == [("A", 1)]
        assert await store.leaderboard("okey") == [("A", 33)]
        assert await store.leaderboard("wins", community="g") == []
        assert await store.leaderboard("chips", community="g") == []
        await downgrade(store.engine, "0003")
        async with store.engine.connect() as conn:
            count = await conn.exec_driver_sql("SELECT count(*) FROM game_results")
            assert count.scalar() == 1
            columns = await conn.run_sync(
                lambda sync: [c["name"] for c in sa.inspect(sync).get_columns("game_results")]
            )
        assert "community" not in columns
        await upgrade(store.engine, "head")
    finally:
        await store.close()


async def test_limits_are_counted_in_the_opening_transaction(store: Store) -> None:
    await store.create_table("discord", "c1", "okey", {}, {}, community="g1", max_open=2)
    await store.create_table("discord", "c2", "okey", {}, {}, community="g1", max_open=2)
    with pytest.raises(CommunityFull) as full:
        await store.create_table("discord", "c3", "okey", {}, {}, community="g1", max_open=2)
    assert (full.value.what, full.value.most) == ("tables", 2)
    # another community, no community, a tournament's table and no limit are not held back
    await store.create_table("discord", "c4", "okey", {}, {}, community="g2", max_open=2)
    await store.create_table("discord", "c5", "okey", {}, {}, max_open=2)
    tour = await store.create_tournament("discord", "c6", "okey", {}, community="g1", max_live=1)
    await store.create_table("discord", "c7", "okey", {}, {}, community="g1", tournament=tour.id)
    await store.create_table("discord", "c8", "okey", {}, {}, community="g1", max_open=3)
    await store.create_table("discord", "c9", "okey", {}, {}, community="g1")
    assert await store.community_table_count("discord", "g1") == 4
    with pytest.raises(CommunityFull) as full:
        await store.create_tournament("discord", "c9", "okey", {}, community="g1", max_live=1)
    assert (full.value.what, full.value.most) == ("tournaments", 1)
    assert await store.community_tournaments("discord", "g1") == 1
    with pytest.raises(InvalidRequest, match="max_open"):
        await store.create_table("discord", "c10", "okey", {}, {}, community="g1", max_open=-1)


async def test_a_seated_computer_is_counted_in_the_commit(store: Store) -> None:
    def seated(snapshot: dict) -> int:
        return sum(1 for seat in snapshot.get("seats", ()) if seat.get("bot"))

    limit = ComputerLimit(2, seated)
    one, two = {"seats": [{"bot": True}]}, {"seats": [{"bot": True}, {"bot": True}]}
    a = await store.create_table("discord", "c1", "okey", {}, {}, community="g1")
    b = await store.create_table("discord", "c2", "okey", {}, {}, community="g1")
    assert await store.commit(a.id, 1, one, computers=limit) == 2
    with pytest.raises(CommunityFull) as full:
        await store.commit(b.id, 1, two, computers=limit)  # 1 + 2 would pass 2
    assert (full.value.what, full.value.most) == ("computers", 2)
    assert (await store.get_table(b.id)).version == 1  # nothing written
    assert await store.commit(b.id, 1, one, computers=limit) == 2
    loose = await store.create_table("discord", "c3", "okey", {}, {})
    assert await store.commit(loose.id, 1, two, computers=limit) == 2  # no community
