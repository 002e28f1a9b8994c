"""A MINIMAL stand-in for the 101 computer players (written on the `ok101` branch).

The real module, at three levels, is written on the `ai101` branch with the same entry point
`choose_action(round, seat, level, rng) -> Action`; when the branches merge, THAT branch's file
wins and this one is dropped. The table (`bot.core.okey101.session`) only calls `choose_action`.

This stand-in plays every level the same simple, legal way: draw from the stock; open as soon as
the rack allows (by series, else by pairs); once opened lay every meld (pairs for a pairs opener)
and add every tile that fits the table, always keeping one tile; discard the highest tile that
costs no penalty (a +101 one only when nothing else is left), or finish with the last tile.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.base import Action, IllegalAction
from games.okey101.melds import meld_value, read_meld, tile_value
from games.okey101.round import MIN_PAIRS, PAIRS, SEPARATOR, TAKE, Round101
from games.okey101.solver import best_opening, discard_penalty, fits_table

LEVELS = ("easy", "normal", "hard")


def joined(melds: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """Melds as one `cards` tuple, separated by "/"."""
    out: list[str] = []
    for meld in melds:
        if out:
            out.append(SEPARATOR)
        out.extend(meld)
    return tuple(out)


def keep_one(melds: list[list[str]], rack_size: int) -> list[list[str]]:
    """`melds` without the last ones while they would lay the whole rack."""
    melds = list(melds)
    while melds and sum(len(m) for m in melds) >= rack_size:
        melds.pop()
    return melds


def choose_action(round: Round101, seat: int, level: str, rng: random.Random) -> Action:
    """The next move of `seat` (to act now); the same simple play at every level."""
    view = round.view(seat)
    rack: list[str] = list(view["hand"])
    okey = round.okey
    if round.phase == TAKE:
        return Action("take", source="stock")
    if len(rack) == 1:
        return Action("finish", cards=(rack[0],))
    opened = round.opened[seat]
    best = best_opening(rack, okey)
    if opened is None:
        melds = keep_one(best.melds, len(rack))
        if sum(_value(m, round) for m in melds) >= round.threshold and melds:
            action = Action("open", cards=joined(melds))
            if _legal(round, seat, action):
                return action
        pairs = keep_one(best.pair_melds, len(rack))
        if len(pairs) >= MIN_PAIRS and round.pairs_openers() < round.options["pairs_max"]:
            action = Action("open", cards=joined(pairs))
            if _legal(round, seat, action):
                return action
    else:
        lay = keep_one(best.pair_melds if opened == PAIRS else best.melds, len(rack))
        if lay:
            action = Action("lay", cards=joined(lay))
            if _legal(round, seat, action):
                return action
        if len(rack) > 1:
            for tile in rack:
                for k in fits_table(tile, round.table, okey):
                    action = Action("add", cards=(tile,), amount=k)
                    if _legal(round, seat, action):
                        return action
    safe = [t for t in rack if discard_penalty(t, round.table, okey) is None]
    pool = safe or rack
    tile = max(pool, key=lambda t: (tile_value(t, okey), t))
    return Action("discard", cards=(tile,))


def _value(meld: Sequence[str], round: Round101) -> int:
    read = read_meld(list(meld), round.okey)
    return 0 if read is None else meld_value(read)


def _legal(round: Round101, seat: int, action: Action) -> bool:
    """Whether `action` is accepted (tried on a copy)."""
    trial = Round101.from_dict(round.to_dict())
    try:
        trial.apply(seat, action)
    except IllegalAction:
        return False
    return True
