"""Seeds: each hand's seed comes from the master seed (`--seed`) and the hand id, so hands never
share a seed, not even across a restart (a counter would start again and deal a seed already
revealed); the same master seed and hand id give the same seed; without a master seed the seeds
come from `secrets`. `check_seed` refuses a seed that does not match the posted hash."""

from __future__ import annotations

from pathlib import Path

from bot.core.table.fairness import SeededSource, check_seed, random_seeds
from games.base import SEED_BYTES, seed_hash
from storage import Store
from testkit.drive import ai_move, live_session
from testkit.helpers import cmd, errors, make_core


def test_seeded_source_depends_on_master_and_hand_only():
    source = SeededSource("master")
    assert source("1-1") == SeededSource("master")("1-1")  # repeatable in a new process
    assert source("1-1") == source("1-1")  # asking twice (a retried commit) changes nothing
    seeds = {source(f"{table}-{hand}") for table in range(1, 6) for hand in range(1, 41)}
    assert len(seeds) == 200
    assert SeededSource("other")("1-1") != source("1-1")
    assert all(len(seed) == SEED_BYTES for seed in seeds)


def test_random_seeds_are_fresh_every_time():
    seeds = {random_seeds("1-1") for _ in range(50)}
    assert len(seeds) == 50 and all(len(seed) == SEED_BYTES for seed in seeds)


def test_check_seed_refuses_what_does_not_match():
    seed = SeededSource("m")("1-1")
    assert check_seed(seed.hex(), seed_hash(seed))
    assert check_seed(seed.hex(), seed_hash(seed).upper())
    assert not check_seed(seed.hex(), seed_hash(SeededSource("m")("1-2")))
    assert not check_seed("zz" * 32, seed_hash(seed))
    assert not check_seed(seed.hex()[:-2], seed_hash(seed))


async def play_hands(core, count: int) -> list[str]:
    """Play at the channel's poker table until `count` hands have ended (the next one starts by
    itself); returns the ids of the hands dealt, the one still running included."""
    session = live_session(core)
    if not session.running():
        started = await core.handle(cmd("ayse", "/poker start"))
        assert not errors(started), errors(started)
    hands = [live_session(core).hand_id()]
    for _ in range(100 * count):
        session = live_session(core)
        if session.hand_id() != hands[-1]:
            hands.append(session.hand_id())
        if len(hands) > count or not session.running():
            return hands
        user, line = ai_move(session)
        out = await core.handle(cmd(user, line))
        assert not errors(out), errors(out)
    raise AssertionError("the hands never ended")


async def hands_in_two_runs(db: Path, master: str) -> dict[str, str]:
    """Hands, a restart (new store connection, new core and seed source, as a new process
    has), more hands; returns each hand's posted hash."""
    url = f"sqlite+aiosqlite:///{db}"
    store = await Store.open(url)
    try:
        core = make_core(store, seed=master)
        await core.handle(cmd("ayse", "/poker open turkish 10"))
        await core.handle(cmd("ayse", "/poker join 500"))
        await core.handle(cmd("mehmet", "/poker join 500"))
        hands = await play_hands(core, 2)
    finally:
        await store.close()
    store = await Store.open(url)
    try:
        core = make_core(store, seed=master)
        await core.start()
        hands += await play_hands(core, 2)
        records = {hand: await store.seed(hand) for hand in hands}
    finally:
        await store.close()
    assert len(records) >= 5, hands
    return {hand: record.seed_hash for hand, record in records.items()}


async def test_seeds_stay_distinct_across_a_restart_and_repeat_for_the_same_master(tmp_path):
    first = await hands_in_two_runs(tmp_path / "a.db", "master")
    assert len(set(first.values())) == len(first)  # no seed dealt twice
    again = await hands_in_two_runs(tmp_path / "b.db", "master")
    assert again == first  # the same master seed deals the same hands again
    other = await hands_in_two_runs(tmp_path / "c.db", "another")
    assert not set(other.values()) & set(first.values())
