"""Scoring presets and the payout of the pool: tables for 2, 3 and 4 players, ties, thresholds."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.okey import check_options, payout
from games.okey.scoring import finish_charge, indicator_charge, payout_threshold


@pytest.mark.parametrize(
    ("charged", "pool", "threshold", "expected"),
    [
        # 2 players, 1 round: the loser under 40 gets 25%
        ([0, 20], 200, 40, [150, 50]),
        ([20, 0], 200, 40, [50, 150]),
        ([0, 40], 200, 40, [200, 0]),  # 40 is not under 40: the winner takes all
        ([20, 20], 201, 40, [101, 100]),  # a tie shares everything, remainder in seat order
        # 3 players
        ([0, 20, 60], 150, 40, [113, 37, 0]),  # 25% of 150 = 37 (integer), the rest to the winner
        ([20, 0, 20], 300, 40, [37, 226, 37]),  # 75 // 2 = 37 each
        ([60, 40, 0], 90, 40, [0, 0, 90]),  # nobody under the threshold
        ([0, 0, 20], 101, 40, [38, 38, 25]),  # tied winners share 76, the odd chip to seat 0
        # 4 players, 1 round and 3 rounds
        ([40, 20, 20, 80], 400, 40, [0, 200, 200, 0]),
        ([40, 20, 60, 80], 400, 80, [50, 300, 50, 0]),
        ([20, 20, 20, 20], 10, 40, [3, 3, 2, 2]),
        ([0, 20, 20, 20], 100, 40, [76, 8, 8, 8]),
        ([0, 20, 20, 20], 0, 40, [0, 0, 0, 0]),
    ],
)
def test_payout_tables(charged: list[int], pool: int, threshold: int, expected: list[int]) -> None:
    assert payout(charged, pool, threshold) == expected


@given(
    st.lists(st.integers(0, 200), min_size=2, max_size=4),
    st.integers(0, 10**9),
    st.sampled_from([40, 80, 20]),
)
def test_payout_conserves_chips(charged: list[int], pool: int, threshold: int) -> None:
    paid = payout(charged, pool, threshold)
    assert sum(paid) == pool
    assert all(p >= 0 for p in paid)
    best = min(charged)
    winner_share = min(p for p, c in zip(paid, charged, strict=True) if c == best)
    assert all(p <= winner_share for p, c in zip(paid, charged, strict=True) if c != best)
    assert all(p == 0 for p, c in zip(paid, charged, strict=True) if c != best and c >= threshold)


def test_payout_bad_input() -> None:
    with pytest.raises(ValueError, match="pool"):
        payout([0, 20], -1, 40)
    with pytest.raises(ValueError, match="pool"):
        payout([0, 20], 1.5, 40)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        payout([], 10, 40)


def test_presets() -> None:
    assert finish_charge("penalty", okey_discard=False, seven_pairs=False) == 20
    assert finish_charge("penalty", okey_discard=True, seven_pairs=False) == 60
    assert finish_charge("penalty", okey_discard=False, seven_pairs=True) == 20
    assert finish_charge("classic", okey_discard=False, seven_pairs=False) == 2
    assert finish_charge("classic", okey_discard=True, seven_pairs=False) == 4
    assert finish_charge("classic", okey_discard=False, seven_pairs=True) == 4
    assert finish_charge("classic", okey_discard=True, seven_pairs=True) == 4
    assert indicator_charge("penalty") == 10
    assert indicator_charge("classic") == 1
    assert payout_threshold("penalty", 1) == 40
    assert payout_threshold("penalty", 3) == 80
    assert payout_threshold("classic", 1) == 20


def test_options() -> None:
    assert check_options(None) == {"rounds": 1, "preset": "penalty", "takeback": True}
    assert check_options({"rounds": 3, "preset": "classic", "takeback": False}) == {
        "rounds": 3,
        "preset": "classic",
        "takeback": False,
    }
    for bad, needle in [
        ({"rounds": 2}, "rounds"),
        ({"rounds": True}, "rounds"),
        ({"preset": "101"}, "preset"),
        ({"stake": 5}, "stake"),
        ({"takeback": "off"}, "takeback"),
        ({"takeback": 0}, "takeback"),
    ]:
        with pytest.raises(ValueError, match=needle):
            check_options(bad)
