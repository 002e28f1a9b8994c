"""Computer players for 101 Okey at three levels: `easy`, `normal` and `hard`.

`choose_action(round, seat, level, rng)` returns the next move of `seat` (it must be that seat's
turn); a turn is several moves (open, lay, add, swap, then the discard), so the table calls it
until the turn passes. Each level reads only `round.view(seat)`: its own rack, the discard piles,
the melds on the table, who opened how. Pure: no I/O, no clock; ties are broken by `rng`.

- `easy` lays what it can: draws from the stock, opens as soon as the rack allows it (by series,
  else by pairs), lays every meld (pairs for a pairs opener), adds every tile that fits the table
  (wilds too), keeping one tile to discard; it discards its highest loose tile, penalty or not.
- `normal` also takes the previous discard when it can use it (take-and-open, or laying, adding
  or swapping it), keeps its wilds for melds (a wild last tile finishes with the doubling), swaps
  okeys off the table, and never makes a +101 discard when a safe one exists.
- `hard` plays like `normal` and plans: before opening it follows a plan, series towards the
  threshold or pairs (four pairs or more), and keeps the loose tiles one live tile away from a meld
  (live: not in its rack, any discard pile, the table or the indicator) and, for pairs, the singles
  whose twin is still live. Of the loose tiles it then looks ahead (`games.okey101.lookahead`):
  it samples futures, the tiles it still draws taken at random from those it cannot see, and
  discards the first tile in its order whose loss leaves the most futures that open.
  Once opened it sheds its highest loose tiles first, less a near
  meld's worth, which counts for nothing when the round is about to end (the stock runs out before
  its next draw, or another opened player, partner or opponent, holds two tiles or fewer). It
  keeps back the tiles the next player may be collecting (the classic player's rule: a tile close
  to what that player threw away is safer) and, from what is public, the tiles that player can
  surely use: once they have opened, a tile that takes a wild
  off the table (a swap) goes only when every other tile would too or costs +101, and for a pairs
  opener a tile whose twin may be in their rack weighs against the discard. It never makes a +101
  discard when a safe one exists.
- With partners (seats 0+2 and 1+3) the next player is always an opponent: the partner sits
  opposite and takes the other opponent's discards, so no discard can feed the partner and the
  rules above keep the opponents from being fed. `hard` plays for the side's score: a wild last
  tile doubles every other score, the partner's too, so when the partner is guessed to score more
  than the opponents and the finish together (202 for a player who never opened, else seven
  points a tile, twice for a pairs opener) it puts the wild on the table and finishes with the
  plain tile instead; and a partner close to finishing ends the round soon, so it sheds its
  highest tiles. It reads only its own view: the partner's rack stays hidden from it.

`medium` is accepted as another name for `normal`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games.base import Action
from games.okey101.lookahead import draws_left, open_chances, unseen
from games.okey101.melds import effective, meld_value, read_meld, swap_wild
from games.okey101.round import MIN_PAIRS, PAIRS, SEPARATOR, TAKE, Round101
from games.okey101.solver import Opening, best_opening, discard_penalty, fits_table, pairs_of

LEVELS = ("easy", "normal", "hard")
ALIASES = {"medium": "normal"}
COLOURS = "RYBK"
TOP = 13
NEAR = 10.0  # what a loose tile one live tile away from a meld is worth keeping, in points
LIVE_TWIN = 10.0  # the same for a single whose twin is still live (pairs plan)
OPENED_NEAR = 8.0  # after opening: a near meld weighed against the points a tile costs on the rack
DANGER = 6.0  # what handing the next player a tile they may want costs, in points
PAIRS_PLAN = 4  # pairs in the rack from which `hard` plans to open by pairs
PAIRS_SHORT = 20  # ... when its series are this far short of the threshold
FEEDS = 40.0  # a discard the next player can surely use: it takes a wild off the table with it
TWIN_FEED = 12.0  # a discard whose twin a pairs-opened next player may hold
RACK_GUESS = 7  # what a tile on another player's rack is guessed to count at the end
UNOPENED = 202  # what a player who never opened scores
FINISH = 101  # what finishing is worth (the finisher scores -101)
CLOSE = 2  # an opened player with this many tiles or fewer may finish on their next turn


@dataclass(frozen=True)
class Lookahead:
    """How far `hard` looks ahead before it opens: the futures it samples for a discard and the
    search positions they may use in all (a bound on a decision's work, see
    `games.okey101.solver.Budget`; 0 samples: no look-ahead)."""

    samples: int = 24
    positions: int = 12_000


LOOKAHEAD = Lookahead()
NO_LOOKAHEAD = Lookahead(samples=0, positions=0)


def choose_action(
    round: Round101,
    seat: int,
    level: str,
    rng: random.Random,
    lookahead: Lookahead = LOOKAHEAD,
) -> Action:
    """The move a computer player at `level` makes for `seat` now (always a legal one);
    `lookahead` is `hard`'s (the benchmark compares it with `NO_LOOKAHEAD`)."""
    level = ALIASES.get(level, level)
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
    if round.to_act() != seat:
        raise ValueError(f"seat {seat} is not to act")
    view = round.view(seat)
    me = _Seat(view, seat, level, rng, lookahead)
    if view["phase"] == TAKE:
        if level != "easy" and view["can_take_discard"]:
            move = me.take_and_use()
            if move is not None:
                return move
        return Action("take", source="stock")
    if len(me.hand) == 1:
        return Action("finish", cards=(me.hand[0],))
    move = me.laying_move()
    if move is not None:
        return move
    return Action("discard", cards=(me.discard(),))


@lru_cache(maxsize=8192)
def _opening(tiles: tuple[str, ...], okey: str, forced: str | None = None) -> Opening:
    return best_opening(tiles, okey, forced)


def opening_of(tiles: Iterable[str], okey: str, forced: str | None = None) -> Opening:
    """`best_opening`, remembered per rack (the same rack is solved several times a turn)."""
    return _opening(tuple(sorted(tiles)), okey, forced)


def _cards(melds: Sequence[Sequence[str]]) -> tuple[str, ...]:
    out: list[str] = []
    for meld in melds:
        if out:
            out.append(SEPARATOR)
        out += meld
    return tuple(out)


def _minus(tiles: Iterable[str], used: Iterable[str]) -> list[str]:
    left = list(tiles)
    for t in used:
        left.remove(t)
    return left


class _Seat:
    """One decision: the seat's view and the helpers that read it."""

    def __init__(
        self,
        view: Mapping[str, Any],
        seat: int,
        level: str,
        rng: random.Random,
        lookahead: Lookahead = LOOKAHEAD,
    ) -> None:
        self.view = view
        self.lookahead = lookahead
        self.seat = seat
        self.level = level
        self.rng = rng
        self.hand: list[str] = list(view["hand"])
        self.okey: str = view["okey"]
        self.table: list[dict[str, Any]] = view["table"]
        self.opened: str | None = view["opened"][seat]
        self.threshold: int = view["threshold"]
        self.options: Mapping[str, Any] = view["options"]

    # --- opening and laying ----------------------------------------------------------------

    def pairs_allowed(self) -> bool:
        """Whether one more player may open by pairs at this table."""
        openers: int = sum(o == PAIRS for o in self.view["opened"])
        return openers < int(self.options["pairs_max"])

    def _wild(self, tile: str) -> bool:
        return effective(tile, self.okey) is None

    def _keep_one(
        self, melds: list[list[str]], rack: Sequence[str], need: int, must: str | None = None
    ) -> list[list[str]] | None:
        """`melds` trimmed so at least one rack tile stays to discard, still worth `need` and
        still laying `must` (the taken discard); None when no trimming keeps both."""
        if sum(len(m) for m in melds) < len(rack):
            return melds
        pairs = all(len(m) == 2 for m in melds)
        options: list[list[list[str]]] = []
        for k, meld in enumerate(melds):
            rest = melds[:k] + melds[k + 1 :]
            if len(meld) > 3 and not pairs:
                for cut in (meld[1:], meld[:-1]):
                    options.append([*rest, cut])
            options.append(rest)
        for option in options:
            laid = [t for m in option for t in m]
            if not option or (must is not None and must not in laid):
                continue
            read = [read_meld(m, self.okey, allow_pair=pairs) for m in option]
            if any(r is None for r in read):
                continue
            value = sum(meld_value(r, self.okey) for r in read if r is not None)
            if pairs or value >= need:
                return option
        return None

    def open_move(self, source: str | None = None, taken: str | None = None) -> Action | None:
        """The opening of the rack (with the taken discard), by series first, else by pairs."""
        rack = [*self.hand, *([taken] if taken else [])]
        best = opening_of(rack, self.okey, taken)
        if best.value >= self.threshold:
            melds = self._keep_one([list(m) for m in best.melds], rack, self.threshold, taken)
            if melds is not None:
                return Action("open", cards=_cards(melds), source=source)
        if not self.pairs_allowed():
            return None
        pairs = pairs_of(rack, self.okey)
        if taken is not None and not any(taken in p for p in pairs):
            return None
        if len(pairs) < MIN_PAIRS:
            return None
        trimmed = self._keep_one(pairs, rack, 0, taken)
        if trimmed is None or len(trimmed) < MIN_PAIRS:
            return None
        return Action("open", cards=_cards(trimmed), source=source)

    def lay_move(self, source: str | None = None, taken: str | None = None) -> Action | None:
        """Further melds (pairs for a pairs opener) of an opened rack, keeping a tile."""
        rack = [*self.hand, *([taken] if taken else [])]
        if self.opened == PAIRS:
            melds = pairs_of(rack, self.okey)
            if self.level != "easy":  # a wild is worth more kept than paired with a single
                melds = [p for p in melds if not any(self._wild(t) for t in p)]
            if taken is not None and not any(taken in p for p in melds):
                return None
        else:
            best = opening_of(rack, self.okey, taken)
            if best.value <= 0:
                return None
            melds = [list(m) for m in best.melds]
        if not melds:
            return None
        trimmed = self._keep_one(melds, rack, 0, taken)
        if not trimmed:
            return None
        return Action("lay", cards=_cards(trimmed), source=source)

    def add_move(self, wilds: bool, wild_first: bool = False) -> Action | None:
        """A rack tile added to a meld on the table (plain tiles first, wilds when `wilds`;
        wilds first when `wild_first`)."""
        if len(self.hand) < 2:
            return None
        tiles = sorted(
            dict.fromkeys(self.hand),
            key=lambda t: (self._wild(t) != wild_first, -_number(t, self.okey)),
        )
        for tile in tiles:
            if self._wild(tile) and not wilds:
                continue
            spots = fits_table(tile, self.table, self.okey)
            if spots:
                return Action("add", cards=(tile,), amount=spots[0])
        return None

    def swap_move(self, tile_pool: Iterable[str], source: str | None = None) -> Action | None:
        """A plain tile put in the place of a wild on the table (option `swap_okey`)."""
        if not self.options.get("swap_okey"):
            return None
        for tile in dict.fromkeys(tile_pool):
            spot = None if self._wild(tile) else self._swap_spot(tile)
            if spot is not None:
                return Action("swap", cards=(tile,), amount=spot, source=source)
        return None

    def _swap_spot(self, tile: str) -> int | None:
        """The first meld on the table where plain `tile` takes the place of a wild, or None."""
        return next(
            (k for k, m in enumerate(self.table) if swap_wild(m, tile, self.okey) is not None),
            None,
        )

    def laying_move(self) -> Action | None:
        """In the play phase: open, lay, swap or add when the level does; None to discard."""
        if self.opened is None:
            return self.open_move()
        if self.level != "easy":
            move = self.swap_move(self.hand)
            if move is not None:
                return move
        move = self.lay_move()
        if move is None and self.level == "hard" and self._shed_wild():
            move = self.add_move(wilds=True, wild_first=True)
        if move is None:
            move = self.add_move(wilds=self.level == "easy" or self._only_wilds())
        return move

    def _shed_wild(self) -> bool:
        """Whether to put the wild of a two-tile rack on the table and finish with the plain tile:
        a wild last tile doubles every other score, the partner's too, which loses the side
        points when the partner is guessed to score more than the opponents and the finish."""
        if len(self.hand) != 2 or sum(self._wild(t) for t in self.hand) != 1:
            return False
        return self._doubling_hurts()

    def _doubling_hurts(self) -> bool:
        """With partners: whether a doubled finish by this seat widens the gap the wrong way.
        The side's lead over the other side after a finish is (their scores) + 101 − (the
        partner's score), and a doubling doubles it: bad when it is below zero. Scores are
        guessed from what is public: 202 for a player who never opened, else the tiles on the
        rack at an average number (twice for a pairs opener)."""
        if not self.options.get("partners") or not self.options.get("doubling"):
            return False
        players = len(self.view["players"])
        partner = (self.seat + 2) % players
        theirs = sum(self._guess(s) for s in range(players) if s % 2 != self.seat % 2)
        return self._guess(partner) > theirs + FINISH

    def _guess(self, seat: int) -> int:
        """What `seat` is guessed to score at the end of the round, from what is public."""
        how = self.view["opened"][seat]
        if how is None:
            return UNOPENED
        return int(self.view["rack_sizes"][seat]) * RACK_GUESS * (2 if how == PAIRS else 1)

    def _only_wilds(self) -> bool:
        return all(self._wild(t) for t in self.hand)

    def take_and_use(self) -> Action | None:
        """The previous discard taken with the move that uses it, when the level finds one."""
        tile = self.view["last_discard"]
        if tile is None:
            return None
        if self.opened is None:
            return self.open_move("discard", tile)
        move = self.lay_move("discard", tile)
        if move is not None:
            return move
        spots = fits_table(tile, self.table, self.okey)
        if spots:
            return Action("add", cards=(tile,), amount=spots[0], source="discard")
        return self.swap_move([tile], "discard")

    # --- the discard -------------------------------------------------------------------------

    def discard(self) -> str:
        """The tile to discard now (the rack holds two tiles or more)."""
        plain = [t for t in self.hand if not self._wild(t)]
        if self.level == "easy":
            return self._easy_discard(plain)
        safe = [t for t in plain if discard_penalty(t, self.table, self.okey) is None]
        pool = safe or plain or self.hand
        if self.level == "hard":  # what the next player surely uses goes only when nothing else can
            pool = [t for t in pool if not self._sure_feed(t)] or pool
        if self.level == "normal":
            loose = self._loose(pool)
            return max(loose or pool, key=lambda t: (_number(t, self.okey), self.rng.random()))
        return self._hard_discard(pool)

    def _loose(self, pool: Sequence[str]) -> list[str]:
        """The tiles of `pool` outside the rack's best melds."""
        if self.opened == PAIRS:
            paired = Counter(t for p in pairs_of(self.hand, self.okey) for t in p)
        else:
            paired = Counter(t for m in opening_of(self.hand, self.okey).melds for t in m)
        left = Counter(self.hand) - paired
        return [t for t in dict.fromkeys(pool) if left[t] > 0]

    def _easy_discard(self, plain: list[str]) -> str:
        loose = self._loose(plain) or plain or self.hand
        return max(loose, key=lambda t: (_number(t, self.okey), self.rng.random()))

    def _hard_discard(self, pool: list[str]) -> str:
        seen = self._seen()
        plan_pairs = self.opened == PAIRS or (
            self.opened is None and self.pairs_allowed() and self._pairs_plan()
        )
        counts = Counter(_effective_plain(self.hand, self.okey))
        loose = pool if plan_pairs else self._loose(pool)
        if not loose:
            return self._break_meld(pool)
        nxt = self._next()
        near_weight = 0.0 if self._ending() else OPENED_NEAR
        thrown = _effective_plain(self.view["discard_piles"][nxt], self.okey)
        feed = self._feed(nxt, seen)
        loose_counts = Counter(_effective_plain(self._loose(self.hand), self.okey))

        def keep(tile: str) -> tuple[float, float]:
            e = effective(tile, self.okey)
            assert e is not None
            n = int(e[1:])
            if plan_pairs:
                if counts[e] >= 2:
                    value = 2 * LIVE_TWIN + n
                else:
                    value = LIVE_TWIN * (2 - seen[e] > 0) + (n if self.opened is None else -n)
            else:
                near = _near(e, loose_counts, seen)
                value = NEAR * near + n / 2 if self.opened is None else near_weight * near - n
            value += _danger(e, thrown) + feed(tile, e)
            return value, self.rng.random()

        ranked = sorted(dict.fromkeys(loose), key=keep)  # the first is the one to discard
        if self.opened is None:
            return self._look_ahead(ranked)
        return ranked[0]

    def _look_ahead(self, ranked: list[str]) -> str:
        """Before opening: of `ranked` (the loose tiles, the one to discard first), the first
        whose discard leaves the best chance to open in the futures sampled; the first itself
        when no future opens or there is nothing to choose from."""
        if len(ranked) < 2 or self.lookahead.samples <= 0:
            return ranked[0]
        chances = open_chances(
            self.hand,
            ranked,
            self.okey,
            (self.threshold, self.pairs_allowed()),
            (unseen(self.view), draws_left(self.view)),
            self.rng,
            self.lookahead.samples,
            self.lookahead.positions,
        )
        top = max(chances.values())
        return next(t for t in ranked if chances[t] >= top) if top > 0 else ranked[0]

    def _next(self) -> int:
        """The seat after this one: it may take this seat's discard (an opponent, with partners
        too: the partner sits opposite)."""
        return (self.seat + 1) % len(self.view["players"])

    def _sure_feed(self, tile: str) -> bool:
        """Whether the next player surely uses `tile` if it is discarded: they have opened and
        it takes a wild off the table (a swap; it costs no +101, so the penalty rule misses it)."""
        return (
            self.view["opened"][self._next()] is not None
            and bool(self.options.get("swap_okey"))
            and not self._wild(tile)
            and self._swap_spot(tile) is not None
        )

    def _ending(self) -> bool:
        """Whether the round is likely over before this seat draws again: the stock runs out
        first, or another opened player (the partner or an opponent) is close to finishing."""
        players = len(self.view["players"])
        if int(self.view["stock"]) < players:
            return True
        return any(
            s != self.seat and how is not None and int(self.view["rack_sizes"][s]) <= CLOSE
            for s, how in enumerate(self.view["opened"])
        )

    def _feed(self, nxt: int, seen: Counter[str]) -> Callable[[str, str], float]:
        """What handing seat `nxt` a tile costs, from what is public: an opened player takes a
        tile that puts a wild of the table back in their rack (swap), a pairs opener a tile
        whose twin they may hold (not both copies seen here)."""
        how = self.view["opened"][nxt]
        if how is None:
            return lambda tile, e: 0.0
        swap = bool(self.options.get("swap_okey"))

        def cost(tile: str, e: str) -> float:
            out = 0.0
            if swap and self._swap_spot(tile) is not None:
                out += FEEDS
            if how == PAIRS and seen[e] < 2:
                out += TWIN_FEED
            return out

        return cost

    def _pairs_plan(self) -> bool:
        best = opening_of(self.hand, self.okey)
        short = self.threshold - best.value
        return best.pairs >= PAIRS_PLAN and short > PAIRS_SHORT

    def _break_meld(self, pool: list[str]) -> str:
        """Every candidate lies in a best meld: the one whose loss costs the least value."""

        def after(tile: str) -> tuple[int, float]:
            rest = _minus(self.hand, [tile])
            return opening_of(rest, self.okey).value, self.rng.random()

        return max(dict.fromkeys(pool), key=after)

    def _seen(self) -> Counter[str]:
        """Copies of each plain tile this seat can see: its rack, the piles, the table, the
        indicator (wilds are not counted)."""
        seen: Counter[str] = Counter()
        tiles = [*self.hand, self.view["indicator"]]
        for pile in self.view["discard_piles"]:
            tiles += pile
        for meld in self.table:
            tiles += meld["tiles"]
        for t in tiles:
            e = effective(t, self.okey)
            if e is not None:
                seen[e] += 1
        return seen


def _effective_plain(tiles: Iterable[str], okey: str) -> list[str]:
    """What each plain tile plays as (wilds left out)."""
    return [e for e in (effective(t, okey) for t in tiles) if e is not None]


def _number(tile: str, okey: str) -> int:
    return int((effective(tile, okey) or okey)[1:])


def _partners(e: str) -> list[tuple[str, list[str]]]:
    """The tiles that make a meld-in-waiting with plain tile `e`, each with the tiles that would
    complete the three: the same number in another colour, or the same colour one or two away
    (1 plays low only in 101: nothing wraps)."""
    c, n = e[0], int(e[1:])
    out: list[tuple[str, list[str]]] = []
    for k in COLOURS:
        if k != c:
            others = [f"{x}{n}" for x in COLOURS if x not in (c, k)]
            out.append((f"{k}{n}", others))
    for m in (n - 2, n - 1, n + 1, n + 2):
        if not 1 <= m <= TOP:
            continue
        lo, hi = min(n, m), max(n, m)
        completers = [lo + 1] if hi - lo == 2 else [x for x in (lo - 1, hi + 1) if 1 <= x <= TOP]
        out.append((f"{c}{m}", [f"{c}{x}" for x in completers]))
    return out


def _near(e: str, loose: Counter[str], seen: Counter[str]) -> int:
    """How many loose partners of `e` are one live tile away from a meld with it."""
    return sum(
        1
        for partner, completers in _partners(e)
        if loose[partner] and any(seen[x] < 2 for x in completers)
    )


def _danger(e: str, thrown: Sequence[str]) -> float:
    """What keeping `e` back is worth: the next player may be collecting it, less so the closer
    it is to what they threw away (nothing when they threw that very tile)."""
    if e in thrown:
        return 0.0
    partners = {p for p, _ in _partners(e)}
    return DANGER / (1 + sum(1 for t in thrown if t in partners))
