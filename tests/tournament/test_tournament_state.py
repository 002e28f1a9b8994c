"""The tournament state machine alone: every entrant ranked once, fees in = prizes out exactly,
the seating verifiable from its revealed seed, tables of 4, 3 or 2, and its refusals."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.errors import Refusal
from bot.core.tournament import draw, prizes
from bot.core.tournament.state import Entrant, Settings, Tournament


def seed_of(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


def play_out(state: Tournament, rng: st.DataObject | None, forfeits: set[int]) -> None:
    """Play every stage: each table's order is a permutation (drawn by hypothesis or fixed)."""
    stage_no = 1
    while state.status == "running":
        stage = state.stage
        assert stage is not None
        for slot in stage.tables:
            order = list(slot.players)
            if rng is not None:
                order = rng.draw(st.permutations(order))
            figures = {
                p: {"penalty": i * 10, "finishes": 0, "forfeit": int(p in forfeits)}
                for i, p in enumerate(order)
            }
            order.sort(key=lambda p: figures[p]["forfeit"])
            assert state.record(slot.number, order, figures)
            assert not state.record(slot.number, order, figures)  # a repeat changes nothing
        stage_no += 1
        state.next_stage(seed_of(f"s{stage_no}"))


def registered(count: int, fee: int, bots: bool = False, split=prizes.OKEY_SPLIT) -> Tournament:
    state = Tournament("okey", 1, Settings(fee=fee, bots=bots, split=split), "en", "n0")
    for pid in range(1, count + 1):
        state.join(Entrant(pid, f"u{pid}", f"P{pid}", "en", fee))
    return state


@settings(max_examples=40)
@given(
    count=st.integers(2, 40),
    fee=st.integers(0, 10_000),
    bots=st.booleans(),
    split=st.sampled_from([(50, 30, 20), (100,), (60, 40), (40, 25, 15, 10, 10)]),
    data=st.data(),
)
def test_every_entrant_is_ranked_once_and_prizes_add_up_to_the_fees(
    count: int, fee: int, bots: bool, split: tuple[int, ...], data: st.DataObject
) -> None:
    state = registered(count, fee, bots, split)
    forfeits = set(data.draw(st.sets(st.integers(1, count), max_size=count // 3)))
    state.start(seed_of("s1"), "n1")
    play_out(state, data, forfeits)
    assert state.status == "finished"
    assert sorted(state.ranking) == list(range(1, count + 1))
    assert sum(state.prizes) == fee * count == state.pool()
    assert len(state.prizes) == min(len(split), count)
    assert state.prizes == sorted(state.prizes, reverse=True) or fee * count < 100
    for stage in state.stages:
        for slot in stage.tables:
            assert 2 <= len(slot.players) <= 4 or (bots and len(slot.players) >= 1)
            assert len(slot.players) + slot.bots <= 4
    assert Tournament.from_dict(state.to_dict(), 0).to_dict() == state.to_dict()


@settings(max_examples=25)
@given(count=st.integers(2, 40), bots=st.booleans(), label=st.text(max_size=8))
def test_the_seating_is_verifiable_from_the_revealed_seed(
    count: int, bots: bool, label: str
) -> None:
    state = registered(count, 10, bots)
    stage = state.start(seed_of(label), "n1")
    play_out(state, None, set())
    assert stage.revealed  # the seed is public once the stage is over
    again = draw.verify_seating(stage.seed, stage.seed_hash, range(1, count + 1), bots)
    assert again is not None
    assert again.tables == [slot.players for slot in stage.tables]
    assert again.bots == [slot.bots for slot in stage.tables]
    assert (
        draw.verify_seating(seed_of("other").hex(), stage.seed_hash, range(1, count + 1), bots)
        is None
    )


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (2, [2]),
        (4, [4]),
        (5, [3, 2]),
        (6, [3, 3]),
        (7, [4, 3]),
        (9, [3, 3, 3]),
        (13, [4, 3, 3, 3]),
        (16, [4, 4, 4, 4]),
    ],
)
def test_tables_of_four_three_or_two_where_the_numbers_require(
    players: int, sizes: list[int]
) -> None:
    assert draw.table_sizes(players) == sizes


def test_prize_split_remainders_go_to_the_best_places_one_chip_each() -> None:
    assert prizes.split(101, (50, 30, 20), 5) == [51, 30, 20]
    assert prizes.split(1000, (50, 30, 20), 2) == [625, 375]
    assert prizes.split(7, (50, 30, 20), 3) == [4, 2, 1]
    assert prizes.poker_split(3) == (100,) and prizes.poker_split(4) == (65, 35)
    assert prizes.parse_split("50/30/20") == (50, 30, 20)
    assert prizes.parse_split("50/30") is None and prizes.parse_split("a/b") is None


def test_registration_refusals_change_nothing() -> None:
    state = registered(2, 10)
    before = state.to_dict()
    with pytest.raises(Refusal) as joined:
        state.join(Entrant(1, "u1", "P1", "en", 10))
    assert joined.value.key == "err.tournament_joined"
    with pytest.raises(Refusal) as stranger:
        state.leave(99)
    assert stranger.value.key == "err.tournament_not_entrant"
    assert state.to_dict() == before
    full = Tournament("okey", 1, Settings(tables=1), "en", "n")
    for pid in range(1, 5):
        full.join(Entrant(pid, "u", "P", "en"))
    with pytest.raises(Refusal) as over:
        full.join(Entrant(5, "u", "P", "en"))
    assert over.value.key == "err.tournament_full"
    alone = Tournament("okey", 1, Settings(), "en", "n")
    alone.join(Entrant(1, "u", "P", "en"))
    with pytest.raises(Refusal) as few:
        alone.start(seed_of("x"), "n1")
    assert few.value.key == "err.tournament_need_players" and alone.status == "registering"


def test_a_cancelled_tournament_refunds_every_fee_paid() -> None:
    state = registered(6, 25)
    state.start(seed_of("s"), "n1")
    assert state.cancel() == {pid: 25 for pid in range(1, 7)}
    with pytest.raises(Refusal):
        state.cancel()


@pytest.mark.parametrize("name_length", [3, 32])
def test_the_living_message_fits_a_chat_message_and_keeps_the_prizes_at_64(name_length) -> None:
    from bot.core.tournament import view

    state = Tournament("okey", 1, Settings(fee=100), "en", "n0")
    for pid in range(1, 65):
        state.join(Entrant(pid, f"u{pid}", f"P{pid}".ljust(name_length, "x"), "en", 100))
    registering = view.message(state, "c1")
    state.start(seed_of("s1"), "n1")
    running = view.message(state, "c1")
    play_out(state, None, set())
    finished = view.message(state, "c1")
    for item in (registering, running, finished):
        assert len(item.text) <= view.MAX_TEXT
    for place, chips in enumerate(state.prizes, start=1):  # the paid places always show
        assert f"{place}. {state.name(state.ranking[place - 1])} — {chips} chips" in finished.text
    if name_length == 3:  # short names: every place, and every stage's seed in the message
        assert "64. " in finished.text
        assert all(stage.seed in finished.text for stage in state.stages)
    else:  # long ones: the unpaid places on one line, cut where the message ends
        assert "\n5. " not in finished.text and ", 5. " in finished.text
        assert finished.text.endswith("…")
