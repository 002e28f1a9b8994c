"""Whole Okey tournaments through the core: computer players stand in for entrants who time
out (the test's clock), several tables in parallel, a restart between stages, cancel, forfeit,
and refusals that are private and change nothing."""

from __future__ import annotations

import pytest

from bot.core.messages import OutKind
from bot.core.tournament.state import Tournament
from storage import tournament_escrow, wallet
from testkit.helpers import Clock, cmd, errors, make_core, press

FEE = 100


async def register(core, count: int, line: str = f"/tournament okey {FEE} 1") -> list:
    out = await core.handle(cmd("org", line))
    assert not errors(out)
    for i in range(count):
        assert not errors(await core.handle(cmd(f"p{i}", "/tournament join")))
    return out


async def play_to_end(core, clock: Clock, store, tournament_id: int = 1, until=None):
    """Tick the clock until the tournament is over (or `until(state)` holds)."""
    for _ in range(600):
        record = await store.get_tournament(tournament_id)
        state = Tournament.from_dict(record.snapshot, record.id)
        if record.status in ("finished", "cancelled") or (until is not None and until(state)):
            return record, state
        clock.advance(61)
        await core.tick()
    raise AssertionError("the tournament did not end")


async def balances(store, count: int) -> dict[str, int]:
    out = {}
    for i in range(count):
        player = await store.find_player("test", f"p{i}")
        out[f"p{i}"] = await store.balance(wallet(player.id))
    return out


async def test_a_tournament_of_nine_plays_three_tables_in_parallel_and_pays_the_fees_out(
    memory_store,
) -> None:
    clock = Clock()
    core = make_core(memory_store, clock=clock)
    await register(core, 9)
    out = await core.handle(cmd("org", "/tournament start"))
    assert not errors(out)
    rooms = {o.channel_id for o in out if o.kind is OutKind.EDIT_TABLE and "#" in o.channel_id}
    assert rooms == {"c1#1.1", "c1#1.2", "c1#1.3"}  # three tables, each its own shared room
    assert len([t for t in core.tables.tables.values() if t.session.running()]) == 3
    record, state = await play_to_end(core, clock, memory_store)
    assert record.status == "finished"
    assert sorted(state.ranking) == sorted(e.player_id for e in state.entrants)
    assert sum(state.prizes) == 9 * FEE
    assert sum((await balances(memory_store, 9)).values()) == 9 * 1000  # fees in = prizes out
    assert await memory_store.balance(tournament_escrow(1)) == 0
    assert await memory_store.audit() == []
    assert len(state.stages) >= 2 and state.stages[-1].final


async def test_a_restart_between_stages_loses_nothing_and_never_pays_twice(memory_store) -> None:
    clock = Clock()
    core = make_core(memory_store, clock=clock)
    await register(core, 8)
    await core.handle(cmd("org", "/tournament start"))
    _, state = await play_to_end(core, clock, memory_store, until=lambda s: len(s.stages) == 2)
    again = make_core(memory_store, clock=clock)  # a new process on the same store
    await again.start()
    record, state = await play_to_end(again, clock, memory_store)
    assert record.status == "finished" and sorted(state.ranking) == sorted(
        e.player_id for e in state.entrants
    )
    assert sum((await balances(memory_store, 8)).values()) == 8 * 1000
    await again.start()  # once more: nothing is paid again
    assert sum((await balances(memory_store, 8)).values()) == 8 * 1000
    assert await memory_store.audit() == []


async def test_a_table_closed_by_a_process_that_died_is_settled_at_start(memory_store) -> None:
    clock = Clock()
    core = make_core(memory_store, clock=clock)
    await register(core, 5)
    await core.handle(cmd("org", "/tournament start"))

    async def died(ids):  # the process ends its tables but dies before telling the tournament
        return []

    core.tournaments.settle = died
    core.tournaments.tick = died
    for _ in range(200):
        clock.advance(61)
        await core.tick()
        if not core.tables.tables:
            break
    record = await memory_store.get_tournament(1)
    assert Tournament.from_dict(record.snapshot).stage.complete() is False  # it never heard
    again = make_core(memory_store, clock=clock)
    await again.start()
    record, state = await play_to_end(again, clock, memory_store)
    assert record.status == "finished" and len(state.ranking) == 5
    assert await memory_store.audit() == []


async def test_cancel_refunds_everyone_and_closes_the_tables(memory_store) -> None:
    clock = Clock()
    core = make_core(memory_store, clock=clock)
    await register(core, 6)
    await core.handle(cmd("org", "/tournament start"))
    refused = await core.handle(cmd("p1", "/tournament cancel"))
    assert errors(refused) and all(o.kind is OutKind.ERROR for o in refused)
    out = await core.handle(cmd("mod", "/turnuva iptal", mod=True))
    assert not errors(out)
    assert (await memory_store.get_tournament(1)).status == "cancelled"
    assert await balances(memory_store, 6) == {f"p{i}": 1000 for i in range(6)}
    assert not core.tables.tables  # its tables are closed
    assert await memory_store.audit() == []


async def test_leave_while_running_forfeits_and_the_computer_plays_the_seat_out(
    memory_store,
) -> None:
    clock = Clock()
    core = make_core(memory_store, clock=clock)
    await register(core, 4)
    await core.handle(cmd("org", "/tournament start"))
    out = await core.handle(cmd("p2", "/tournament leave"))
    assert not errors(out)
    assert errors(await core.handle(cmd("p2", "/tournament leave")))  # once is enough
    _, state = await play_to_end(core, clock, memory_store)
    p2 = (await memory_store.find_player("test", "p2")).id
    assert state.ranking[-1] == p2  # a forfeit ranks after everyone still in
    assert sum((await balances(memory_store, 4)).values()) == 4000


async def test_refusals_are_private_and_change_nothing(memory_store) -> None:
    clock = Clock()
    core = make_core(memory_store, clock=clock)
    await core.handle(cmd("org", "/tournament okey 5000 1"))
    short = await core.handle(cmd("p0", "/tournament join"))
    assert errors(short) == ["You need 5000 chips for the entry fee."]  # 1000 to start
    record = await memory_store.get_tournament(1)
    assert record.snapshot["entrants"] == [] and record.version == 1
    await core.handle(cmd("org", "/tournament cancel"))
    await register(core, 2)
    version = (await memory_store.get_tournament(2)).version
    for user, line in [
        ("p0", "/tournament join"),  # twice
        ("p1", "/tournament start"),  # not the organiser
        ("p0", "/tournament okey 10"),  # one at a time per channel
        ("p0", "/tournament okey 10 2"),  # rounds 1 or 3
    ]:
        out = await core.handle(cmd(user, line))
        assert errors(out) and all(o.kind is OutKind.ERROR for o in out), line
    assert (await memory_store.get_tournament(2)).version == version
    await core.handle(cmd("org", "/tournament start"))
    late = await core.handle(cmd("p9", "/tournament join"))
    assert errors(late) == ["Registration is closed: the tournament has started or is over."]
    assert await memory_store.audit() == []


async def test_buttons_join_and_start_and_go_stale_once_play_starts(memory_store) -> None:
    clock = Clock()
    core = make_core(memory_store, clock=clock)
    out = await core.handle(cmd("org", "/tournament okey 10 1 bots=on"))
    buttons = {b.action: b for row in out[-1].buttons for b in row}
    assert buttons["join"].table_id == "t1"
    for user in ("p0", "p1", "p2"):
        assert not errors(await core.press(press(user, buttons["join"])))
    assert errors(await core.press(press("p1", buttons["start"])))  # not the organiser
    assert not errors(await core.press(press("org", buttons["start"])))
    stale = await core.press(press("p3", buttons["join"]))
    assert errors(stale)
    seated = [t.session for t in core.tables.tables.values()]
    assert len(seated) == 1 and len(seated[0].seats) == 4  # a computer filled the table
    assert sum(s.bot for s in seated[0].seats) == 1


async def test_okey_commands_in_the_parent_reach_the_askers_shared_room_table(memory_store) -> None:
    clock = Clock()
    core = make_core(memory_store, clock=clock)
    await register(core, 2)
    await core.handle(cmd("org", "/tournament start"))
    out = await core.handle(cmd("p0", "/okey rack"))
    assert not errors(out)
    assert any(o.kind is OutKind.PRIVATE and o.user_id == "p0" for o in out)
    assert errors(await core.handle(cmd("org", "/okey rack")))  # not seated anywhere
    standings = await core.handle(cmd("p1", "/tournament standings"))
    assert any(o.kind is OutKind.EDIT_TABLE and o.table_id == "t1" for o in standings)


class ThreadRooms:
    """Rooms as Discord threads: each table gets a channel of its own."""

    def __init__(self) -> None:
        self.opened: list[str] = []

    async def open_room(self, platform: str, parent_channel_id: str, title: str) -> str:
        self.opened.append(f"{parent_channel_id}-thread{len(self.opened) + 1}")
        return self.opened[-1]

    async def close_room(self, platform: str, channel_id: str) -> None:
        return None


async def test_tournament_commands_typed_in_a_table_room_reach_its_tournament(memory_store):
    from bot.core.app import Core
    from bot.core.config import CoreConfig
    from bot.core.table.fairness import SeededSource

    rooms = ThreadRooms()
    core = Core(
        memory_store,
        CoreConfig(default_locale="en"),
        clock=Clock(),
        seeds=SeededSource("t"),
        rooms=rooms,
    )
    await register(core, 8)
    await core.handle(cmd("org", "/tournament start"))
    assert rooms.opened == ["c1-thread1", "c1-thread2"]
    live = core.tables.in_channel("test", "c1-thread1")
    player = live.session.seats[0].user_id
    out = await core.handle(cmd(player, "/tournament standings", channel="c1-thread1"))
    assert not errors(out) and any(o.kind is OutKind.EDIT_TABLE for o in out)
    out = await core.handle(cmd(player, "/tournament leave", channel="c1-thread1"))
    assert not errors(out)
    assert live.session.seats[0].away  # a forfeit: the computer plays the seat out
    out = await core.handle(cmd("p0", "/tournament standings", channel="elsewhere"))
    assert errors(out)


@pytest.mark.parametrize("entrants", [2, 3, 6, 17, 40])
async def test_whole_tournaments_of_2_to_40_with_a_restart_at_every_stage(memory_store, entrants):
    clock = Clock()
    core = make_core(memory_store, clock=clock)
    await register(core, entrants, f"/tournament okey {FEE} 1 10")
    await core.handle(cmd("org", "/tournament start"))
    stages = 1
    while True:
        record, state = await play_to_end(
            core,
            clock,
            memory_store,
            until=lambda s: len(s.stages) > stages,  # noqa: B023
        )
        if record.status == "finished":
            break
        stages = len(state.stages)
        core = make_core(memory_store, clock=clock)  # a new process takes over between stages
        await core.start()
    players = sorted(e.player_id for e in state.entrants)
    assert sorted(state.ranking) == players  # every entrant ranked exactly once
    assert sum(state.prizes) == entrants * FEE  # fees in = prizes out
    assert sum((await balances(memory_store, entrants)).values()) == entrants * 1000
    assert await memory_store.balance(tournament_escrow(1)) == 0
    assert await memory_store.audit() == []
    if entrants > 4:
        assert len(state.stages) >= 2 and len(state.stages[0].tables) == -(-entrants // 4)


async def test_a_stage_seating_is_verified_from_its_seed_once_the_stage_is_over(memory_store):
    clock = Clock()
    core = make_core(memory_store, clock=clock)
    await register(core, 6)
    out = await core.handle(cmd("org", "/tournament start"))
    assert any("/verify t1-s1" in o.text for o in out)  # the seating tells how to check it
    running = await core.handle(cmd("p0", "/verify t1-s1"))
    assert [o.kind for o in running] == [OutKind.ERROR]  # the seed is secret while it plays
    _, state = await play_to_end(core, clock, memory_store)
    for stage in state.stages:
        [answer] = await core.handle(cmd("p0", f"/verify t1-s{stage.number}"))
        assert answer.kind is OutKind.PUBLIC
        assert stage.seed in answer.text and "seats exactly the tables" in answer.text
    for unknown in ("t1-s9", "t7-s1"):
        assert [o.kind for o in await core.handle(cmd("p0", f"/verify {unknown}"))] == [
            OutKind.ERROR
        ]


async def test_a_failing_tournament_step_never_spoils_the_answer_to_the_move_that_caused_it(
    memory_store, caplog
):
    core = make_core(memory_store, clock=Clock())
    await core.handle(cmd("ayse", "/poker open turkish 10"))
    core.tables.ended.add(7)  # as if the step had closed a table of tournament 7

    async def broken(ids):
        raise RuntimeError("the tournament's storage is down")

    core.tournaments.settle = broken
    out = await core.handle(cmd("ayse", "/poker join 100"))
    assert not errors(out) and any(o.kind is OutKind.EDIT_TABLE for o in out)  # the join stands
    assert "tournament_settle_failed" in caplog.text


async def test_a_classic_scoring_tournament_plays_its_matches_down_to_zero(memory_store):
    clock = Clock()
    core = make_core(memory_store, clock=clock)
    await register(core, 3, f"/tournament okey {FEE} puanlama=klasik")
    await core.handle(cmd("org", "/tournament start"))
    assert core.tables.tables and all(
        t.session.options["preset"] == "classic" for t in core.tables.tables.values()
    )
    record, state = await play_to_end(core, clock, memory_store)
    assert record.status == "finished" and state.settings.preset == "classic"
    for stage in state.stages:  # each table's order: the fewest points lost first
        for slot in stage.tables:
            lost = [slot.figures[str(p)]["penalty"] for p in slot.order]
            assert lost == sorted(lost)
    assert sum((await balances(memory_store, 3)).values()) == 3 * 1000
    assert await memory_store.audit() == []
