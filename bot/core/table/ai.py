"""Computer players at three levels, and the cautious move for a player who timed out (check or
fold; stand pat at the draw).

`easy` is the first computer player: poker opens and bets with strong hands, calls with a pair or
better, folds weak hands facing a bet, and at the draw keeps its made cards; Okey draws from the
stock, then discards the tile `arrange` leaves loosest (`games.okey.auto`). `normal` and `hard`
come from the games' strategy modules (`games.okey.strategy`, `games.poker.strategy`). The core
calls `poker_move` or `okey_move` with the seat's level.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from typing import Any

from bot.core.commands import LEVELS as LEVEL_WORDS
from bot.core.commands import lookup
from games.base import Action, ActionSpec
from games.okey import strategy as okey_strategy
from games.okey.auto import auto_action
from games.okey.round import OkeyRound
from games.poker import evaluate
from games.poker import strategy as poker_strategy
from games.poker.cards import Card

LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"


def split_level(args: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The level named among `addbot`'s words (English or Turkish; default `normal`) and the
    other words, in order."""
    level = DEFAULT_LEVEL
    rest = []
    found = False
    for word in args:
        canonical = lookup(LEVEL_WORDS, word)
        if canonical is not None and not found:
            level, found = canonical, True
        else:
            rest.append(word)
    return level, tuple(rest)


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


def poker_move(engine: Any, seat: int, cautious: bool, level: str = "easy") -> Action:
    """A legal move for `seat` of a poker hand engine at `level`; `cautious` wins over it."""
    specs = engine.legal_actions(seat)
    if cautious:
        return cautious_move(specs)
    if level != "easy":
        view = engine.view(seat)
        # seeded from the hand's secret seed (hashed with a tag, so it reveals no card and
        # opponents cannot predict it), the seat and the public betting state: reproducible
        secret = bytes(getattr(engine, "seed", b""))
        key = f"ai:{seat}:{view.get('pot')}:{view.get('phase')}".encode()
        rng = random.Random(hashlib.sha256(secret + key).digest())
        return poker_strategy.choose(view, specs, rng, level, getattr(engine, "rules", None))
    return _easy_poker(engine, seat, specs)


def _easy_poker(engine: Any, seat: int, specs: list[ActionSpec]) -> Action:
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


def okey_move(game: OkeyRound, seat: int, level: str = "easy") -> Action:
    """The move a computer player at `level` makes for `seat` of an Okey round now; `easy` is
    the engine's own auto player, `normal` and `hard` see only `game.view(seat)`."""
    if level == "easy":
        return auto_action(game, seat)
    return okey_strategy.choose(game.view(seat), level)
