"""Fair shuffles through the core: `/verify` tells a matching seed from a tampered one, and every
hand or round gets its own seed and its own posted hash, with the live random source and with a
repeatable counter source."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from bot.core.app import Core
from bot.core.config import CoreConfig
from bot.core.table.fairness import SeededSource, check_seed, random_seeds
from games.base import seed_hash
from games.okey import auto_action
from storage import Store
from storage.models import hand_seeds
from testkit.drive import live_session
from testkit.helpers import Clock, cmd, errors, make_core, public_text
from testkit.sealing import close_and_reveal

MATCHES = "sha256(seed) matches the posted hash."
MISMATCH = "sha256(seed) does NOT match the posted hash!"
POSTED = re.compile(r"Shuffle hash: ([0-9a-f]{64})")


# --- check_seed as a unit --------------------------------------------------------------------


def test_check_seed_accepts_the_hash_of_the_seed():
    seed = SeededSource("unit")("1-1")
    assert check_seed(seed.hex(), seed_hash(seed))
    assert check_seed(seed.hex(), seed_hash(seed).upper())


def test_check_seed_refuses_a_wrong_hash():
    seed, other = SeededSource("a")("1-1"), SeededSource("b")("1-1")
    good = seed_hash(seed)
    flipped = ("0" if good[0] != "0" else "1") + good[1:]
    assert not check_seed(seed.hex(), seed_hash(other))
    assert not check_seed(seed.hex(), flipped)
    assert not check_seed(other.hex(), good)
    assert not check_seed(seed.hex(), "")
    assert not check_seed("not hex", good)


def test_seeded_source_is_repeatable_and_distinct_per_hand():
    first, again = SeededSource("m"), SeededSource("m")
    hands = [f"{table}-{n}" for table in (1, 2) for n in range(1, 26)]
    seeds = [first(hand) for hand in hands]
    assert seeds == [again(hand) for hand in hands]
    assert len(set(seeds)) == 50
    assert SeededSource("other")("1-1") not in seeds


# --- playing hands through the core ------------------------------------------------------------


def posted_hashes(out) -> list[str]:
    """Every shuffle hash shown in the channel, in order, without repeats."""
    seen: list[str] = []
    for found in POSTED.findall(public_text(out)):
        if found not in seen:
            seen.append(found)
    return seen


QUIET = ("check", "pass", "pat", "call", "fold")


def quiet_move(session) -> tuple[str, str]:
    """The most passive legal move of the seat to act, so that nobody goes broke."""
    index = session.engine.to_act()
    kinds = {spec.kind for spec in session.engine.legal_actions(index)}
    kind = next(k for k in QUIET if k in kinds)
    return session.seat_of_engine(index).user_id, f"/poker {kind}"


async def play_poker_hands(core: Core, variant: str, hands: int) -> tuple[int, list]:
    """Seat three players, play `hands` complete hands by passive moves; return the table id and
    everything the core sent."""
    out = await core.handle(cmd("ayse", f"/poker open {variant} 10"))
    for user in ("ayse", "mehmet", "zeynep"):
        out += await core.handle(cmd(user, "/poker join 500"))
    out += await core.handle(cmd("ayse", "/poker start"))
    session = live_session(core)
    moves = 0
    while session.hand_no <= hands and moves < 400:
        user, line = quiet_move(session)
        step = await core.handle(cmd(user, line))
        assert not errors(step), errors(step)
        out += step
        session = live_session(core)
        moves += 1
    assert session.hand_no > hands, "the hands did not finish"
    return session.table_id, out


async def play_okey_rounds(core: Core, rounds: int) -> tuple[int, list]:
    """Play an Okey match of `rounds` rounds by commands; return the table id and the output."""
    out = await core.handle(cmd("ayse", f"/okey start {rounds} 10"))
    assert not errors(out), errors(out)
    out += await core.handle(cmd("mehmet", "/okey join"))
    out += await core.handle(cmd("ayse", "/okey addbot"))
    out += await core.handle(cmd("ayse", "/okey begin"))
    steps = 0
    while live_session(core).running() and steps < 3000:
        session = live_session(core)
        index = session.match.round.to_act()
        seat = session.seat_of(index)
        action = auto_action(session.match.round, index)
        if action.kind == "take":
            line = f"/okey take {action.source}"
        else:
            word = "discard" if action.kind == "discard" else "finish"
            line = f"/okey {word} {action.cards[0].lower()}"
        step = await core.handle(cmd(seat.user_id, line))
        assert not errors(step), errors(step)
        out += step
        steps += 1
    assert live_session(core).hand_no == rounds and not live_session(core).running()
    return live_session(core).table_id, out


async def stored_seeds(store: Store, table: int, count: int) -> list:
    records = [await store.seed(f"{table}-{n}") for n in range(1, count + 1)]
    assert all(r is not None and r.seed_hex is not None for r in records), records
    return records


def core_with(store, seeds) -> Core:
    return Core(store, CoreConfig(default_locale="en"), clock=Clock(), seeds=seeds)


SOURCES = {
    "live random seeds": lambda: random_seeds,
    "counter source": lambda: SeededSource("counter"),
}


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("variant", ["turkish", "acik"])
async def test_consecutive_poker_hands_get_distinct_seeds(store, source, variant):
    core = core_with(store, SOURCES[source]())
    hands = 4
    table, out = await play_poker_hands(core, variant, hands)
    records = await stored_seeds(store, table, hands)
    assert len({r.seed_hex for r in records}) == hands
    assert len({r.seed_hash for r in records}) == hands
    for r in records:
        assert check_seed(r.seed_hex, r.seed_hash)
    # the hash posted at each hand's start is that hand's own, and no two hands share one
    posted = posted_hashes(out)
    assert posted[:hands] == [r.seed_hash for r in records]


@pytest.mark.parametrize("source", SOURCES)
async def test_consecutive_okey_rounds_get_distinct_seeds(store, source):
    core = core_with(store, SOURCES[source]())
    rounds = 3
    table, out = await play_okey_rounds(core, rounds)
    records = await stored_seeds(store, table, rounds)
    assert len({r.seed_hex for r in records}) == rounds
    assert len({r.seed_hash for r in records}) == rounds
    assert posted_hashes(out) == [r.seed_hash for r in records]


async def test_two_tables_never_share_a_seed(store):
    core = make_core(store, seed="two-tables")
    first, _ = await play_poker_hands(core, "turkish", 2)
    await core.handle(cmd("ayse", "/poker leave"))
    await core.handle(cmd("mehmet", "/poker leave"))
    await core.handle(cmd("zeynep", "/poker leave"))
    assert live_session(core) is None
    second, _ = await play_poker_hands(core, "turkish", 2)
    assert second != first
    records = await stored_seeds(store, first, 2) + await stored_seeds(store, second, 2)
    assert len({r.seed_hex for r in records}) == 4


# --- /verify of a tampered record -----------------------------------------------------------


async def tamper(store: Store, hand_id: str, **values) -> None:
    """Change a stored seed record behind the bot's back."""
    async with store.engine.begin() as conn:
        await conn.execute(
            sa.update(hand_seeds).where(hand_seeds.c.hand_id == hand_id).values(**values)
        )


def other_hash(good: str) -> str:
    return seed_hash(bytes.fromhex(good))  # a well-formed hash that is not this seed's


@pytest.mark.parametrize("variant", ["turkish", "acik"])
async def test_verify_tells_a_tampered_poker_hash_or_seed(store, variant):
    core = make_core(store, seed=f"tamper-{variant}")
    table, _ = await play_poker_hands(core, variant, 3)
    await close_and_reveal(core, table)  # the seed is shown only from then on
    good = await core.handle(cmd("ayse", f"/verify {table}-1"))
    assert MATCHES in good[0].text and MISMATCH not in good[0].text

    record = await store.seed(f"{table}-1")
    await tamper(store, f"{table}-1", seed_hash=other_hash(record.seed_hash))
    bad = await core.handle(cmd("ayse", f"/verify {table}-1"))
    assert MISMATCH in bad[0].text and MATCHES not in bad[0].text

    record2 = await store.seed(f"{table}-2")
    await tamper(store, f"{table}-2", seed_hex=record.seed_hex)  # hand 1's seed under hand 2's hash
    bad = await core.handle(cmd("ayse", f"/verify {table}-2"))
    assert MISMATCH in bad[0].text and MATCHES not in bad[0].text
    assert record2.seed_hash in bad[0].text
    # an untouched hand still matches
    still = await core.handle(cmd("ayse", f"/verify {table}-3"))
    assert MATCHES in still[0].text


async def test_verify_tells_a_tampered_okey_hash(store):
    core = make_core(store, seed="tamper-okey")
    table, _ = await play_okey_rounds(core, 3)
    await close_and_reveal(core, table)  # the seed is shown only from then on
    good = await core.handle(cmd("ayse", f"/verify {table}-1"))
    assert MATCHES in good[0].text and MISMATCH not in good[0].text
    record = await store.seed(f"{table}-1")
    await tamper(store, f"{table}-1", seed_hash=other_hash(record.seed_hash))
    bad = await core.handle(cmd("ayse", f"/verify {table}-1"))
    assert MISMATCH in bad[0].text and MATCHES not in bad[0].text
    other = await core.handle(cmd("ayse", f"/verify {table}-2"))
    assert MATCHES in other[0].text
