"""Costly reads (issue 25): `/replay` and `/verify` check that the asker may see a hand before
reading its log, and then read only that hand's entries by key; `/stats <name>` finds the
player through the `(platform, lower(name))` index; what is drawn is kept by content."""

from __future__ import annotations

import sqlalchemy as sa

from bot.core.messages import OutKind
from bot.core.players.replay import load_hand, moves_after
from bot.core.sketch import Sketch
from bot.core.table import pictures
from bot.render.pictures.chart import ChipChartScene, render_chip_chart
from storage import Store
from testkit.helpers import cmd
from testkit.replaying import SPECTATOR, play


def table_of(hand_id: str) -> int:
    """The table id of a hand id (`12-3` -> 12)."""
    return int(hand_id.split("-")[0])


class Reads:
    """Counts the store's action log reads (a test-side wrapper of the real store)."""

    def __init__(self, store: Store) -> None:
        self.calls: list[str] = []
        for name in ("actions", "hand_actions"):
            real = getattr(store, name)

            async def counted(*args, _real=real, _name=name, **kwargs):
                self.calls.append(_name)
                return await _real(*args, **kwargs)

            setattr(store, name, counted)


async def test_a_hand_of_another_community_is_refused_before_its_log_is_read():
    table = await play("acik", 2, 4, hands=2)
    try:
        async with table.store.engine.begin() as conn:  # the table plays in a community
            await conn.execute(sa.text("UPDATE tables SET community = 'home'"))
        reads = Reads(table.store)
        hand_id = table.finished[0]
        for word in ("replay", "export", "verify"):
            out = await table.core.handle(
                cmd(SPECTATOR, f"/{word} {hand_id}", community="elsewhere")
            )
            assert [o.kind for o in out] == [OutKind.ERROR], word
            assert "another community" in out[0].text
        assert reads.calls == []  # refused from the seed, the head and the result rows alone
        # a player of the hand asks from anywhere: the hand's own entries are read, by key
        own = await table.core.handle(cmd(table.users[0], f"/replay {hand_id}", community="x"))
        assert own[0].kind is OutKind.PRIVATE
        assert reads.calls == ["hand_actions"]
    finally:
        await table.store.close()


async def test_a_hands_entries_read_by_key_replay_as_the_whole_log_does():
    for game in ("turkish", "okey"):
        table = await play(game, 3, 7, hands=3)
        try:
            whole = await table.store.actions(table_of(table.finished[0]))
            for hand_id in table.finished:
                own = await table.store.hand_actions(table_of(hand_id), hand_id)
                assert len(own) < len(whole)
                assert moves_after(own, hand_id) == moves_after(whole, hand_id)
                stored = await load_hand(table.store, hand_id, table_of(hand_id))
                assert stored.played.result is not None
        finally:
            await table.store.close()


async def test_a_hand_of_before_deal_seq_reads_the_whole_log():
    table = await play("turkish", 2, 3, hands=2)
    try:
        async with table.store.engine.begin() as conn:
            await conn.execute(sa.text("UPDATE hand_seeds SET deal_seq = NULL"))
        hand_id = table.finished[1]
        own = await table.store.hand_actions(table_of(hand_id), hand_id)
        assert own == await table.store.actions(table_of(hand_id))
        assert (await load_hand(table.store, hand_id, table_of(hand_id))).hand_id == hand_id
    finally:
        await table.store.close()


async def test_stats_by_name_reads_the_name_index(store: Store):
    ayse = await store.player("discord", "1", "Ayşe Demir")
    await store.player("discord", "2", "Bora")
    assert [p.id for p in await store.find_players("discord", "ayşe demir")] == [ayse.id]
    assert [p.id for p in await store.find_players("discord", "1")] == [ayse.id]
    if store.engine.dialect.name != "sqlite":
        return
    async with store.engine.connect() as conn:
        plan = await conn.execute(
            sa.text(
                "EXPLAIN QUERY PLAN SELECT id FROM players "
                "WHERE platform = 'discord' AND lower(name) = lower('bora')"
            )
        )
        details = " ".join(str(row[-1]) for row in plan)
    assert "ix_players_platform_lower_name" in details and "SCAN" not in details


def test_what_is_drawn_is_kept_by_content():
    pictures.DRAWN.clear()
    style = pictures.style_for("en")
    first = Sketch(render_chip_chart, ChipChartScene("ayse", (10, -5, 20)), style)
    same = Sketch(render_chip_chart, ChipChartScene("ayse", (10, -5, 20)), style)
    other = Sketch(render_chip_chart, ChipChartScene("ayse", (10, -5, 21)), style)
    misses = pictures.DRAWN.misses
    png = pictures.png(first)
    assert pictures.png(same) is png  # equal content: drawn once
    assert pictures.png(other) != png
    assert pictures.DRAWN.misses == misses + 2
    assert len(pictures.DRAWN) == 2


def test_the_drawn_cache_is_bounded():
    from bot.caches import Lru

    cache: Lru[int, bytes] = Lru(3, weight=len, max_weight=10)
    for key in range(5):
        cache.put(key, b"xx")
    assert list(cache) == [2, 3, 4]
    cache.get(2)
    cache.put(9, b"123456")  # over the weight: the least recent go first
    assert list(cache) == [4, 2, 9] and cache.total == 10
    cache.put(10, b"x" * 11)  # heavier than the whole cache: not kept
    assert 10 not in cache
