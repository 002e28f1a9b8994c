"""Açık live odds (games/poker/odds.py): public information only, exact values checked by a full
enumeration written independently here, the Monte Carlo within its stated error, dead hands 0%."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import Action
from games.poker import acik_rules, evaluate, parse_cards
from games.poker.acik import new, new_with_deck
from games.poker.odds import MAX_DEALS, TARGET_ERROR, Odds, estimate, own_odds, public_odds
from games.poker.ranking import PokerRules

SEED = bytes(range(32))


def position(ups: list[str], deck: int = 32, folded: tuple[int, ...] = ()) -> dict:
    """A hand-built public view: each seat's up cards, the folded seats, the table's rules."""
    return {
        "game": "acik",
        "players": [f"p{i}" for i in range(len(ups))],
        "street": len(ups[0].split()),
        "up": [u.split() for u in ups],
        "folded": [s in folded for s in range(len(ups))],
        "rules": acik_rules(deck).to_dict(),
        "seed_hash": "test",
        "finished": False,
    }


def brute_force(view: dict, mine: dict[int, str] | None = None) -> list[float | None]:
    """Every way of dealing the unknown cards, one by one (a down card and the cards to come per
    live seat; `mine` fixes known down cards), each hand ranked with `evaluate`."""
    rules = PokerRules.from_dict(view["rules"])
    ups = {s: parse_cards(view["up"][s]) for s in range(len(view["players"]))}
    known = {s: list(ups[s]) for s in ups if not view["folded"][s]}
    for s, card in (mine or {}).items():
        known[s] = parse_cards(card) + known[s]
    seen = {c for cards in ups.values() for c in cards} | {
        c for s in (mine or {}) for c in parse_cards(mine[s])
    }
    pool = [c for c in rules.deck if c not in seen]
    live = sorted(known)
    wins: Counter[int] = Counter()
    deals = 0

    def walk(i: int, left: list, hands: dict) -> None:
        nonlocal deals
        if i == len(live):
            deals += 1
            ranks = {s: evaluate(h, rules) for s, h in hands.items()}
            top = max(ranks.values())
            best = [s for s, r in ranks.items() if r == top]
            for s in best:
                wins[s] += 1 / len(best)
            return
        s = live[i]
        for extra in combinations(left, 5 - len(known[s])):
            rest = [c for c in left if c not in extra]
            walk(i + 1, rest, {**hands, s: known[s] + list(extra)})

    walk(0, pool, {})
    return [wins[s] / deals if s in known else None for s in range(len(view["players"]))]


def close(a: list[float | None], b: list[float | None], tol: float = 1e-9) -> bool:
    """Same seats live, chances within `tol`."""
    return all(
        (x is None and y is None) or (x is not None and y is not None and abs(x - y) <= tol)
        for x, y in zip(a, b, strict=True)
    )


# -- exact values ------------------------------------------------------------------------------


def test_heads_up_last_street_is_exact_and_matches_enumeration() -> None:
    view = position(["Ah Kd 9c 8s", "Qh Qd 7c Ts"])
    odds = estimate(view)
    assert odds.exact and odds.error == 0
    assert close(odds.chances, brute_force(view))
    assert abs(sum(odds.chances) - 1) < 1e-9


def test_three_players_last_street_exact_matches_enumeration() -> None:
    view = position(["Ah Kd 9c 8s", "Qh Qd 7c Ts", "Jh Jc 8d 7h"])
    odds = estimate(view, exact_limit=10**6)
    assert odds.exact
    assert close(odds.chances, brute_force(view))


def test_folded_seat_is_none_and_its_cards_count_as_seen() -> None:
    view = position(["Ah Kd 9c 8s", "Qh Qd 7c Ts", "Jh Jc 8d 7h"], folded=(2,))
    odds = estimate(view)
    assert odds.chances[2] is None
    assert close(odds.chances, brute_force(view))


def test_own_odds_counts_the_down_card_and_matches_enumeration() -> None:
    view = {**position(["Ah Kd 9c 8s", "Qh Qd 7c Ts"]), "seat": 0, "down": "As"}
    expected = brute_force(view, mine={0: "As"})
    assert abs(own_odds(view) - expected[0]) < 1e-9
    # A pair of aces beats a pair of queens unless the queens improve: well above the public odds.
    assert own_odds(view) > public_odds(position(["Ah Kd 9c 8s", "Qh Qd 7c Ts"]))[0]


def test_a_lone_live_player_has_everything_and_a_finished_hand_nothing() -> None:
    view = position(["Ah Kd", "Qh Qd", "Jh Jc"], folded=(0, 2))
    assert public_odds(view) == [None, 1.0, None]
    assert public_odds({**view, "finished": True}) == [None, None, None]


# -- dead hands ----------------------------------------------------------------------------------


def test_a_dead_hand_shows_zero() -> None:
    # Seat 0 can reach a pair at best; seat 1 already shows three aces.
    view = position(["7c 8d Th Qs", "Ah Ad As Kc", "9h 9d 8h 7h"])
    odds = estimate(view, exact_limit=10**6)
    assert odds.chances[0] == 0.0
    assert odds.percent(0) == 0
    assert close(odds.chances, brute_force(view))


def test_a_dead_hand_is_zero_in_the_enumeration_too() -> None:
    """The shortcut (a seat that cannot beat another's up cards leaves the deal) agrees with the
    plain enumeration on every seat."""
    view = position(["7c 8d Kh", "Ah Ad As"])
    reference = brute_force(view)
    assert reference[0] == 0.0
    assert close(estimate(view, exact_limit=10**6).chances, reference)


def test_a_live_long_shot_shows_at_least_one_percent() -> None:
    odds = Odds([0.004, 0.0, 0.996, None], exact=True, error=0.0, deals=1)
    assert [odds.percent(s) for s in range(4)] == [1, 0, 100, None]


# -- the Monte Carlo --------------------------------------------------------------------------------


def _coverage(view: dict, reference: list[float | None], seeds: int = 30) -> tuple[int, int]:
    """Over `seeds` Monte Carlo runs (another seed hash each), the share of seats whose estimate
    lies within the stated error of `reference`; every one lies within twice that error."""
    inside = total = 0
    for i in range(seeds):
        odds = estimate({**view, "seed_hash": f"run {i}"}, exact_limit=0)
        assert not odds.exact
        assert 0 < odds.error < TARGET_ERROR
        for got, want in zip(odds.chances, reference, strict=True):
            if want is None:
                assert got is None
                continue
            assert abs(got - want) <= 2 * odds.error, (got, want, odds.error)
            inside += abs(got - want) <= odds.error
            total += 1
    return inside, total


def test_monte_carlo_within_its_stated_error_of_the_enumeration() -> None:
    """The stated error is a 95% half-width: about 95% of the estimates fall inside it."""
    cases = [
        position(["Ah Kd 9c", "Qh Qd 7c"]),
        position(["Ah Kd 9c 8s", "Qh Qd 7c Ts", "Jh Jc 8d 7h"]),
        position(["Th 9h 8c 7s", "Ks Kd Qc Js", "Ac Qh 8d 7h"]),
    ]
    inside = total = 0
    for view in cases:
        got = _coverage(view, brute_force(view))
        inside, total = inside + got[0], total + got[1]
    assert inside / total >= 0.9


def test_monte_carlo_own_odds_within_error() -> None:
    view = {**position(["Ah Kd 9c 8s", "Qh Qd 7c Ts", "Th 8h 8c Jd"]), "seat": 2, "down": "8d"}
    inside, total = _coverage(view, brute_force(view, mine={2: "8d"}))
    assert inside / total >= 0.9


def test_monte_carlo_is_reproducible() -> None:
    view = position(["Ah", "Qh", "Jh", "Th", "9h", "8h"], deck=52)
    assert estimate(view) == estimate(view)


# -- public information only ------------------------------------------------------------------------


def _checked_to(street: int, deck: list, n: int) -> dict:
    """An Açık hand dealt from `deck`, everyone checking, up to `street`: its public view."""
    hand = new_with_deck([f"p{i}" for i in range(n)], [100] * n, acik_rules(52), deck, SEED)
    while hand.street < street and not hand.finished:
        hand.apply(hand.to_act(), Action("check"))
    return hand.view(None)


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(2, 6),
    street=st.integers(1, 4),
    shuffle=st.randoms(use_true_random=False),
    swaps=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 51)), max_size=4),
)
def test_public_odds_ignore_hidden_cards(n, street, shuffle, swaps) -> None:
    """Changing only down cards (among the seats, or with cards never dealt) changes nothing."""
    deck = list(acik_rules(52).deck)
    shuffle.shuffle(deck)
    dealt = n * (1 + street)
    other = list(deck)
    for seat, undealt in swaps:
        seat %= n
        undealt = dealt + undealt % (52 - dealt)
        other[seat], other[undealt] = other[undealt], other[seat]
    other[:n] = other[:n][::-1]
    first, second = _checked_to(street, deck, n), _checked_to(street, other, n)
    assert first["up"] == second["up"]
    assert public_odds(first) == public_odds(second)


# -- speed --------------------------------------------------------------------------------------


def test_ten_players_every_street_reaches_the_target_error() -> None:
    """Every street of a 10-player hand: exact, or a Monte Carlo under the target error (the time
    is measured for README's table, not asserted)."""
    for street in range(1, 5):
        rng = random.Random(street)
        hand = new([f"p{i}" for i in range(10)], [100] * 10, acik_rules(52), seed=rng.randbytes(32))
        while hand.street < street:
            hand.apply(hand.to_act(), Action("check"))
        odds = estimate(hand.view(None))
        assert odds.exact or odds.error < TARGET_ERROR or odds.deals >= MAX_DEALS


def test_heads_up_early_street_within_error() -> None:
    view = position(["Ah", "Kd"], deck=52)
    odds = estimate(view)
    assert not odds.exact and odds.error < TARGET_ERROR
    assert abs(sum(odds.chances) - 1) < 1e-9
    assert odds.chances[0] > odds.chances[1]


def test_every_seat_permutation_gives_the_same_odds_per_player() -> None:
    ups = ["Ah Kd 9c 8s", "Qh Qd 7c Ts", "Jh Jc 8d 7h"]
    base = estimate(position(ups), exact_limit=10**6).chances
    for order in permutations(range(3)):
        got = estimate(position([ups[i] for i in order]), exact_limit=10**6).chances
        assert close(got, [base[i] for i in order])
