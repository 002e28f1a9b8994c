"""A process trusts its copy of a table for a command (no version read), and a stale copy still
loses to the store: the commit's compare-and-set, one read after a command that committed
nothing, the versions other processes announce (`bot.core.table.trust`)."""

from __future__ import annotations

import random

import pytest

from bot.core.i18n import t
from bot.core.table import trust
from testkit.drive import ai_move
from testkit.helpers import cmd, errors, private_to
from testkit.scale import Cluster
from tests.core.test_scale_units import counting, poker_table


@pytest.fixture
async def pair(db_url: str):
    """Two cores (processes) on one database."""
    cluster = await Cluster(db_url, random.Random(0), n=2).start()
    try:
        yield cluster
    finally:
        await cluster.close()


def reads(core) -> list[list[int]]:
    """Counters of the version and table reads of a core's store."""
    return [counting(core.store, name) for name in ("channel_head", "table_head", "get_table")]


async def test_a_step_on_a_current_table_reads_no_version(pair: Cluster) -> None:
    a, _ = pair.cores
    await poker_table(a)
    counters = reads(a)
    assert not errors(await a.handle(cmd("ayse", "/poker start")))
    live = a.tables.in_channel("test", "c1")
    user, line = ai_move(live.session)
    assert not errors(await a.handle(cmd(user, line)))
    assert [len(c) for c in counters] == [0, 0, 0]
    assert len(await a.store.actions(live.id)) == 4  # two joins, the deal, the move
    assert trust.scope() is None  # the scope ends with the command


async def test_a_refusal_on_a_current_table_costs_one_version_read(pair: Cluster) -> None:
    a, _ = pair.cores
    await poker_table(a)
    counters = reads(a)
    out = await a.handle(cmd("cem", "/poker fold"))  # not seated
    assert errors(out) and [len(c) for c in counters] == [0, 1, 0]


async def test_a_look_on_a_copy_moved_elsewhere_shows_the_store_state(pair: Cluster) -> None:
    a, b = pair.cores
    await poker_table(a)
    live_b = await b.tables.find("test", "c1")
    assert live_b is not None and not live_b.session.running()
    assert not errors(await a.handle(cmd("ayse", "/poker start")))
    out = await b.handle(cmd("ayse", "/poker hand"))  # B's copy has no hand dealt yet
    assert not errors(out) and private_to(out, "ayse")
    assert live_b.session.running() and live_b.version == a.tables.in_channel("test", "c1").version


async def test_a_move_refused_on_a_stale_copy_is_played_on_the_fresh_state(pair: Cluster) -> None:
    a, b = pair.cores
    await poker_table(a)
    live_b = await b.tables.find("test", "c1")
    assert not errors(await a.handle(cmd("ayse", "/poker start")))
    user, line = ai_move(a.tables.in_channel("test", "c1").session)
    assert not errors(await b.handle(cmd(user, line)))  # no hand in B's copy: read, then played
    log = await a.store.actions(live_b.id)
    assert len(log) == 4 and live_b.version == 5


async def test_a_step_on_a_stale_copy_loses_and_is_applied_to_the_fresh_state(
    pair: Cluster,
) -> None:
    a, b = pair.cores
    assert not errors(await a.handle(cmd("ayse", "/poker open turkish 10")))
    live_b = await b.tables.find("test", "c1")
    assert not errors(await a.handle(cmd("mehmet", "/poker join 200")))
    commits = counting(b.store, "commit")
    assert not errors(await b.handle(cmd("cem", "/poker join 200")))  # B's copy lacks Mehmet
    assert len(commits) == 2  # the stale one lost, the fresh one went through
    assert [s.user_id for s in live_b.session.seats] == ["mehmet", "cem"]
    assert await a.store.audit() == []


async def test_a_table_closed_and_opened_again_elsewhere_gets_the_command(pair: Cluster) -> None:
    a, b = pair.cores
    await poker_table(a)
    old = await b.tables.find("test", "c1")
    for user in ("ayse", "mehmet"):
        assert not errors(await a.handle(cmd(user, "/poker leave")))
    assert not errors(await a.handle(cmd("cem", "/poker open turkish 10")))
    assert not errors(await b.handle(cmd("ayse", "/poker join 200")))
    new = b.tables.in_channel("test", "c1")
    assert old.closed and new.id != old.id
    assert [s.user_id for s in new.session.seats] == ["ayse"]
    # and with no table left there, B says so
    assert not errors(await a.handle(cmd("ayse", "/poker leave")))
    assert errors(await b.handle(cmd("ayse", "/poker fold"))) == [t("en", "err.no_table")]


async def test_a_version_announced_by_another_process_is_read_before_the_step(
    pair: Cluster,
) -> None:
    a, b = pair.cores
    await poker_table(a)
    live_b = await b.tables.find("test", "c1")
    assert not errors(await a.handle(cmd("ayse", "/poker start")))
    b.tables.notify(live_b.id, a.tables.in_channel("test", "c1").version)  # as LISTEN tells it
    counters, commits = reads(b), counting(b.store, "commit")
    user, line = ai_move(a.tables.in_channel("test", "c1").session)
    assert not errors(await b.handle(cmd(user, line)))
    assert len(commits) == 1  # read first: no lost race
    assert [len(c) for c in counters] == [1, 0, 1]


async def test_opening_a_table_reads_no_version(pair: Cluster) -> None:
    a, _ = pair.cores
    counters = reads(a)
    assert not errors(await a.handle(cmd("ayse", "/poker open turkish 10")))
    assert not errors(await a.handle(cmd("mehmet", "/poker join 200")))
    assert [len(c) for c in counters] == [0, 0, 0]


async def test_a_table_opened_elsewhere_in_a_channel_held_empty_gets_the_command(
    pair: Cluster,
) -> None:
    a, b = pair.cores
    assert await b.tables.find("test", "c1") is None  # B has looked: nothing there
    assert not errors(await a.handle(cmd("ayse", "/poker open turkish 10")))
    assert not errors(await b.handle(cmd("mehmet", "/poker join 200")))  # read, then joined
    live = await a.tables.find("test", "c1")
    assert [s.user_id for s in live.session.seats] == ["mehmet"]
    assert errors(await b.handle(cmd("cem", "/poker open turkish 10"))) == [
        t("en", "err.table_exists")
    ]
