"""A tournament of 101 Okey matches: `/tournament okey 101 ...` seats its tables as 101 tables,
the computer stands in for the entrants (the test's clock), the fees are paid out as prizes."""

from __future__ import annotations

from bot.core.okey101.session import Okey101Session
from storage import tournament_escrow
from testkit.helpers import Clock, cmd, errors, make_core
from tests.tournament.test_tournament_core import balances, play_to_end, register


async def test_a_101_tournament_plays_101_tables_to_the_end(memory_store) -> None:
    clock = Clock()
    core = make_core(memory_store, clock=clock)
    out = await register(core, 4, "/tournament okey 101 50 1")
    assert "Matches of 101 Okey." in out[0].text
    out = await core.handle(cmd("org", "/tournament start"))
    assert not errors(out), errors(out)
    tables = [t.session for t in core.tables.tables.values()]
    assert tables and all(isinstance(s, Okey101Session) for s in tables)
    assert all(s.match is not None and s.options["rounds101"] == 1 for s in tables)
    record, state = await play_to_end(core, clock, memory_store)
    assert record.status == "finished"
    assert sum(state.prizes) == 4 * 50
    assert sum((await balances(memory_store, 4)).values()) == 4 * 1000
    assert await memory_store.balance(tournament_escrow(1)) == 0
    assert await memory_store.audit() == []


async def test_101_rounds_are_checked(memory_store) -> None:
    core = make_core(memory_store)
    out = await core.handle(cmd("org", "/tournament okey yüzbir 50 4"))
    assert "A 101 match has 1, 3, 5, 7, 9 or 11 rounds." in errors(out)
    out = await core.handle(cmd("org", "/tournament okey 101 50 5"))
    assert not errors(out), errors(out)
