"""Shared helpers for the 101 tests: seeds, rigged rounds and a random legal player."""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from games.base import Action, IllegalAction
from games.okey.tiles import full_set
from games.okey101 import Round101, addable, best_opening, discard_penalty
from games.okey101.melds import swap_wild

PLAYERS = ["ayse", "baris", "cem", "deniz"]


def seed(k: int) -> bytes:
    """A fixed 32-byte seed."""
    return hashlib.sha256(f"okey101-{k}".encode()).digest()


def rigged(
    racks: dict[int, list[str]],
    indicator: str = "K3",
    players: int = 4,
    turn: int = 0,
    phase: str = "play",
    table: list[dict[str, Any]] | None = None,
    opened: dict[int, str] | None = None,
    stock: int | None = None,
    discard: str | None = None,
    options: dict[str, Any] | None = None,
) -> Round101:
    """A round in a chosen position; every one of the 106 tiles is still somewhere.

    Seats not in `racks` get 21 tiles (22 for the seat to act in the play phase) from what is left;
    `discard` is put on top of the previous seat's pile; `stock` keeps that many tiles in the stock
    (the rest go to the previous seat's pile, under `discard`).
    """
    from games.okey101.scoring import check_options

    table = [dict(m) for m in (table or [])]
    rest = Counter(full_set())
    rest[indicator] -= 1
    for rack in racks.values():
        rest.subtract(rack)
    for meld in table:
        rest.subtract(meld["tiles"])
    if discard:
        rest[discard] -= 1
    assert all(v >= 0 for v in rest.values()), rest
    pool = sorted(rest.elements())
    random.Random(0).shuffle(pool)
    full: list[list[str]] = []
    for s in range(players):
        size = 22 if (s == turn and phase == "play") else 21
        if s in racks:
            full.append(list(racks[s]))
        else:
            full.append(pool[:size])
            pool = pool[size:]
    piles: list[list[str]] = [[] for _ in range(players)]
    prev = (turn - 1) % players
    if stock is not None:
        piles[prev] = pool[stock:]
        pool = pool[:stock]
    if discard:
        piles[prev].append(discard)
    opened_list: list[str | None] = [None] * players
    for s, how in (opened or {}).items():
        opened_list[s] = how
    round_ = Round101(
        {
            "players": PLAYERS[:players],
            "options": check_options(options, players),
            "seed": seed(0).hex(),
            "starter": 0,
            "start_draw": [[] for _ in range(players)],
            "indicator": indicator,
            "racks": full,
            "stock": pool,
            "piles": piles,
            "turn": turn,
            "turn_no": 5,
            "phase": phase,
            "opened": opened_list,
            "opened_turn": [None if o is None else 1 for o in opened_list],
            "opening_values": [0 if o is None else 101 for o in opened_list],
            "table": table,
            "penalties": [0] * players,
            "penalty_log": [],
            "result": None,
        }
    )
    assert round_.tiles_accounted() == 106
    return round_


def run(lo: int, tiles: list[str], owner: int = 1) -> dict[str, Any]:
    """A run on the table."""
    return {"kind": "run", "colour": tiles[0][0], "lo": lo, "tiles": tiles, "owner": owner}


def set_of(number: int, tiles: list[str], owner: int = 1) -> dict[str, Any]:
    """A set on the table."""
    return {"kind": "set", "number": number, "tiles": tiles, "owner": owner}


def random_move(round_: Round101, seat: int, rng: random.Random) -> Action:
    """A random legal move for the seat to act, using the solver to open and lay."""
    okey = round_.okey
    rack = round_.racks[seat]
    kinds = {s.kind for s in round_.legal_actions(seat)}
    if round_.phase == "take":
        tile = round_.last_discard(seat)
        if tile is not None and kinds & {"open", "lay", "add"} and rng.random() < 0.7:
            move = _use_discard(round_, seat, tile, rng)
            if move is not None:
                return move
        return Action("take", source="stock")
    if "finish" in kinds:
        return Action("finish", cards=(rack[0],))
    if "open" in kinds and rng.random() < 0.9:
        best = best_opening(rack, okey)
        if best.value >= round_.threshold and _leaves_one(rack, best.melds):
            return Action("open", cards=_cards(best.melds))
        if best.can_pairs and round_.pairs_openers() < round_.options["pairs_max"]:
            pairs = best.pair_melds[: max(5, len(best.pair_melds) - 1)]
            if _leaves_one(rack, pairs):
                return Action("open", cards=_cards(pairs))
    if "lay" in kinds and rng.random() < 0.8:
        if round_.opened[seat] == "pairs":
            pairs = best_opening(rack, okey).pair_melds[:1]
            if pairs and _leaves_one(rack, pairs):
                return Action("lay", cards=_cards(pairs))
        else:
            melds = best_opening(rack, okey).melds[:1]
            if melds and _leaves_one(rack, melds):
                return Action("lay", cards=_cards(melds))
    if "add" in kinds and rng.random() < 0.8:
        options = addable(rack, round_.table, okey)
        if options:
            tile, k = rng.choice(options)
            return Action("add", cards=(tile,), amount=k)
    if "swap" in kinds and rng.random() < 0.5:
        for tile in rack:
            for k, meld in enumerate(round_.table):
                if swap_wild(meld, tile, okey) is not None:
                    return Action("swap", cards=(tile,), amount=k)
    safe = [t for t in rack if discard_penalty(t, round_.table, okey) is None]
    if rng.random() < 0.1:
        safe = []  # now and then a discard that may cost +101
    return Action("discard", cards=(rng.choice(safe or rack),))


def _leaves_one(rack: list[str], melds: list[list[str]]) -> bool:
    return sum(len(m) for m in melds) < len(rack)


def _cards(melds: list[list[str]]) -> tuple[str, ...]:
    out: list[str] = []
    for meld in melds:
        if out:
            out.append("/")
        out += meld
    return tuple(out)


def _use_discard(round_: Round101, seat: int, tile: str, rng: random.Random) -> Action | None:
    okey = round_.okey
    rack = [*round_.racks[seat], tile]
    if round_.opened[seat] is None:
        best = best_opening(rack, okey, forced=tile)
        if best.value >= round_.threshold and _leaves_one(rack, best.melds):
            return Action("open", cards=_cards(best.melds), source="discard")
        return None
    for tile_, k in addable([tile], round_.table, okey):
        return Action("add", cards=(tile_,), amount=k, source="discard")
    if round_.opened[seat] == "series":
        best = best_opening(rack, okey, forced=tile)
        melds = [m for m in best.melds if tile in m][:1]
        if melds and _leaves_one(rack, melds):
            return Action("lay", cards=_cards(melds), source="discard")
    return None


Mover = Callable[[Round101, int, random.Random], Action]


def play_out(
    round_: Round101, rng: random.Random, limit: int = 2000, move: Mover | None = None
) -> int:
    """Play moves until the round ends (random legal ones, or `move`'s); returns how many."""
    moves = 0
    while not round_.finished:
        seat = round_.to_act()
        assert seat is not None
        action = (move or random_move)(round_, seat, rng)
        try:
            round_.apply(seat, action)
        except IllegalAction as exc:  # a helper bug: say which move
            raise AssertionError(f"{action} refused: {exc.code} {exc}") from exc
        moves += 1
        assert moves < limit
    return moves


FILLER = [
    "R1", "Y3", "B5", "K7", "R3", "Y5", "B7", "K9", "R5", "Y7", "B9", "K11", "R7", "Y9", "B11",
    "K13", "Y1", "B1", "K1", "B3", "K5", "Y11", "R9", "B13",
]  # fmt: skip


def fill(tiles: list[str], size: int, avoid: tuple[str, ...] = ()) -> list[str]:
    """`tiles` topped up to `size` with scattered filler tiles (never a third copy)."""
    out = list(tiles)
    for tile in FILLER * 2:
        if len(out) >= size:
            break
        if tile not in avoid and out.count(tile) < 2:
            out.append(tile)
    assert len(out) == size
    return out


def act(kind: str, cards: str = "", amount: int | None = None, source: str | None = None) -> Action:
    """An action with its tiles written as one string ("R5 R6 R7 / K9 B9 Y9")."""
    return Action(kind, amount=amount, cards=tuple(cards.split()), source=source)


def refused(round_: Round101, seat: int, action: Action, code: str) -> IllegalAction:
    """Apply `action`, expect IllegalAction `code`, and check nothing changed."""
    before = round_.to_dict()
    try:
        round_.apply(seat, action)
    except IllegalAction as exc:
        assert exc.code == code, (exc.code, str(exc))
        assert round_.to_dict() == before
        return exc
    raise AssertionError(f"{action} was accepted, expected {code}")
