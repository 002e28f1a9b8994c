"""Sharing tables between processes, piece by piece: the version read before a step, tables
opened or closed by another process, the one retry of a lost race, the channel's one table, and
timers claimed from the store (platforms, computer moves a dead process left undone)."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.core.app import Core
from bot.core.config import CoreConfig
from bot.core.errors import Refusal
from bot.core.i18n import t
from bot.core.table.due import AUTO_RESCUE
from bot.core.table.fairness import SeededSource
from bot.core.table.session import Who
from storage import StaleVersion, Store
from testkit.helpers import Clock, cmd, errors, public_text
from testkit.scale import Cluster, button_press, timeouts


@pytest.fixture
async def pair(db_url: str):
    """Two cores (processes) on one database."""
    cluster = await Cluster(db_url, random.Random(0), n=2).start()
    try:
        yield cluster
    finally:
        await cluster.close()


async def poker_table(core: Core, players=("ayse", "mehmet")) -> None:
    assert not errors(await core.handle(cmd(players[0], "/poker open turkish 10")))
    for user in players:
        assert not errors(await core.handle(cmd(user, "/poker join 200")))


def counting(store: Store, name: str) -> list[int]:
    """Count the calls of one store method (a list, to read after)."""
    calls: list[int] = []
    real = getattr(store, name)

    async def wrapper(*args, **kwargs):
        calls.append(1)
        return await real(*args, **kwargs)

    setattr(store, name, wrapper)
    return calls


async def test_a_table_changed_elsewhere_is_reloaded_before_the_step(pair: Cluster) -> None:
    a, b = pair.cores
    await poker_table(a)
    live_b = await b.tables.find("test", "c1")  # B loads the table A opened
    assert live_b is not None and live_b.version == 3
    assert not errors(await a.handle(cmd("ayse", "/poker start")))
    assert live_b.version == 3  # B has not heard of it yet
    session = (await a.tables.find("test", "c1")).session
    user = session.seats[session.actor()].user_id
    press = button_press(session, user, "pass", ())
    out = await b.press(press)  # the button A drew works at B
    assert not errors(out) and live_b.version == 5


async def test_a_current_table_costs_one_version_read(pair: Cluster) -> None:
    a, _ = pair.cores
    await poker_table(a)
    heads, loads = counting(a.store, "table_head"), counting(a.store, "get_table")
    session = (await a.tables.find("test", "c1")).session
    press = button_press(session, "ayse", "start", ())  # not a turn button: refused after the read
    await a.press(press)
    assert (len(heads), len(loads)) == (1, 0)


async def test_a_press_reaches_a_process_that_never_saw_the_table(pair: Cluster) -> None:
    a, b = pair.cores
    await poker_table(a)
    assert not errors(await a.handle(cmd("ayse", "/poker start")))
    assert b.tables.get("1") is None
    session = (await a.tables.find("test", "c1")).session
    user = session.seats[session.actor()].user_id
    assert not errors(await b.press(button_press(session, user, "pass", ())))
    assert b.tables.get("1") is not None


async def test_a_table_closed_elsewhere_is_dropped(pair: Cluster) -> None:
    a, b = pair.cores
    await poker_table(a)
    live_b = await b.tables.find("test", "c1")
    for user in ("ayse", "mehmet"):
        assert not errors(await a.handle(cmd(user, "/poker leave")))
    assert b.tables.in_channel("test", "c1") is live_b  # B still remembers it
    assert errors(await b.handle(cmd("ayse", "/poker join 200"))) == [t("en", "err.no_table")]
    assert b.tables.in_channel("test", "c1") is None and live_b.closed
    # and a new table opened there elsewhere replaces the old one
    await poker_table(a, players=("cem", "deniz"))
    assert (await b.tables.find("test", "c1")).id == 2


async def test_a_lost_race_is_retried_once_on_the_fresh_state(pair: Cluster) -> None:
    a, b = pair.cores
    assert not errors(await a.handle(cmd("ayse", "/poker open turkish 10")))
    await b.tables.find("test", "c1")
    for user in ("ayse", "mehmet", "cem"):  # players known to both processes
        await a.handle(cmd(user, "/balance"))
    commit = b.store.commit

    async def mehmet_first(*args, **kwargs):  # A commits Mehmet's join just before B's commit
        b.store.commit = commit
        assert not errors(await a.handle(cmd("mehmet", "/poker join 200")))
        return await commit(*args, **kwargs)

    b.store.commit = mehmet_first
    out = await b.handle(cmd("cem", "/poker join 200"))
    assert not errors(out)  # not "the table changed": B joined Cem again on the fresh state
    live = await a.tables.find("test", "c1")
    assert [s.user_id for s in live.session.seats] == ["mehmet", "cem"]
    assert [x.action["kind"] for x in await a.store.actions(live.id)] == ["buy_in", "buy_in"]
    assert await a.store.audit() == []


async def test_one_button_pressed_on_two_processes_applies_once(pair: Cluster) -> None:
    a, b = pair.cores
    await poker_table(a)
    assert not errors(await a.handle(cmd("ayse", "/poker start")))
    session = (await b.tables.find("test", "c1")).session
    user = session.seats[session.actor()].user_id
    commit = b.store.commit
    pressed = button_press(session, user, "pass", ())  # the same button, pressed twice

    async def other_button_first(*args, **kwargs):
        b.store.commit = commit
        assert not errors(await a.press(pressed))
        return await commit(*args, **kwargs)

    b.store.commit = other_button_first
    out = await b.press(pressed)
    assert errors(out) == [t("en", "err.stale_button")]
    log = await a.store.actions(session.table_id)
    assert [x.action["kind"] for x in log[-1:]] == ["pass"] and len(log) == 4


async def test_two_different_discards_of_one_turn_on_two_processes_apply_once(
    pair: Cluster,
) -> None:
    a, b = pair.cores
    assert not errors(await a.handle(cmd("ayse", "/okey start 1 10")))
    assert not errors(await b.handle(cmd("mehmet", "/okey join")))
    assert not errors(await a.handle(cmd("ayse", "/okey begin")))
    session = (await b.tables.find("test", "c1")).session
    index = session.actor()
    user = session.seats[index].user_id
    rack = session.round.view(session.staked.index(session.seats[index].player_id))["hand"]
    first, second = list(dict.fromkeys(rack))[:2]  # two different tiles
    outs = await asyncio.gather(
        a.press(button_press(session, user, f"d.{first}", ())),
        b.press(button_press(session, user, f"d.{second}", ())),
    )
    assert sorted(len(errors(out)) for out in outs) == [0, 1]
    log = await a.store.actions(session.table_id)
    assert [x.action["kind"] for x in log].count("discard") == 1
    assert await a.store.audit() == []


async def test_a_race_lost_twice_says_so_and_changes_nothing(pair: Cluster) -> None:
    a, b = pair.cores
    await poker_table(a)
    live = await b.tables.find("test", "c1")

    async def always_stale(table_id, expected, *args, **kwargs):
        raise StaleVersion(table_id, expected, expected + 1)

    b.store.commit = always_stale
    out = await b.handle(cmd("ayse", "/poker start"))
    assert errors(out) == [t("en", "err.stale")]
    assert live.session.phase == "waiting" and len(await a.store.actions(live.id)) == 2


async def test_a_channel_with_a_table_elsewhere_refuses_another(pair: Cluster) -> None:
    a, b = pair.cores
    await poker_table(a)
    exists = t("en", "err.table_exists")
    assert errors(await b.handle(cmd("cem", "/okey start"))) == [exists]
    # even when the process has not looked at the channel: the store refuses
    session = (await a.tables.find("test", "c1")).session
    who = Who(1, "ayse", "Ayse", "en")
    fresh = type(session).from_dict(session.to_dict())
    c = Core(a.store, CoreConfig(default_locale="en"), clock=pair.clock)
    with pytest.raises(Refusal) as info:
        await c.tables.open("test", "c1", who, fresh, None)
    assert info.value.key == "err.table_exists"


async def test_timers_are_claimed_per_platform(db_url: str) -> None:
    clock = Clock()
    stores = [await Store.open(db_url) for _ in range(2)]
    try:
        other = Core(stores[0], CoreConfig(platforms=("telegram",)), clock=clock)
        ours = Core(
            stores[1], CoreConfig(default_locale="en"), clock=clock, seeds=SeededSource("x")
        )
        await poker_table(ours)
        assert not errors(await ours.handle(cmd("ayse", "/poker start")))
        clock.advance(61)
        assert await other.tick() == []  # a Telegram process leaves the test platform's table
        out = await ours.tick()
        assert "took too long" in public_text(out)
        assert timeouts(await stores[1].actions(1)) == 1
    finally:
        for store in stores:
            await store.close()


async def test_a_computer_move_left_by_a_dead_process_is_played_by_another(pair: Cluster) -> None:
    a, b = pair.cores
    await poker_table(a, players=("ayse",))
    assert not errors(await a.handle(cmd("ayse", "/poker addbot")))

    async def dies_after_commit(live):  # A commits the human's step, then stops for good
        return []

    a.tables._autoplay = dies_after_commit
    assert not errors(await a.handle(cmd("ayse", "/poker start")))
    session = (await b.tables.find("test", "c1")).session
    if not session.seats[session.actor()].bot:  # the human is first: they move, A dies after
        user = session.seats[session.actor()].user_id
        assert not errors(await a.press(button_press(session, user, "pass", ())))
    table = session.table_id
    moves = len(await a.store.actions(table))
    assert await b.tick(pair.clock.now) == []  # A's commit gave it time to play the bot
    pair.clock.advance(AUTO_RESCUE.total_seconds())
    await b.tick(pair.clock.now)
    log = await b.store.actions(table)
    assert len(log) > moves and log[moves].action.get("auto") is True
    assert timeouts(log) == 0


async def test_concurrent_ticks_close_an_idle_table_once(db_url: str) -> None:
    cluster = await Cluster(db_url, random.Random(1)).start()
    try:
        a = cluster.cores[0]
        assert not errors(await a.handle(cmd("ayse", "/poker open turkish 10")))
        cluster.clock.advance(899)
        assert sum(map(len, await cluster.tick_all())) == 0
        cluster.clock.advance(1)
        outs = await asyncio.gather(*(c.tick(cluster.clock.now) for c in cluster.cores))
        assert sum(1 for out in outs if out) == 1
        assert (await a.store.table_head(1)).status == "closed"
    finally:
        await cluster.close()
