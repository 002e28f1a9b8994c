"""A community's limits hold across processes: two cores (two processes' worth, each with its own
Store) on one database, commands racing through both at once, never let the community pass its
limit of open tables, tournaments or computer players. Each is counted in the transaction that
opens or seats (`storage.community`), on a SQLite file and, with TEST_DATABASE_URL, PostgreSQL."""

from __future__ import annotations

import asyncio

from bot.core.app import Core
from storage import Store
from testkit.helpers import Clock, cmd, errors, make_core

COMMUNITY = "g1"


def two_cores(stores: list[Store], **limits: int) -> list[Core]:
    clock = Clock()
    return [
        make_core(store, seed=f"core{i}", clock=clock, **limits) for i, store in enumerate(stores)
    ]


def at(user: str, line: str, channel: str) -> object:
    return cmd(user, line, channel=channel, community=COMMUNITY)


async def race(cores: list[Core], lines: list[tuple[str, str, str]]) -> list[list[str]]:
    """Each (user, line, channel) through the cores in turn, all at once; each one's errors."""
    outs = await asyncio.gather(
        *(cores[i % len(cores)].handle(at(*line)) for i, line in enumerate(lines))
    )
    return [errors(out) for out in outs]


async def test_open_tables_hold_across_processes(stores: list[Store]) -> None:
    cores = two_cores(stores, max_open_tables=3)
    refused = await race(cores, [("ayse", "/okey start", f"c{n}") for n in range(8)])
    assert sum(1 for e in refused if not e) == 3
    assert await stores[0].community_table_count("test", COMMUNITY) == 3
    full = "This community already has 3 open tables, the most it may have at once"
    assert all(e[0].startswith(full) for e in refused if e)


async def test_tournaments_hold_across_processes(stores: list[Store]) -> None:
    cores = two_cores(stores, max_running_tournaments=2)
    refused = await race(cores, [("org", "/tournament okey 10 1", f"c{n}") for n in range(6)])
    assert sum(1 for e in refused if not e) == 2
    assert await stores[1].community_tournaments("test", COMMUNITY) == 2
    assert all("2 tournaments registering or running" in e[0] for e in refused if e)


async def test_computer_players_hold_across_processes(stores: list[Store]) -> None:
    cores = two_cores(stores, max_computers_per_community=3)
    for n in range(6):  # one table per channel, opened one after another
        assert not errors(await cores[n % 2].handle(at("ayse", "/okey start", f"c{n}")))
    # Bot 1's wallet is topped up once beforehand: only the seating races here
    await cores[0].accounts.computer(set(), "en")
    refused = await race(cores, [("ayse", "/okey addbot", f"c{n}") for n in range(6)])
    assert sum(1 for e in refused if not e) == 3
    tables = await stores[0].community_tables("test", COMMUNITY)
    assert sum(1 for t in tables for seat in t.snapshot["seats"] if seat.get("bot")) == 3
    assert all("already have 3 computer players" in e[0] for e in refused if e)
    assert await stores[0].audit() == []
