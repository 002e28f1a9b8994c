"""The meld rules: sets, runs and pairs, complete hands and winning discards.

Sets: 3 or 4 tiles of one number in different colours. Runs: 3 or more consecutive numbers of one
colour; 1 may follow 13 (12-13-1) but a run never wraps (13-1-2 is not a run). Seven pairs: seven
pairs of identical tiles, a wild pairs with any tile. Both okey tiles are wild; a false joker (`F`)
plays as the okey's own value and is not wild.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product

from games.okey.search import all_melds
from games.okey.templates import HIGH_ONE
from games.okey.tiles import (
    FALSE_JOKER,
    Rack,
    colour_of,
    index,
    normalize,
    number_of,
    okey_of,
    read_rack,
)

HAND_SIZE = 14
RACK_SIZE = 15


def _plain_and_wilds(tiles: Sequence[object], indicator: object) -> tuple[list[int], int]:
    """Indices of the plain tiles (false jokers as the okey) and the number of wilds in `tiles`."""
    okey = okey_of(indicator)
    plain, wilds = [], 0
    for tile in tiles:
        name = normalize(tile)
        if name == okey:
            wilds += 1
        elif name == FALSE_JOKER:
            plain.append(index(okey))
        else:
            plain.append(index(name))
    return plain, wilds


def meld_kind(tiles: Sequence[object], indicator: object) -> str | None:
    """Say what `tiles` form when laid down together: "set", "run", "pair" or None.

    A checker independent of the solver (tests use it to verify arrangements). The order of the
    tiles does not matter.
    """
    plain, wilds = _plain_and_wilds(tiles, indicator)
    size = len(plain) + wilds
    if size == 2:
        return "pair" if wilds or plain[0] == plain[1] else None
    if size < 3:
        return None
    numbers = {number_of(i) for i in plain}
    if size <= 4 and len(numbers) <= 1 and len({colour_of(i) for i in plain}) == len(plain):
        return "set"
    if _is_run(plain, size):
        return "run"
    return None


def _is_run(plain: list[int], size: int) -> bool:
    if size > HIGH_ONE or len({colour_of(i) for i in plain}) > 1:
        return False
    numbers = [number_of(i) for i in plain]
    ones = numbers.count(1)
    rest = [n for n in numbers if n != 1]
    # Each 1 plays low (position 1) or high after 13 (position 14).
    for placed in product((1, HIGH_ONE), repeat=ones):
        positions = rest + list(placed)
        if len(set(positions)) != len(positions):
            continue
        if not positions or max(positions) - min(positions) + 1 <= size:
            return True
    return False


def _seven_pairs(rack: Rack) -> bool:
    singles = sum(c % 2 for c in rack.counts)
    return rack.size == HAND_SIZE and singles <= rack.wilds


def is_seven_pairs(tiles: Sequence[object], indicator: object) -> bool:
    """True when the 14 tiles form seven pairs (identical tiles, a wild pairs with any tile)."""
    return _seven_pairs(_hand(tiles, indicator))


def is_melds(tiles: Sequence[object], indicator: object) -> bool:
    """True when the 14 tiles can all be laid down as sets and runs."""
    rack = _hand(tiles, indicator)
    return all_melds(rack.counts, rack.wilds)


def is_complete(tiles: Sequence[object], indicator: object) -> bool:
    """True when the 14 tiles can be laid down entirely as sets and runs, or as seven pairs.

    Raises ValueError naming the tile for an unknown tile or a third copy, and for a count other
    than 14.
    """
    rack = _hand(tiles, indicator)
    return _seven_pairs(rack) or all_melds(rack.counts, rack.wilds)


def _hand(tiles: Sequence[object], indicator: object) -> Rack:
    rack = read_rack(tiles, indicator)
    if rack.size != HAND_SIZE:
        raise ValueError(f"a finished hand has {HAND_SIZE} tiles, got {rack.size}")
    return rack


def winning_discards(tiles: Iterable[object], indicator: object) -> list[str]:
    """For a 15-tile rack, the tiles whose discard leaves a complete hand, each name once.

    Names come back in the order they first appear in the rack. Raises ValueError for bad tiles
    or a count other than 15.
    """
    if isinstance(tiles, str):
        raise ValueError(f"tiles must be a list of tile names, not the string {tiles!r}")
    names = [normalize(t) for t in tiles]
    read_rack(names, indicator)  # refuses a third copy or a bad indicator
    if len(names) != RACK_SIZE:
        raise ValueError(f"a rack before the final discard has {RACK_SIZE} tiles, got {len(names)}")
    out: list[str] = []
    for name in dict.fromkeys(names):
        rest = list(names)
        rest.remove(name)
        if is_complete(rest, indicator):
            out.append(name)
    return out
