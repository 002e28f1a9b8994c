"""Shared helpers for the Okey engine tests: fixed seeds and rounds rigged into a position."""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any

from games.okey import OkeyRound, full_set

PLAYERS = ["ayse", "baris", "cem", "deniz"]
COMPLETE = ["R11", "R12", "R13", "R1", "Y1", "Y2", "Y3", "B5", "Y5", "K5", "R7", "R8", "R9", "R10"]
PAIRS = ["R1", "R1", "Y2", "Y2", "B3", "B3", "K5", "K5", "R7", "R7", "Y9", "Y9", "B11", "B11"]


def seed(k: int) -> bytes:
    """A fixed 32-byte seed."""
    return hashlib.sha256(f"okey-{k}".encode()).digest()


def rigged(
    racks: dict[int, list[str]],
    indicator: str = "K3",
    players: int = 4,
    turn: int = 0,
    phase: str = "discard",
    stock: int | None = None,
    preset: str = "penalty",
) -> OkeyRound:
    """A round in a chosen position; every one of the 106 tiles is still somewhere."""
    rest = Counter(full_set())
    rest[indicator] -= 1
    for rack in racks.values():
        rest.subtract(rack)
    assert all(v >= 0 for v in rest.values())
    pool = list(rest.elements())
    full: list[list[str]] = []
    for seat in range(players):
        size = 15 if (seat == turn and phase == "discard") else 14
        if seat in racks:
            full.append(list(racks[seat]))
        else:
            full.append(pool[:size])
            pool = pool[size:]
    piles: list[list[str]] = [[] for _ in range(players)]
    if stock is not None:
        piles[(turn - 1) % players] = pool[stock:]
        pool = pool[:stock]
    data: dict[str, Any] = {
        "players": PLAYERS[:players],
        "options": {"rounds": 1, "preset": preset},
        "seed": seed(0).hex(),
        "starter": 0,
        "start_draw": [["R1"]] * players,
        "indicator": indicator,
        "racks": full,
        "stock": pool,
        "piles": piles,
        "turn": turn,
        "phase": phase,
        "started": [True] * players,
        "shown_by": None,
        "penalties": [0] * players,
        "result": None,
    }
    return OkeyRound.from_dict(data)
