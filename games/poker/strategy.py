"""Computer poker players above `easy`: decisions from hand equity, pot odds and position.

`choose(view, legal, rng, level)` picks a move for Türk pokeri or Açık poker from exactly what
the seat may see (`engine.view(seat)`) and its legal moves; it never reads another hand.

- Equity: the seat's chance of winning at the showdown against the opponents' plausible hands.
  Açık poker: every unseen down card and every card still to come is drawn from the cards nobody
  has seen (on the last street, exactly with the batch evaluator). Türk pokeri: opponents' hands
  are sampled to agree with what they did (the opener holds kings or better; a hand is redrawn
  until a sensible player would have exchanged as many cards as they did; at `hard`, a bet or
  raise this round makes weak hands less likely), then both sides' draws still to come are
  played out.
- Betting: call when the equity beats the pot odds; bet or raise for value above a threshold
  that rises with the number of opponents, sized as a share of the pot within the limit.
  `hard` also bluffs and slow-plays at a small rate drawn from `rng` (seed it with
  `decision_rng(view)`: the same public situation gives the same choice), and bluffs more in
  late position. `normal` bets the minimum and never bluffs.
- The draw (Türk pokeri): `hard` keeps the cards whose completions, enumerated with the batch
  evaluator, rank best on average against the whole deal; `normal` keeps pairs and sets.
"""

from __future__ import annotations

import hashlib
import random
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from games.base import Action, ActionSpec
from games.poker.batch import evaluate_all
from games.poker.cards import Card
from games.poker.ranking import PokerRules, acik_rules, category_of, key, turkish_rules
from games.poker.turkish import qualifies_to_open

LEVELS = ("normal", "hard")
ACIK_STREETS = 4
MAX_DRAW = 4
MADE = frozenset(
    {
        "royal_flush",
        "straight_flush",
        "minor_straight_flush",
        "flush",
        "full_house",
        "straight",
        "minor_straight",
    }
)  # every card of these hands plays: stand pat
WEAK = frozenset({"high_card", "pair"})


@dataclass(frozen=True)
class Profile:
    """How one level plays."""

    samples: int  # Monte Carlo deals per equity estimate
    margin: float  # extra equity wanted over the pot odds to call
    bluff: float  # chance to bet or raise with a weak hand (doubled in late position)
    slowplay: float  # chance to only check or call with a very strong hand
    sized: bool  # bets a share of the pot (else the minimum)
    reads: bool  # weighs opponents' bets and raises


PROFILES = {
    "normal": Profile(samples=150, margin=0.05, bluff=0.0, slowplay=0.0, sized=False, reads=False),
    "hard": Profile(samples=300, margin=0.0, bluff=0.08, slowplay=0.15, sized=True, reads=True),
}


def decision_rng(view: Mapping[str, Any]) -> random.Random:
    """A generator seeded from public facts only: the hand's seed hash, the seat and the state
    of the betting (so replaying the same hand reproduces every choice)."""
    facts = (
        view.get("seed_hash"),
        view.get("seat"),
        view.get("phase", view.get("street")),
        tuple(view.get("committed", ())),
        tuple(view.get("drew", ()) or ()),
    )
    digest = hashlib.sha256(repr(facts).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def rules_of(view: Mapping[str, Any]) -> PokerRules:
    """The ranking rules a view plays by (Türk pokeri's default options when not given)."""
    if view["game"] == "acik":
        return PokerRules.from_dict(view["rules"]) if "rules" in view else acik_rules()
    return turkish_rules(len(view["players"]))


def _specs(legal: Sequence[ActionSpec | Mapping[str, Any]]) -> dict[str, ActionSpec]:
    out: dict[str, ActionSpec] = {}
    for spec in legal:
        if isinstance(spec, Mapping):
            spec = ActionSpec(
                spec["kind"], spec.get("min_amount"), spec.get("max_amount"), spec.get("max_cards")
            )
        out[spec.kind] = spec
    return out


def choose(
    view: Mapping[str, Any],
    legal: Sequence[ActionSpec | Mapping[str, Any]],
    rng: random.Random,
    level: str = "hard",
    rules: PokerRules | None = None,
) -> Action:
    """A legal move for the seat whose `view` this is (`engine.view(seat)`), at `level`."""
    if level not in PROFILES:
        raise ValueError(f"unknown level {level!r}; strategy levels are {', '.join(LEVELS)}")
    profile = PROFILES[level]
    kinds = _specs(legal)
    if not kinds:
        raise ValueError("no legal move to choose from")
    rules = rules or rules_of(view)
    if "draw" in kinds:
        cards = draw_choice(view["hand"], rules, _opponents(view), level, rng)
        return Action("draw", cards=cards[: kinds["draw"].max_cards or MAX_DRAW])
    equity = estimate_equity(view, rules, profile, rng)
    return _bet(view, kinds, equity, profile, rng)


# --- betting --------------------------------------------------------------------------------


def _opponents(view: Mapping[str, Any]) -> list[int]:
    seat = view["seat"]
    return [s for s, out in enumerate(view["folded"]) if not out and s != seat]


def _late(view: Mapping[str, Any]) -> bool:
    """True when the seat speaks in the second half of the live players this round."""
    n = len(view["players"])
    if view["game"] == "acik":
        first = view.get("first")
    elif view.get("phase") == "bet2" and view.get("opener") is not None:
        first = view["opener"]
    else:
        first = (view["dealer"] + 1) % n
    first = view["seat"] if first is None else first
    order = [(first + k) % n for k in range(n)]
    live = [s for s in order if not view["folded"][s]]
    return live.index(view["seat"]) * 2 >= len(live)


def _sized(spec: ActionSpec, target: int, profile: Profile) -> int:
    low = spec.min_amount or 0
    high = spec.max_amount if spec.max_amount is not None else low
    if not profile.sized:
        return low
    return max(low, min(high, target))


def _bet(
    view: Mapping[str, Any],
    kinds: dict[str, ActionSpec],
    equity: float,
    profile: Profile,
    rng: random.Random,
) -> Action:
    seat = view["seat"]
    opponents = max(1, len(_opponents(view)))
    fair = 1.0 / (opponents + 1)
    value = fair + (1.0 - fair) * 0.35  # bet for value from here
    monster = fair + (1.0 - fair) * 0.7
    pot = view["pot"]
    stake = view["stakes"][seat]
    late = _late(view)
    bluff_rate = profile.bluff * (2 if late else 1) / opponents
    draws_left = view.get("phase") == "bet1" or (
        view["game"] == "acik" and view.get("street", ACIK_STREETS) < ACIK_STREETS
    )
    slow = draws_left and equity >= monster and rng.random() < profile.slowplay
    bluff = equity < fair and rng.random() < bluff_rate
    share = 1.0 if equity >= monster else 0.66
    if "open" in kinds:  # Türk pokeri's first bet: only with openers, which this seat holds
        if slow:
            return Action("pass") if "pass" in kinds else Action("open", kinds["open"].min_amount)
        return Action("open", amount=_sized(kinds["open"], int(pot * share), profile))
    for free in ("check", "pass"):
        if free in kinds:
            if "bet" in kinds and ((equity >= value and not slow) or bluff):
                return Action("bet", amount=_sized(kinds["bet"], int(pot * share), profile))
            return Action(free)
    call = kinds.get("call")
    if call is None:
        return Action("fold") if "fold" in kinds else Action(next(iter(kinds)))
    to_call = (call.min_amount or 0) - stake
    odds = to_call / (pot + to_call) if to_call > 0 else 0.0
    if "raise" in kinds and (
        equity >= max(value, monster if opponents > 1 else value) and not slow
    ):
        target = view["current_bet"] + int((pot + to_call) * share)
        return Action("raise", amount=_sized(kinds["raise"], target, profile))
    if "raise" in kinds and bluff and late and opponents == 1 and draws_left:  # semi-bluffs only
        target = view["current_bet"] + int((pot + to_call) * 0.66)
        return Action("raise", amount=_sized(kinds["raise"], target, profile))
    if equity >= odds + profile.margin:
        return Action("call")
    return Action("fold") if "fold" in kinds else Action("call")


# --- equity ---------------------------------------------------------------------------------


def estimate_equity(
    view: Mapping[str, Any], rules: PokerRules, profile: Profile, rng: random.Random
) -> float:
    """The seat's chance of winning the pot (ties split) from what it may see."""
    if not _opponents(view):
        return 1.0
    if view["game"] == "acik":
        return _acik_equity(view, rules, profile.samples, rng)
    return _turkish_equity(view, rules, profile, rng)


def _acik_equity(
    view: Mapping[str, Any], rules: PokerRules, samples: int, rng: random.Random
) -> float:
    seat = view["seat"]
    ups = [[Card.parse(c) for c in cards] for cards in view["up"]]
    down = Card.parse(view["down"]) if view.get("down") else None
    seen = {c for cards in ups for c in cards} | ({down} if down else set())
    pool = [c for c in rules.deck if c not in seen]
    opponents = _opponents(view)
    to_come = ACIK_STREETS - len(ups[seat])
    if to_come == 0 and down is not None:
        # The last street: each opponent lacks only the down card. Enumerate its completions
        # with the batch evaluator (the down cards are treated as independent).
        mine = key([down, *ups[seat]], rules)
        share = 1.0
        for o in opponents:
            keys = list(evaluate_all(pool, rules, ups[o]))
            share *= sum(1 for k in keys if k < mine) / len(keys)
        return share
    need = (down is None) + to_come + len(opponents) * (1 + to_come)
    total = 0.0
    for _ in range(samples):
        drawn = rng.sample(pool, need)
        at = 0
        if down is None:
            mine_cards = [drawn[0], *ups[seat]]
            at = 1
        else:
            mine_cards = [down, *ups[seat]]
        mine_cards += drawn[at : at + to_come]
        at += to_come
        size = 1 + to_come
        theirs = (
            key([*drawn[at + i * size : at + (i + 1) * size], *ups[o]], rules)
            for i, o in enumerate(opponents)
        )
        total += _share(key(mine_cards, rules), theirs)
    return total / samples


def simple_discards(cards: Sequence[Card], rules: PokerRules) -> list[Card]:
    """The cards a plain player exchanges: none for a made hand, else those outside pairs and
    sets (keeping the highest card of a hand with no pair)."""
    if category_of(key(cards, rules)) in MADE:
        return []
    counts = Counter(c.rank for c in cards)
    loose = sorted((c for c in cards if counts[c.rank] == 1), key=lambda c: c.rank)
    if len(loose) == len(cards):
        loose = loose[:-1]
    return loose[:MAX_DRAW]


def _turkish_equity(
    view: Mapping[str, Any], rules: PokerRules, profile: Profile, rng: random.Random
) -> float:
    seat = view["seat"]
    mine = [Card.parse(c) for c in view["hand"]]
    pool = [c for c in rules.deck if c not in set(mine)]
    opponents = _opponents(view)
    before_draw = view["phase"] == "bet1"
    my_discards = simple_discards(mine, rules) if before_draw else []
    aggressive = {
        o
        for o in opponents
        if profile.reads
        and view["stakes"][o] > 0
        and view["stakes"][o] >= view["current_bet"]
        and view["stakes"][o] > view["stakes"][seat]
    }
    total = 0.0
    kept = [c for c in mine if c not in my_discards]
    samples = max(60, profile.samples // (len(opponents) + 1))  # a deal costs more per opponent
    for _ in range(samples):
        deck = _Stock(pool, rng)
        hands = [
            _plausible(view, o, deck, rules, o in aggressive, before_draw, rng) for o in opponents
        ]
        best = key(kept + deck.take(len(my_discards)), rules)
        total += _share(best, (key(hand, rules) for hand in hands))
    return total / samples


def _share(best: int, theirs: Iterable[int]) -> float:
    """The part of the pot a hand of key `best` wins against the opponents' keys `theirs`
    (read lazily: none after a higher one): nothing when one is higher, else an equal share
    with those it ties."""
    ties = 1
    for k in theirs:
        if k > best:
            return 0.0
        ties += k == best
    return 1.0 / ties


class _Stock:
    """The unseen cards of one simulated deal: taken from a shuffle, discards reshuffled in
    when it runs out (as the engine does)."""

    def __init__(self, cards: list[Card], rng: random.Random) -> None:
        self.cards = cards[:]
        rng.shuffle(self.cards)
        self.rng = rng
        self.pile: list[Card] = []

    def take(self, count: int) -> list[Card]:
        """The next `count` cards."""
        if count > len(self.cards):
            self.rng.shuffle(self.pile)
            self.cards[:0] = self.pile
            self.pile = []
        out = self.cards[len(self.cards) - count :]
        del self.cards[len(self.cards) - count :]
        return out

    def put_back(self, cards: list[Card]) -> None:
        """Return rejected cards to the bottom of the stock."""
        self.cards[:0] = cards

    def discard(self, cards: list[Card]) -> None:
        """Cards out of play that a reshuffle may bring back."""
        self.pile.extend(cards)


def _plausible(
    view: Mapping[str, Any],
    seat: int,
    deck: _Stock,
    rules: PokerRules,
    aggressive: bool,
    before_draw: bool,
    rng: random.Random,
) -> list[Card]:
    """An opponent's final hand, drawn from `deck` (consumed) to agree with what they did."""
    opener = view.get("opener") == seat and not view.get("openers_split")
    drew = (view.get("drew") or [None] * len(view["players"]))[seat]
    hand: list[Card] = []
    for attempt in range(12):
        hand = deck.take(5)
        discards = simple_discards(hand, rules)
        fits = (not opener or qualifies_to_open(hand, rules)) and (
            drew is None or len(discards) == drew
        )
        if fits or attempt == 11:
            break
        deck.put_back(hand)
    if drew is not None:
        loosest = sorted((c for c in hand if c not in discards), key=lambda c: c.rank)
        discards = (discards + loosest)[:drew]
    if before_draw or drew:
        hand = [c for c in hand if c not in discards] + deck.take(len(discards))
        deck.discard(discards)
    if aggressive and category_of(key(hand, rules)) in WEAK and rng.random() < 0.6:
        # A bet or raise makes a weak hand less likely: draw once more and keep the better.
        other = deck.take(5)
        if key(other, rules) > key(hand, rules):
            hand, other = other, hand
        deck.discard(other)
    return hand


# --- the draw -------------------------------------------------------------------------------

RANK_SAMPLE = 2_048  # hands in the draw's rank table: each share within about a point


@lru_cache(maxsize=32)
def rank_table(rules: PokerRules) -> tuple[int, ...]:
    """The sorted keys of `RANK_SAMPLE` random 5-card hands of the deck (cached per ruleset).

    `bisect_left(table, k) / len(table)` estimates the share of all hands below `k` within about
    a point. The whole deck's table (42,504 to 376,992 hands) took 13-115 ms to build, paid by
    the first decision in a process; this sample takes a few. Its generator is seeded from the
    ruleset, so decisions stay reproducible.
    """
    rng = random.Random(f"rank table {rules!r}")
    deck = list(rules.deck)
    keys: list[int] = []
    while len(keys) < RANK_SAMPLE:
        rng.shuffle(deck)  # one shuffle deals several disjoint hands
        keys.extend(key(deck[at : at + 5], rules) for at in range(0, len(deck) - 4, 5))
    return tuple(sorted(keys[:RANK_SAMPLE]))


def _keeps(cards: list[Card]) -> list[tuple[Card, ...]]:
    """Sensible cards to keep: sets and pairs (with or without the best kicker), four to a
    flush or a straight, the best one or two cards, and all five."""
    counts = Counter(c.rank for c in cards)
    by_rank = sorted(cards, key=lambda c: (counts[c.rank], c.rank), reverse=True)
    grouped = tuple(c for c in cards if counts[c.rank] > 1)
    loose = [c for c in by_rank if counts[c.rank] == 1]
    keeps: set[tuple[Card, ...]] = {tuple(cards), tuple(by_rank[:1]), tuple(by_rank[:2])}
    if grouped:
        keeps.add(grouped)
        if loose:
            keeps.add((*grouped, loose[0]))
    for four in combinations(cards, 4):
        ranks = sorted({c.rank for c in four})
        if len({c.suit for c in four}) == 1 or (len(ranks) == 4 and ranks[-1] - ranks[0] <= 4):
            keeps.add(four)
    return [k for k in keeps if len(k) >= len(cards) - MAX_DRAW]


def draw_choice(
    hand: Sequence[str],
    rules: PokerRules,
    opponents: Sequence[int],
    level: str,
    rng: random.Random,
) -> tuple[str, ...]:
    """The cards to exchange at the Türk pokeri draw.

    `normal` plays like `simple_discards`. `hard` scores each sensible set of cards to keep by
    enumerating every completion with the batch evaluator: the mean of (share of all hands the
    result beats) to the power of the number of opponents, and keeps the best set.
    """
    cards = [Card.parse(c) for c in hand]
    if level != "hard":
        return tuple(str(c) for c in simple_discards(cards, rules))
    table = rank_table(rules)
    size = len(table)
    pool = [c for c in rules.deck if c not in set(cards)]
    power = max(1, len(opponents))
    best: tuple[float, int, tuple[Card, ...]] | None = None
    for kept in _keeps(cards):
        if len(kept) == 5:
            share = bisect_left(table, key(cards, rules)) / size
            score = share**power
        else:
            keys = list(evaluate_all(pool, rules, kept))
            if len(keys) > 3000:
                keys = rng.sample(keys, 3000)
            score = sum((bisect_left(table, k) / size) ** power for k in keys) / len(keys)
        candidate = (score, len(kept), kept)
        if best is None or candidate[:2] > best[:2]:
            best = candidate
    assert best is not None
    return tuple(str(c) for c in cards if c not in best[2])
