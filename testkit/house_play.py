"""Helpers of the house-rule tests: a seed source that deals chosen seeds first, the final hands
a seed deals when nobody folds or draws, and passive play of whole hands through the core."""

from __future__ import annotations

import hashlib

from bot.core.app import Core
from bot.core.config import CoreConfig
from bot.core.table.fairness import SeededSource
from games.base import shuffled
from games.poker import Card, acik, key
from games.poker.ranking import PokerRules, turkish_rules
from games.poker.turkish import qualifies_to_open
from games.poker.visible import deal_order
from testkit.drive import live_session
from testkit.helpers import Clock, cmd, errors

PASSIVE = ("open", "call", "check", "pass", "draw")  # nobody folds, bets or exchanges


class FixedSeeds:
    """A test's seed source: the given seeds for the first hands dealt, in order, then the
    repeatable `SeededSource`; the same hand id always gets the same seed."""

    def __init__(self, *seeds: bytes, master: str = "house") -> None:
        self.queue = list(seeds)
        self.given: dict[str, bytes] = {}
        self.rest = SeededSource(master)

    def __call__(self, hand_id: str) -> bytes:
        if hand_id not in self.given:
            self.given[hand_id] = self.queue.pop(0) if self.queue else self.rest(hand_id)
        return self.given[hand_id]


def core_on(store, seeds: FixedSeeds, clock: Clock | None = None) -> Core:
    """A core on `store` dealing `seeds`, English by default."""
    return Core(store, CoreConfig(default_locale="en"), clock=clock or Clock(), seeds=seeds)


def candidate(tag: str, k: int) -> bytes:
    """The `k`th candidate seed of a deterministic search."""
    return hashlib.sha256(f"{tag}-{k}".encode()).digest()


def first_dealer(seed: bytes, players: int) -> int:
    """The dealer of a table's first hand (the table draws it from the hand's seed)."""
    return seed[0] % players


def acik_hands(rules: PokerRules, seed: bytes, players: int) -> list[list[Card]]:
    """Each seat's five cards in the first hand when nobody folds (down card first)."""
    deck = acik.deck_order(rules, seed)
    order = deal_order(range(players), first_dealer(seed, players), players)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i in range(acik.HAND_SIZE * players):
        hands[order[i % players]].append(deck[i])
    return hands


def turkish_hands(seed: bytes, players: int) -> list[list[Card]]:
    """Each seat's five dealt cards in the first Türk pokeri hand."""
    order = shuffled(turkish_rules(players).deck, seed, "deal")
    first = (first_dealer(seed, players) + 1) % players
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i in range(5 * players):
        hands[(first + i) % players].append(order[i])
    return hands


def winner(hands: list[list[Card]], rules: PokerRules) -> int:
    """The seat whose five cards rank highest under `rules`."""
    return max(range(len(hands)), key=lambda seat: key(hands[seat], rules))


def someone_opens(hands: list[list[Card]]) -> bool:
    """True when a Türk pokeri hand of these cards gets opened (somebody holds openers)."""
    rules = turkish_rules(len(hands))
    return any(qualifies_to_open(h, rules) for h in hands)


async def open_table(core: Core, line: str, users: list[str], buy_in: int = 200) -> list:
    """The first user sends `line` (`/poker open ...`), then every user sits down."""
    out = await core.handle(cmd(users[0], line))
    for user in users:
        out += await core.handle(cmd(user, f"/poker join {buy_in}"))
    assert not errors(out), errors(out)
    return out


async def play_hand(core: Core, channel: str = "c1") -> list:
    """Play the running hand to its end passively (open or call when possible, else check,
    pass or stand pat): nobody folds, so the dealt cards meet at the showdown."""
    session = live_session(core, channel)
    hand = session.hand_no
    out: list = []
    for _ in range(400):
        session = live_session(core, channel)
        if session is None or session.hand_no != hand or not session.running():
            return out
        index = session.engine.to_act()
        specs = {s.kind: s for s in session.engine.legal_actions(index)}
        kind = next(k for k in PASSIVE if k in specs)
        line = {"open": f"open {specs[kind].min_amount}", "draw": "pat"}.get(kind, kind)
        step = await core.handle(cmd(session.seat_of_engine(index).user_id, f"/poker {line}"))
        assert not errors(step), errors(step)
        out += step
    raise AssertionError("the hand did not end")
