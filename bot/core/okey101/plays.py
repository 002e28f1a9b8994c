"""The one-press moves of a 101 table, worked out from the solver (`games.okey101`).

A player presses "Open with the best melds", "Open with pairs", "Take R5 and open", "Lay down my
melds" or "Add R5 to meld 3"; these functions turn the press into the engine's `Action` from the
rack as it is now, or None when the rack does not allow it (the button is then not offered, and a
stale press is refused). Every laying move keeps one tile in the rack (the turn ends with a
discard). Pure: they read a `Round101` and change nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from games.base import Action, IllegalAction
from games.okey101 import Opening, Round101, best_opening, discard_penalty, meld_value, read_meld
from games.okey101.melds import swap_wild
from games.okey101.round import MIN_PAIRS, PAIRS, SEPARATOR, TAKE
from games.okey101.solver import addable, fits_table, pairs_of

SERIES_OPEN, PAIRS_OPEN = "series", "pairs"


def best(tiles: Iterable[str], okey: str, forced: str | None = None) -> Opening:
    """`best_opening` of a rack, remembered: one turn's rack text, buttons and picture ask the
    solver about the same rack several times. Treat the answer as read-only."""
    return _best(tuple(sorted(tiles)), okey, forced)


@lru_cache(maxsize=512)
def _best(tiles: tuple[str, ...], okey: str, forced: str | None) -> Opening:
    return best_opening(tiles, okey, forced)


def joined(melds: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """Melds as one `Action.cards` tuple, separated by "/"."""
    out: list[str] = []
    for meld in melds:
        if out:
            out.append(SEPARATOR)
        out.extend(meld)
    return tuple(out)


def _keep_one(melds: list[list[str]], rack_size: int) -> list[list[str]]:
    """`melds` without the last ones while they would lay the whole rack."""
    melds = [list(m) for m in melds]
    while melds and sum(len(m) for m in melds) >= rack_size:
        melds.pop()
    return melds


def _value(melds: Sequence[Sequence[str]], okey: str) -> int:
    total = 0
    for meld in melds:
        read = read_meld(list(meld), okey)
        total += 0 if read is None else meld_value(read)
    return total


@dataclass(frozen=True)
class Plan:
    """A laying move worked out for a rack: the action and what it shows the player (the
    melds, their value or the number of pairs)."""

    action: Action
    melds: tuple[tuple[str, ...], ...]
    value: int


def _rack(game: Round101, seat: int, taken: str | None) -> list[str]:
    return [*game.racks[seat], *([taken] if taken else [])]


def _accepted(game: Round101, seat: int, action: Action) -> bool:
    """Whether the engine takes `action` now (tried on a copy)."""
    trial = Round101.from_dict(game.to_dict())
    try:
        trial.apply(seat, action)
    except IllegalAction:
        return False
    return True


def open_plan(game: Round101, seat: int, how: str, take: bool = False) -> Plan | None:
    """The best opening of `seat` by series or by pairs (`how`), with the previous discard
    taken into it when `take`; None when the rack cannot open that way now."""
    if game.opened[seat] is not None or game.to_act() != seat:
        return None
    taken = game.last_discard(seat) if take else None
    if take and taken is None:
        return None
    if not take and game.phase == TAKE:
        return None
    rack = _rack(game, seat, taken)
    okey = game.okey
    source = "discard" if take else None
    if how == SERIES_OPEN:
        found = best(rack, okey, forced=taken)
        melds = _keep_one(found.melds, len(rack))
        if taken is not None and not any(taken in m for m in melds):
            return None
        value = _value(melds, okey)
        if value < game.threshold:
            return None
    else:
        melds = _keep_one(pairs_of(rack, okey), len(rack))
        if taken is not None and not any(taken in m for m in melds):
            return None
        if len(melds) < MIN_PAIRS:
            return None
        value = len(melds)
    action = Action("open", cards=joined(melds), source=source)
    if not _accepted(game, seat, action):
        return None
    return Plan(action, tuple(tuple(m) for m in melds), value)


def lay_plan(game: Round101, seat: int, take: bool = False) -> Plan | None:
    """An opened player's further melds (pairs for a pairs opener), with the previous discard
    in them when `take`; None when there is nothing to lay."""
    how = game.opened[seat]
    if how is None or game.to_act() != seat:
        return None
    taken = game.last_discard(seat) if take else None
    if (take and taken is None) or (not take and game.phase == TAKE):
        return None
    rack = _rack(game, seat, taken)
    okey = game.okey
    melds = pairs_of(rack, okey) if how == PAIRS else best(rack, okey, forced=taken).melds
    melds = _keep_one(melds, len(rack))
    if taken is not None:
        melds = [m for m in melds if taken in m][:1] if how == PAIRS else melds
        if not any(taken in m for m in melds):
            return None
    if not melds:
        return None
    action = Action("lay", cards=joined(melds), source="discard" if take else None)
    if not _accepted(game, seat, action):
        return None
    value = len(melds) if how == PAIRS else _value(melds, okey)
    return Plan(action, tuple(tuple(m) for m in melds), value)


def additions(game: Round101, seat: int) -> list[tuple[str, int]]:
    """(tile, meld index) for each rack tile that fits a meld on the table now (an opened
    player after the draw, keeping one tile)."""
    if game.opened[seat] is None or game.to_act() != seat or game.phase == TAKE:
        return []
    if len(game.racks[seat]) < 2:
        return []
    return addable(game.racks[seat], game.table, game.okey)


def swaps(game: Round101, seat: int) -> list[tuple[str, int]]:
    """(tile, meld index) for each rack tile that can take a wild's place on the table."""
    if game.opened[seat] is None or game.to_act() != seat or game.phase == TAKE:
        return []
    if not game.options["swap_okey"]:
        return []
    okey = game.okey
    return [
        (tile, k)
        for tile in dict.fromkeys(game.racks[seat])
        for k, meld in enumerate(game.table)
        if swap_wild(meld, tile, okey) is not None
    ]


def use_discard(game: Round101, seat: int) -> Action | None:
    """An opened player's use of the previous discard: added to a meld on the table (the first
    that takes it), else laid in new melds; None when it cannot be used."""
    taken = game.last_discard(seat)
    if taken is None or game.opened[seat] is None:
        return None
    for k in fits_table(taken, game.table, game.okey):
        action = Action("add", cards=(taken,), amount=k, source="discard")
        if _accepted(game, seat, action):
            return action
    plan = lay_plan(game, seat, take=True)
    if plan is not None:
        return plan.action
    for k, meld in enumerate(game.table):
        if game.options["swap_okey"] and swap_wild(meld, taken, game.okey) is not None:
            action = Action("swap", cards=(taken,), amount=k, source="discard")
            if _accepted(game, seat, action):
                return action
    return None


def warning(game: Round101, seat: int, tile: str) -> str | None:
    """Why discarding `tile` now would cost +101 (`okey` or `playable`), or None; the last tile
    of a player who finishes is exempt."""
    if len(game.racks[seat]) <= 1:
        return None
    return discard_penalty(tile, game.table, game.okey)


def layable(game: Round101, seat: int) -> set[str]:
    """The rack tiles that could be laid now or once opened (the best opening's melds, or the
    tiles that fit the table), for marking them on the rack picture."""
    rack = game.racks[seat]
    okey = game.okey
    found = best(rack, okey)
    out = {t for meld in found.melds for t in meld}
    if game.opened[seat] == PAIRS:
        out = {t for pair in found.pair_melds for t in pair}
    out |= {tile for tile, _ in addable(rack, game.table, okey)}
    return out
