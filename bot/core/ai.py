"""Computer players: legal, sensible moves without bluffing, and the cautious move for a player
who timed out (check or fold; stand pat at the draw).

Poker: opens and bets with strong hands, calls with a pair or better, folds weak hands facing a
bet, and at the draw keeps its made cards. Okey: the engine's own auto player (draws, then
discards the tile `arrange` leaves loosest).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.base import Action, ActionSpec
from games.poker import evaluate
from games.poker.cards import Card

STRONG = frozenset(
    {
        "royal_flush",
        "straight_flush",
        "minor_straight_flush",
        "four_of_a_kind",
        "flush",
        "full_house",
        "three_of_a_kind",
        "straight",
        "minor_straight",
    }
)
NO_DRAW = STRONG - {"three_of_a_kind", "four_of_a_kind"}  # every card of these hands plays


def _kinds(specs: list[ActionSpec]) -> dict[str, ActionSpec]:
    return {s.kind: s for s in specs}


def cautious_move(specs: list[ActionSpec]) -> Action:
    """What a player who is away does: check or pass when free, stand pat, else fold."""
    kinds = _kinds(specs)
    for kind in ("check", "pass"):
        if kind in kinds:
            return Action(kind)
    if "draw" in kinds:
        return Action("draw")
    if "fold" in kinds:
        return Action("fold")
    return Action(specs[0].kind)


def strength(cards: list[str], rules: Any) -> str:
    """The category of the best hand in `cards` ("high_card" with fewer than five)."""
    parsed = [Card.parse(c) for c in cards]
    if len(parsed) < 5:
        counts = Counter(c.rank for c in parsed)
        best = max(counts.values(), default=0)
        return {4: "four_of_a_kind", 3: "three_of_a_kind", 2: "pair"}.get(best, "high_card")
    return evaluate(parsed, rules).category


def discards(cards: list[str], category: str, max_cards: int) -> tuple[str, ...]:
    """Cards to exchange: none for a made five-card hand, else those outside pairs and sets
    (keeping the highest card when there is no pair)."""
    if category in NO_DRAW:
        return ()
    parsed = [Card.parse(c) for c in cards]
    counts = Counter(c.rank for c in parsed)
    loose = sorted((c for c in parsed if counts[c.rank] == 1), key=lambda c: c.rank)
    if category == "high_card":
        loose = loose[:-1]  # keep the best card
    return tuple(str(c) for c in loose[:max_cards])


def poker_move(engine: Any, seat: int, cautious: bool) -> Action:
    """A legal move for `seat` of a poker hand engine."""
    specs = engine.legal_actions(seat)
    if cautious:
        return cautious_move(specs)
    kinds = _kinds(specs)
    view = engine.view(seat)
    category = strength(view["hand"], engine.rules)
    strong = category in STRONG or category == "two_pair"
    made = strong or category == "pair"
    if "draw" in kinds:
        return Action("draw", cards=discards(view["hand"], category, kinds["draw"].max_cards or 0))
    if "open" in kinds:
        return Action("open", amount=kinds["open"].min_amount)
    if "pass" in kinds:
        return Action("pass")
    if strong and "raise" in kinds and category in STRONG:
        return Action("raise", amount=kinds["raise"].min_amount)
    if strong and "bet" in kinds:
        return Action("bet", amount=kinds["bet"].min_amount)
    if "check" in kinds:
        return Action("check")
    if made and "call" in kinds:
        return Action("call")
    if "fold" in kinds:
        return Action("fold")
    return cautious_move(specs)
