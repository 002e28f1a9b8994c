"""The `normal` and `hard` Okey computer players; they see only `OkeyRound.view(seat)`.

A rack is judged by `rack_value`: the better of two plans, in "tiles placed" units.
- Runs: the exact solver's most tiles in sets and runs (search.py), plus half a tile for each loose
  tile that another loose tile could make a meld with given one more tile that is still live
  (not in the rack, not in any discard pile, not the indicator).
- Seven pairs: two tiles per pair (a wild pairs any single), less a tile per missing pair, since
  each single has at most one live twin and so is slower to complete than a run.

`normal` takes the top discard when it lays down more tiles than the rack does now, finishes when
it can (with an okey tile first: 60 points instead of 20 under the penalty preset) and otherwise
discards as the `easy` player does. `hard` weighs every take and discard with `rack_value`, shows
the indicator's twin when it may, and, among discards of nearly equal value, keeps back tiles the
next player may be collecting: tiles close to what that player has thrown away are safer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.base import Action
from games.okey.auto import suggest_discard
from games.okey.melds import winning_discards
from games.okey.search import best_layout, best_score
from games.okey.templates import SCALE
from games.okey.tiles import colour_of, number_of, read_rack

LEVELS = ("normal", "hard")
NEAR = 0.5  # a loose tile one live tile away from a meld, in tiles placed
TAKE_MARGIN = 0.75  # the discard must beat the rack by this much to be worth taking over the stock
DANGER = 0.4  # what handing the next player a tile they may want costs, in tiles placed


def _placed(counts: Sequence[int], wilds: int) -> int:
    return best_score(counts, wilds) // SCALE


def _meld_partners(i: int) -> list[int]:
    """Tiles that make a meld-in-waiting with tile `i`: the same number in another colour, or the
    same colour one or two numbers away (13 and 1 join: a run may end 12-13-1)."""
    c, n = colour_of(i), number_of(i)
    out = [k * 13 + n - 1 for k in range(4) if k != c]
    for m in (n - 2, n - 1, n + 1, n + 2):
        if 1 <= m <= 13:
            out.append(c * 13 + m - 1)
    if n in (12, 13):
        out.append(c * 13)
    if n == 1:
        out += [c * 13 + 12, c * 13 + 11]
    return out


def _completers(i: int, j: int) -> list[int]:
    """The tiles that turn the two tiles `i`, `j` into a three-tile meld."""
    ci, ni, cj, nj = colour_of(i), number_of(i), colour_of(j), number_of(j)
    if ni == nj and ci != cj:
        return [k * 13 + ni - 1 for k in range(4) if k not in (ci, cj)]
    if ci != cj:
        return []
    lo, hi = sorted((ni, nj))
    if (lo, hi) == (1, 13):
        return [ci * 13 + 11]  # 12-13-1
    if (lo, hi) == (1, 12):
        return [ci * 13 + 12]  # 12-13-1
    if hi - lo == 2:
        return [ci * 13 + lo]  # the middle number
    if hi - lo == 1:
        ends = [lo - 1, hi + 1]
        return [ci * 13 + m - 1 for m in ends if 1 <= m <= 13] + ([ci * 13] if hi == 13 else [])
    return []


def _runs_value(counts: list[int], wilds: int, live: Sequence[int]) -> float:
    chosen, loose, _ = best_layout(counts, wilds)
    placed = sum(len(t.slots) for t in chosen)
    near = 0
    for i in loose:
        if any(
            j != i and j in loose and any(live[k] for k in _completers(i, j))
            for j in _meld_partners(i)
        ):
            near += 1
    return placed + NEAR * near


def _pairs_value(counts: Sequence[int], wilds: int) -> float:
    pairs = sum(c // 2 for c in counts)
    singles = sum(c % 2 for c in counts)
    pairs += min(wilds, singles) + max(0, wilds - singles) // 2
    return 2 * pairs - (7 - min(pairs, 7))


def rack_value(counts: list[int], wilds: int, live: Sequence[int]) -> float:
    """How close a rack is to a finish, in tiles placed: the better of runs and seven pairs."""
    return max(_runs_value(counts, wilds, live), _pairs_value(counts, wilds))


def _live(view: Mapping[str, Any], counts: Sequence[int]) -> list[int]:
    """Copies of each tile this player cannot see: not in the rack, the piles or the indicator."""
    seen = list(counts)
    for pile in view["discard_piles"]:
        for tile in pile:
            _count(seen, tile, view["indicator"])
    _count(seen, view["indicator"], view["indicator"])
    return [max(0, 2 - s) for s in seen]


def _count(seen: list[int], tile: str, indicator: str) -> None:
    rack = read_rack([tile], indicator)
    for i, c in enumerate(rack.counts):
        seen[i] += c


def _danger(tile_index: int, next_pile: Sequence[int]) -> float:
    """How likely the next player wants this tile: less the closer it is to what they threw."""
    if tile_index in next_pile:
        return 0.0
    partners = set(_meld_partners(tile_index))
    return DANGER / (1 + sum(1 for j in next_pile if j in partners))


def choose(view: Mapping[str, Any], level: str) -> Action:
    """The move for the seat whose `view` this is (it must be that seat's turn)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    hand = list(view["hand"])
    if level == "hard" and view.get("can_show_indicator"):
        return Action("show_indicator")
    if view["phase"] == "take":
        return _take(view, hand, level)
    return _discard(view, hand, level)


def _take(view: Mapping[str, Any], hand: list[str], level: str) -> Action:
    stock = Action("take", source="stock")
    if "discard" not in view.get("sources", ()):
        return stock
    seat = view["to_act"]
    top = view["discard_piles"][(seat - 1) % len(view["players"])][-1]
    indicator = view["indicator"]
    # with `takeback` off, the taken tile may not go straight back unless the rack holds its twin
    takeback = view["options"].get("takeback", True)
    forbidden = None if takeback or top in hand else top
    if any(t != forbidden for t in winning_discards([*hand, top], indicator)):
        return Action("take", source="discard")
    now = read_rack(hand, indicator)
    after = read_rack([*hand, top], indicator)
    if level == "normal":
        better = _best_keep(after.counts, after.wilds, lambda c, w: _placed(c, w))
        return (
            Action("take", source="discard") if better > _placed(now.counts, now.wilds) else stock
        )
    live = _live(view, after.counts)
    value = rack_value(list(now.counts), now.wilds, live)
    better = _best_keep(after.counts, after.wilds, lambda c, w: rack_value(c, w, live))
    return Action("take", source="discard") if better >= value + TAKE_MARGIN else stock


def _best_keep(counts: Sequence[int], wilds: int, judge: Any) -> float:
    """The best value of the rack left after discarding one plain tile."""
    work = list(counts)
    best = float("-inf")
    for i, c in enumerate(counts):
        if c:
            work[i] -= 1
            best = max(best, judge(work, wilds))
            work[i] += 1
    return best


def _discard(view: Mapping[str, Any], hand: list[str], level: str) -> Action:
    indicator = view["indicator"]
    avoid = view.get("forbidden_discard")
    winners = [t for t in winning_discards(hand, indicator) if t != avoid]
    if winners:
        okey = view["okey"]
        return Action("finish", cards=(okey if okey in winners else winners[0],))
    if level == "normal":
        return Action("discard", cards=(suggest_discard(hand, indicator, avoid),))
    rack = read_rack(hand, indicator)
    live = _live(view, rack.counts)
    seat = view["to_act"]
    after = (seat + 1) % len(view["players"])
    next_pile = [_index(t, indicator) for t in view["discard_piles"][after]]
    counts = list(rack.counts)
    best: tuple[float, int, int] | None = None
    choice = None
    for i, c in enumerate(rack.counts):
        name = rack.name(i)
        if not c or name == avoid:
            continue
        counts[i] -= 1
        score = rack_value(counts, rack.wilds, live) - _danger(i, next_pile)
        counts[i] += 1
        key = (score, -live[i], -number_of(i))  # ties: throw a tile others can still use least
        if best is None or key > best:
            best, choice = key, name
    if choice is None:  # only wilds (and the forbidden tile) left: any legal tile
        choice = suggest_discard(hand, indicator, avoid)
    return Action("discard", cards=(choice,))


def _index(tile: str, indicator: str) -> int:
    """The plain tile index a tile plays as (a false joker: the okey's), or -1 for an okey."""
    rack = read_rack([tile], indicator)
    for i, c in enumerate(rack.counts):
        if c:
            return i
    return -1
