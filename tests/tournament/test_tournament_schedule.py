"""A tournament's optional start time (`start=21:30`, `in=15m`) and the standings edited after
every round of a 3-round match, through the core on the test clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.core.errors import Refusal
from bot.core.messages import OutKind
from bot.core.tournament import schedule
from bot.core.tournament.state import Tournament
from storage import tournament_escrow, wallet
from testkit.helpers import Clock, cmd, errors, make_core

NOW = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)  # 15:00 in Istanbul
ZONE = "Europe/Istanbul"


# --- parsing ------------------------------------------------------------------------------------


def test_a_clock_time_is_its_next_occurrence_in_the_bots_zone():
    assert schedule.start_time("start", "21:30", NOW, ZONE) == NOW + timedelta(hours=6, minutes=30)
    tomorrow = schedule.start_time("start", "14.00", NOW, ZONE)  # 14:00 has passed today
    assert tomorrow == NOW + timedelta(hours=23)
    assert schedule.start_time("saat", "9:05", NOW, "UTC") == datetime(2026, 1, 6, 9, 5, tzinfo=UTC)
    assert schedule.label(NOW + timedelta(hours=6, minutes=30), ZONE) == "21:30 (Europe/Istanbul)"


def test_a_delay_counts_from_now():
    assert schedule.start_time("in", "15m", NOW, ZONE) == NOW + timedelta(minutes=15)
    assert schedule.start_time("in", "2h", NOW, ZONE) == NOW + timedelta(hours=2)
    assert schedule.start_time("sonra", "90", NOW, ZONE) == NOW + timedelta(minutes=90)
    assert schedule.start_time("start", "10dk", NOW, ZONE) == NOW + timedelta(minutes=10)


@pytest.mark.parametrize(
    ("name", "value"),
    [("in", "0m"), ("in", "25h"), ("in", "soon"), ("start", "25:00"), ("in", "21:30")],
)
def test_a_start_time_too_near_too_far_or_unreadable_is_refused(name, value):
    with pytest.raises(Refusal) as caught:
        schedule.start_time(name, value, NOW, ZONE)
    assert caught.value.key == "err.tournament_start_time"


# --- through the core ---------------------------------------------------------------------------


async def test_the_registration_message_shows_the_start_time_and_it_starts_by_itself(
    memory_store,
) -> None:
    clock = Clock(NOW)
    core = make_core(memory_store, clock=clock)
    out = await core.handle(cmd("org", "/tournament okey 100 1 start=21:30"))
    [message] = [o for o in out if o.kind is OutKind.EDIT_TABLE]
    assert "21:30 (Europe/Istanbul)" in message.text
    record = await memory_store.get_tournament(1)
    assert record.deadline == NOW + timedelta(hours=6, minutes=30)
    for user in ("ayse", "mehmet", "zeynep"):
        joined = await core.handle(cmd(user, "/tournament join"))
        assert not errors(joined)
    record = await memory_store.get_tournament(1)
    assert record.deadline == NOW + timedelta(hours=6, minutes=30)  # kept by every commit
    clock.advance(6 * 3600 + 29 * 60)
    assert [o for o in await core.tick() if o.table_id == "t1"] == []  # not yet
    assert (await memory_store.get_tournament(1)).status == "registering"
    clock.advance(60)
    out = await core.tick()
    record = await memory_store.get_tournament(1)
    state = Tournament.from_dict(record.snapshot, 1)
    assert record.status == "running" and record.deadline is None
    assert len(state.stages) == 1 and sorted(state.stages[0].players()) == sorted(
        e.player_id for e in state.entrants
    )
    said = [o.text for o in out if o.kind is OutKind.PUBLIC and o.table_id == "t1"]
    assert any("starts with 3 players" in t for t in said)
    assert await memory_store.due_tournaments(clock()) == []
    clock.advance(120)
    again = await core.tick()  # started once: nothing more from the start time
    assert not [o for o in again if o.kind is OutKind.PUBLIC and "starts with" in o.text]


async def test_with_too_few_entrants_at_the_start_time_it_is_cancelled_and_refunded(
    memory_store,
) -> None:
    clock = Clock(NOW)
    core = make_core(memory_store, clock=clock)
    await core.handle(cmd("org", "/tournament okey 100 1 in=15m"))
    assert not errors(await core.handle(cmd("ayse", "/tournament join")))
    ayse = await memory_store.find_player("test", "ayse")
    assert await memory_store.balance(tournament_escrow(1)) == 100
    clock.advance(15 * 60)
    out = await core.tick()
    record = await memory_store.get_tournament(1)
    assert record.status == "cancelled"
    assert await memory_store.balance(tournament_escrow(1)) == 0
    assert await memory_store.balance(wallet(ayse.id)) == 1000
    [notice] = [o for o in out if o.kind is OutKind.PUBLIC and o.table_id == "t1"]
    assert "needs at least 2" in notice.text and notice.channel_id == "c1"
    assert [o for o in out if o.kind is OutKind.EDIT_TABLE and o.table_id == "t1"]
    assert await memory_store.audit() == []


async def test_a_tournament_started_by_hand_before_its_time_is_not_started_again(
    memory_store,
) -> None:
    clock = Clock(NOW)
    core = make_core(memory_store, clock=clock)
    await core.handle(cmd("org", "/tournament okey 0 1 in=5m"))
    for user in ("ayse", "mehmet"):
        await core.handle(cmd(user, "/tournament join"))
    assert not errors(await core.handle(cmd("org", "/tournament start")))
    assert (await memory_store.get_tournament(1)).deadline is None  # the start time is spent
    clock.advance(5 * 60)
    assert await memory_store.due_tournaments(clock()) == []
    out = await core.tick()
    assert not [o for o in out if o.kind is OutKind.PUBLIC and "starts with" in o.text]
    record = await memory_store.get_tournament(1)
    assert len(Tournament.from_dict(record.snapshot, 1).stages) == 1  # seated once


async def test_a_bad_start_time_is_refused_privately_and_opens_nothing(memory_store) -> None:
    core = make_core(memory_store, clock=Clock(NOW))
    out = await core.handle(cmd("org", "/tournament okey 100 1 start=99:99"))
    assert [o.kind for o in out] == [OutKind.ERROR]
    assert "start=21:30" in out[0].text
    assert await memory_store.open_tournaments() == []


# --- live standings -----------------------------------------------------------------------------


async def test_the_standings_are_edited_after_each_round_of_a_three_round_match(
    memory_store,
) -> None:
    clock = Clock(NOW)
    # nobody is ever replaced by the computer: each time-out plays one move, round by round
    core = make_core(memory_store, clock=clock, afk_limit=10**6)
    await core.handle(cmd("org", "/tournament okey 0 3"))
    for user in ("ayse", "mehmet", "zeynep", "ali"):
        await core.handle(cmd(user, "/tournament join"))
    await core.handle(cmd("org", "/tournament start"))
    [live] = [t for t in core.tables.tables.values() if t.session.in_tournament()]
    edits_between_rounds = []
    for _ in range(400):
        if live.closed or live.session.match is None:
            break
        before = len(live.session.match.history)
        clock.advance(61)  # the player to act times out
        out = await core.tick()
        if live.session.match is not None and len(live.session.match.history) > before:
            standings = [o for o in out if o.table_id == "t1"]
            assert [o.kind for o in standings] == [OutKind.EDIT_TABLE]  # an edit, no post
            assert not standings[0].fresh
            outcome = live.session.outcome()
            for seat in live.session.seats:  # each player's live penalty total
                penalty = outcome.figures[seat.player_id]["penalty"]
                assert f"{seat.name} {penalty}" in standings[0].text
            edits_between_rounds.append(sum(f["penalty"] for f in outcome.figures.values()))
    assert len(edits_between_rounds) == 2  # after round 1 and round 2; round 3 closes the table
    assert edits_between_rounds[0] > 0  # penalties were counted, not the zeros of the start
