"""Whole poker sit-and-gos through the core: registration, the fees in escrow, one sit-and-go
table played out by the computer stand-ins (every entrant times out on the test clock), the
65/35 payout (winner takes all under 4), and a restart in the middle."""

from __future__ import annotations

import pytest

from bot.core.messages import OutKind
from storage import tournament_escrow
from testkit.helpers import Clock, cmd, errors, make_core
from tests.tournament.test_tournament_core import balances, play_to_end, register

FEE = 100


@pytest.mark.parametrize(
    ("variant", "entrants", "prizes"),
    [("turkish", 5, [325, 175]), ("acik", 3, [300]), ("turkish", 2, [200])],
)
async def test_a_sit_and_go_pays_its_fees_out_to_the_last_players(
    memory_store, variant, entrants, prizes
) -> None:
    clock = Clock()
    core = make_core(memory_store, clock=clock)
    # live odds off at the Açık table: they are tested on their own and cost most of the time
    rules = " odds=off" if variant == "acik" else ""
    await register(core, entrants, f"/tournament poker {variant} {FEE} 60 1{rules}")
    out = await core.handle(cmd("org", "/tournament start"))
    assert not errors(out)
    tables = [t for t in core.tables.tables.values() if t.session.running()]
    assert len(tables) == 1 and len(tables[0].session.seats) == entrants  # one table, everyone
    assert any(o.kind is OutKind.EDIT_TABLE and o.table_id == str(tables[0].id) for o in out)
    messages = [o for o in out if o.kind is OutKind.EDIT_TABLE and o.table_id == "t1"]
    for standings in messages:  # tournament chips, not penalties
        assert all(f"{s.name} 60" in standings.text for s in tables[0].session.seats)
    record, state = await play_to_end(core, clock, memory_store)
    assert record.status == "finished"
    assert sorted(state.ranking) == sorted(e.player_id for e in state.entrants)
    assert sorted(state.prizes, reverse=True) == prizes
    assert sum((await balances(memory_store, entrants)).values()) == entrants * 1000
    assert await memory_store.balance(tournament_escrow(1)) == 0
    assert await memory_store.audit() == []


async def test_a_sit_and_go_survives_a_restart(memory_store) -> None:
    clock = Clock()
    core = make_core(memory_store, clock=clock)
    await register(core, 4, f"/tournament poker turkish {FEE} 60 1")
    await core.handle(cmd("org", "/tournament start"))
    for _ in range(3):
        clock.advance(61)
        await core.tick()
    again = make_core(memory_store, clock=clock)  # a new process on the same store
    await again.start()
    record, state = await play_to_end(again, clock, memory_store)
    assert record.status == "finished" and len(state.ranking) == 4
    assert sum((await balances(memory_store, 4)).values()) == 4 * 1000
    assert await memory_store.audit() == []


async def test_a_sit_and_go_takes_no_more_entrants_than_its_table_seats(memory_store) -> None:
    core = make_core(memory_store, clock=Clock())
    await register(core, 5, f"/tournament poker turkish {FEE}")
    out = await core.handle(cmd("p9", "/tournament join"))
    assert [o.kind for o in out] == [OutKind.ERROR]
    assert "5" in out[0].text


async def test_a_sit_and_go_takes_house_rules_and_refuses_bad_ones_before_any_fee(memory_store):
    core = make_core(memory_store, clock=Clock())
    out = await core.handle(cmd("org", f"/tournament poker acik {FEE} 60 1 deck=51"))
    assert [o.kind for o in out] == [OutKind.ERROR]  # nothing opened
    assert await memory_store.tournament_in_channel("test", "c1") is None
    await register(core, 6, f"/tournament poker acik {FEE} 60 1 deck=32 odds=off")
    out = await core.handle(cmd("p9", "/tournament join"))  # 32 cards deal to 6 at most
    assert [o.kind for o in out] == [OutKind.ERROR] and "6" in out[0].text
    await core.handle(cmd("org", "/tournament start"))
    [table] = [t for t in core.tables.tables.values() if t.session.running()]
    assert table.session.engine.view(None)["rules"]["deck"] == 32


def test_sit_and_go_settings_may_be_named_and_house_rules_are_kept_apart():
    from bot.core.config import CoreConfig
    from bot.core.tournament.options import parse_poker

    config = CoreConfig()
    variant, settings = parse_poker(("acik", "chips=500", "odds=off"), config)
    assert (variant, settings.fee, settings.chips, settings.rules) == (
        "acik",
        config.okey_stake,  # the default fee: only the chips were named
        500,
        ("odds=off",),
    )
    _, settings = parse_poker(("türk", "50", "800", "dakika=3"), config)
    assert (settings.fee, settings.chips, settings.level_minutes) == (50, 800, 3)
