"""Açık poker live odds: each live player's chance of winning the pot, from what a viewer knows.

`public_odds(view(None))` uses public information only: every up card dealt so far (folded
players' too) is known; every down card and every card still to come is unknown, drawn uniformly
from the cards nobody has seen. `own_odds(view(seat))` is the same with the seat's own down card
known. Ties split the pot, although two different five-card hands never share a key in Açık
poker (`games.poker.ranking`), so they cannot occur.

The chance is exact (every deal of the unknown cards enumerated) when the deals number at most
`EXACT_LIMIT`; otherwise a seeded Monte Carlo estimates it and reports its error: the half-width
of a 95% confidence interval, kept under `TARGET_ERROR` (one percentage point) by sampling until
it is reached (or `MAX_DEALS`). The seed is a hash of what the viewer sees, so the same position
always shows the same figures. Where `ranking.key`'s fast path holds (the default suit order),
the Monte Carlo is `odds_vector`'s: independent uniform deals in numpy batches, each hand ranked
in numpy from its summed card fields. Otherwise it is the pure-Python one here: every live seat needs the same number of cards, so
one draw of the unknown cards is dealt out several ways (`_permutations`: 4 families of `k`
permutations of the chunks among the `k` seats that need equally many cards); the estimate
averages each draw's deals and its error comes from the spread between draws (each rotation is a
uniformly random deal, so the estimate stays unbiased).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb, gcd, sqrt
from typing import Any

from games.poker import odds_vector
from games.poker.cards import Card
from games.poker.ranking import _MULTISET_ID, PokerRules, key
from games.poker.void import best_completion

HAND_SIZE = 5
EXACT_LIMIT = 6_000  # deals of the unknown cards enumerated exactly (heads-up on street 4: 1,892)
TARGET_ERROR = 0.01  # the Monte Carlo's 95% half-width, as a fraction
MIN_DRAWS = 200  # draws before the error is first checked
BATCH = 100  # draws between checks
MAX_DEALS = 200_000  # a hard stop on the work (deals, counting every permutation of a draw)
FAMILIES = 4  # permutation families read from each draw's key tables (see `_permutations`)
CACHE_LIMIT = 1_000  # cache a seat's keys by chunk when at most this many chunks are possible
Z95 = 1.96


@dataclass(frozen=True)
class Odds:
    """Each seat's chance of winning (None for a seat not in the hand), how it was found and its
    error (0 when exact; otherwise the largest 95% half-width over the seats, as a fraction)."""

    chances: list[float | None]
    exact: bool
    error: float
    deals: int

    def percent(self, seat: int) -> int | None:
        """The seat's chance as a whole percentage (a live player who can still win shows at
        least 1%, a dead one exactly 0%)."""
        chance = self.chances[seat]
        if chance is None:
            return None
        shown = round(chance * 100)
        return 1 if shown == 0 and chance > 0 else shown


def public_odds(view: Mapping[str, Any]) -> list[float | None]:
    """Each live player's chance of winning from public information (`view(None)` of an Açık
    hand); None for folded seats, and for every seat once the hand is over."""
    return estimate(view).chances


def own_odds(view: Mapping[str, Any]) -> float | None:
    """The viewing seat's own chance (`view(seat)`, its down card known); None when folded."""
    seat: int = view["seat"]
    return estimate(view).chances[seat]


def estimate(view: Mapping[str, Any], exact_limit: int = EXACT_LIMIT, vector: bool = True) -> Odds:
    """The odds of an Açık hand for whoever `view` belongs to (see the module docstring).

    With a seat's view (`view["seat"]`) its down card counts as known, unless `peek_once` hid it.
    `exact_limit` caps the deals enumerated exactly (0 forces the Monte Carlo). `vector` lets
    the numpy Monte Carlo (`odds_vector`) serve where it applies (False: always the pure-Python
    one, which benchmarks compare against).
    """
    seats = len(view["players"])
    if view.get("finished"):
        return Odds([None] * seats, True, 0.0, 0)
    folded = {s for s, out in enumerate(view["folded"]) if out}
    live = [s for s in range(seats) if s not in folded]
    rules = PokerRules.from_dict(view["rules"])
    known: dict[int, list[Card]] = {s: [Card.parse(c) for c in view["up"][s]] for s in live}
    seen = {Card.parse(c) for cards in view["up"] for c in cards}
    me = view.get("seat")
    if me in known and view.get("down"):
        down = Card.parse(view["down"])
        known[me].insert(0, down)
        seen.add(down)
    chances: list[float | None] = [None] * seats
    if len(live) == 1:
        chances[live[0]] = 1.0
        return Odds(chances, True, 0.0, 1)
    pool = [c for c in rules.deck if c not in seen]
    need = {s: HAND_SIZE - len(known[s]) for s in live}
    # A seat that cannot beat another's known cards can never win (chance exactly 0). Its
    # unknown cards are then a random part of the unseen ones like any undealt card, so the
    # others' chances are the same without it in the deal.
    dead = _beaten(live, known, need, pool, rules)
    for s in dead:
        chances[s] = 0.0
    live = [s for s in live if s not in dead]
    if len(live) == 1:
        chances[live[0]] = 1.0
        return Odds(chances, True, 0.0, 1)
    deals = _deal_count(len(pool), [need[s] for s in live])
    if deals <= exact_limit:
        wins = _enumerate(live, known, need, pool, rules)
        for s in live:
            chances[s] = wins[s] / deals
        return Odds(chances, True, 0.0, deals)
    seed = _seed(view, known)
    if vector and _fast_ok(rules, known, pool):
        found, error, done = odds_vector.monte_carlo(
            live, known, need, pool, rules, seed, TARGET_ERROR, MAX_DEALS, Z95
        )
    else:
        found, error, done = _monte_carlo(live, known, need, pool, rules, random.Random(seed))
    for s in live:
        chances[s] = found[s]
    return Odds(chances, False, error, done)


def _beaten(
    live: list[int],
    known: Mapping[int, list[Card]],
    need: Mapping[int, int],
    pool: list[Card],
    rules: PokerRules,
) -> set[int]:
    """The seats whose best completion cannot beat some other live seat's known cards (a full
    hand never ranks below the cards it grows from, so such a seat can never win)."""

    def strength(cards: Sequence[Card]) -> int:
        return key(list(cards), rules)

    shown = {s: strength(known[s]) for s in live}
    out = set()
    for s in live:
        ceiling = max(v for o, v in shown.items() if o != s)
        _, exceeded = best_completion(known[s], pool, need[s], strength, ceiling)
        if not exceeded:
            out.add(s)
    return out


def _deal_count(pool: int, needs: Sequence[int]) -> int:
    """How many ways the unknown cards can be dealt out."""
    total = 1
    for n in needs:
        total *= comb(pool, n)
        pool -= n
    return total


def _seed(view: Mapping[str, Any], known: Mapping[int, Sequence[Card]]) -> bytes:
    """A seed from what the viewer knows (never from a card they cannot see)."""
    text = repr(
        (
            view.get("seed_hash"),
            view.get("street"),
            sorted((s, tuple(str(c) for c in cards)) for s, cards in known.items()),
            sorted(view["folded"]),
        )
    )
    return hashlib.sha256(text.encode()).digest()


def _credit(best: list[int], wins: dict[int, float], weight: float = 1.0) -> None:
    """Give `weight` to the seats holding the best key (split on a tie)."""
    share = weight / len(best)
    for s in best:
        wins[s] += share


def _enumerate(
    live: list[int],
    known: Mapping[int, list[Card]],
    need: Mapping[int, int],
    pool: list[Card],
    rules: PokerRules,
) -> dict[int, float]:
    """Wins per seat over every deal of the unknown cards (ties split)."""

    wins = {s: 0.0 for s in live}

    def walk(index: int, left: list[Card], top: int, leaders: list[int]) -> None:
        if index == len(live):
            _credit(leaders, wins)
            return
        seat = live[index]
        mine = known[seat]
        for extra in combinations(left, need[seat]):
            k = key([*mine, *extra], rules)
            rest = [c for c in left if c not in extra] if extra else left
            if k > top:
                walk(index + 1, rest, k, [seat])
            elif k == top:
                walk(index + 1, rest, top, [*leaders, seat])
            else:
                walk(index + 1, rest, top, leaders)

    walk(0, pool, -1, [])
    return wins


def _fast_ok(rules: PokerRules, known: Mapping[int, list[Card]], pool: list[Card]) -> bool:
    """True when `ranking.key`'s fast path (a key from the sum of the card values) serves every
    hand of this deal: it does under the default suit order; checked on a few hands."""
    rows = rules._fast_rows
    probe = pool[:5]
    try:
        total = sum(probe)
        entry = rows[total & 255][_MULTISET_ID[total >> 63]]
        x = total >> 8
        fast: bool = x.bit_count() == entry[17] and x + entry[x >> entry[16] & 15] == key(
            probe, rules
        )
        return fast
    except (TypeError, IndexError):
        return False


class _KeyCache(dict[int, int]):
    """One seat's keys by the value sum of the unknown cards it is dealt, each key shifted left
    by `shift` with the seat's place in the deal below it (so a `max` names the winner); filled
    on first use, because a key depends only on the sum of the hand's card values."""

    def __init__(
        self, seat_cards: list[Card], place: int, shift: int, rules: PokerRules, fast: bool
    ) -> None:
        super().__init__()
        self.base = sum(seat_cards) if fast else 0
        self.cards = seat_cards
        self.place = place
        self.shift = shift
        self.rules = rules
        self.fast = fast

    def __missing__(self, t: int) -> int:
        # Only used on the fast path (see `_encoder`).
        total = self.base + t
        x = total >> 8
        e = self.rules._fast_rows[total & 255][_MULTISET_ID[total >> 63]]
        value: int = (x + e[x >> e[16] & 15]) << self.shift | self.place
        self[t] = value
        return value


def _row(keys: _KeyCache, sums: Sequence[int], cache: bool) -> list[int]:
    """The seat's encoded keys for chunks with these value sums (the fast path inlined when
    the chunks are too many to cache)."""
    if cache:
        return list(map(keys.__getitem__, sums))
    rows = keys.rules._fast_rows
    ids = _MULTISET_ID
    base, shift, place = keys.base, keys.shift, keys.place
    return [
        (x + e[x >> e[16] & 15]) << shift | place
        for t in sums
        for total in (base + t,)
        for x in (total >> 8,)
        for e in (rows[total & 255][ids[total >> 63]],)
    ]


def _permutations(sizes: list[int], families: int) -> list[list[int]]:
    """Index lists into the flattened key tables, one per deal: within each class of `k` seats
    that need equally many cards, member j takes chunk (a * j + t) mod k for a multiplier `a`
    coprime to k (one per family) and each turn t. Every one is a fixed bijection of an
    exchangeable draw, so every deal is uniformly random."""
    turns = max(sizes)
    multipliers = [[a for a in range(1, k + 1) if gcd(a, k) == 1] or [1] for k in sizes]
    out: set[tuple[int, ...]] = set()
    ordered = []
    for family in range(families):
        for t in range(turns):
            index: list[int] = []
            offset = 0
            for k, options in zip(sizes, multipliers, strict=True):
                a = options[family % len(options)]
                index.extend(offset + j * k + (a * j + t) % k for j in range(k))
                offset += k * k
            if tuple(index) not in out:
                out.add(tuple(index))
                ordered.append(index)
    return ordered


def _monte_carlo(
    live: list[int],
    known: Mapping[int, list[Card]],
    need: Mapping[int, int],
    pool: list[Card],
    rules: PokerRules,
    rng: random.Random,
) -> tuple[dict[int, float], float, int]:
    """Estimated chances per seat, the largest 95% half-width, and the deals evaluated.

    Each draw's key tables (every member of a class with every chunk of that class) are built
    once and read by several deals (`_permutations`), each a C-level `max` over encoded keys."""
    groups: dict[int, list[int]] = {}
    for s in live:
        groups.setdefault(need[s], []).append(s)
    classes = list(groups.values())
    order = [s for members in classes for s in members]
    shift = len(order).bit_length()
    mask = (1 << shift) - 1
    fast = _fast_ok(rules, known, pool)
    # Per class: (chunk size, the members' encoders).
    plan = []
    place = 0
    left = len(pool)
    for members in classes:
        size = need[members[0]]
        cache = comb(left, size) <= CACHE_LIMIT
        caches = []
        for s in members:
            caches.append(_KeyCache(known[s], place, shift, rules, fast))
            place += 1
        plan.append((size, len(members), caches, cache))
    indexes = _permutations([len(members) for members in classes], FAMILIES)
    deals_per_draw = len(indexes)
    total_need = sum(need.values())
    sums = [0.0] * len(order)
    squares = [0.0] * len(order)
    draws = 0
    error = 1.0
    sample = rng.sample
    while True:
        for _ in range(BATCH):
            drawn = sample(pool, total_need)
            flat: list[int] = []
            at = 0
            for size, k, caches, cache in plan:
                chunks = [drawn[at + i * size : at + (i + 1) * size] for i in range(k)]
                at += size * k
                if fast:
                    chunk_sums = list(map(sum, chunks))
                    for keys in caches:
                        flat.extend(_row(keys, chunk_sums, cache))
                else:
                    for keys in caches:
                        flat.extend(
                            key([*keys.cards, *c], rules) << shift | keys.place for c in chunks
                        )
            get = flat.__getitem__
            counts = [0] * len(order)
            for index in indexes:
                counts[max(map(get, index)) & mask] += 1
            for place, count in enumerate(counts):
                if count:
                    value = count / deals_per_draw
                    sums[place] += value
                    squares[place] += value * value
        draws += BATCH
        if draws >= MIN_DRAWS:
            error = max(_half_width(sums[p], squares[p], draws) for p in range(len(order)))
            if error < TARGET_ERROR or draws * deals_per_draw >= MAX_DEALS:
                break
    chances = {s: sums[p] / draws for p, s in enumerate(order)}
    return chances, error, draws * deals_per_draw


def _half_width(total: float, squares: float, n: int) -> float:
    """The 95% half-width of a mean from its sum and sum of squares over `n` draws."""
    mean = total / n
    variance = max(squares / n - mean * mean, 0.0) * n / (n - 1)
    return Z95 * sqrt(variance / n)
