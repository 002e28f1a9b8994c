"""The Açık poker (open stud) hand engine: one down card and four up cards, void bets (rule 8).

Create a hand with `new(players, stacks, rules, seed, dealer=0, ...)`; `rules` is the result of
`games.poker.acik_rules(...)` (deck 52 or 32, `flush_beats_four`, suit order). The hand antes,
deals one card down and one up to every player from the dealer's left, and runs four streets. On
each street the live player with the best visible hand speaks first, then play goes clockwise:
check ("bop"/"duk") or bet ("vuruş"); nobody may fold while there is no bet; after a bet: call,
raise or fold. After the fourth up card and its betting, the best five-card hand by `evaluate`
with the table's rules wins; side pots and odd chips follow `games.poker.pots`. All chip movement
goes through the shared `games.poker.betting.Betting`.

The void-bet rule (`void_bets`, default on) is judged by `games.poker.void` on every street:

- a player dead against an opponent at stake (by the player's real cards) may not bet, raise or
  call; facing no bet such a player may check or fold. The refusal names the opponent and their
  up cards only; the core shows refusals to the sender alone.
- nobody may bet or raise into a player who is dead against them, judged from public information
  (up cards only), so the refusal never reveals anybody's down card.

Hole cards: `initial_events()` holds a private "hole" event for each seat; `view(seat)["hand"]`
is the down card followed by the up cards. With `peek_once`, that deal message is the one look:
afterwards `view(seat)` leaves the down card out (`down` None, `down_hidden` True) and `peek`
is refused; without it, `peek(seat)` re-sends the down card privately at any time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from games.base import (
    Action,
    ActionSpec,
    Event,
    IllegalAction,
    new_seed,
    seed_from_hex,
    seed_hash,
    shuffled,
)
from games.base import private as to_seat
from games.base import public as to_all
from games.poker import Card, HandRank, PokerRules, evaluate, key
from games.poker import acik_rules as acik_rules  # re-exported: games.poker.acik.acik_rules
from games.poker.betting import STRUCTURES, Betting
from games.poker.pots import award, is_returned
from games.poker.visible import deal_order, first_speaker
from games.poker.void import Deadness, analyse

GAME = "acik"
SNAPSHOT_VERSION = 1
#: The context label of the seeded shuffle: `shuffled(rules.deck, seed, DECK_CONTEXT)`.
DECK_CONTEXT = "deal"
HAND_SIZE = 5
STREETS = 4  # up cards per player at the end
MIN_PLAYERS = 2
MAX_PLAYERS = {52: 10, 32: 6}
OPTIONS = ("ante", "structure", "min_bet", "big_bet", "void_bets", "peek_once", "carried_pot")
BET_KINDS = ("check", "bet", "call", "raise", "fold")
CHIP_KINDS = ("bet", "raise", "call")
EVENT_OF = {
    "check": "checked",
    "bet": "bet",
    "call": "called",
    "raise": "raised",
    "fold": "folded",
}


class TableError(IllegalAction, ValueError):
    """A bad argument for a new hand: an IllegalAction (stable `code`) that is also a ValueError."""


def deck_order(rules: PokerRules, seed: bytes) -> list[Card]:
    """The order the cards of a hand come off the deck: a pure function of the seed (`/verify`)."""
    return shuffled(list(rules.deck), seed, DECK_CONTEXT)


def down_cards(rules: PokerRules, seed: bytes, players: int, dealer: int) -> list[str]:
    """Each seat's down card as dealt from the seed (for `/verify`; seat order).

    The down cards come off the deck first, one to each seat from the dealer's left; the up
    cards follow in the same order on every street, to the players still in.
    """
    deck = deck_order(rules, seed)
    order = deal_order(range(players), dealer, players)
    cards = [""] * players
    for position, seat in enumerate(order):
        cards[seat] = str(deck[position])
    return cards


def _names(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def _cards(names: Sequence[str]) -> list[Card]:
    return [Card.parse(n) for n in names]


class AcikHand:
    """One hand of Açık poker, following the `games.base.Game` protocol (see the module doc)."""

    def __init__(
        self,
        players: Sequence[str],
        rules: PokerRules,
        seed: bytes,
        dealer: int,
        options: dict[str, Any],
        betting: Betting,
        deck: Sequence[Card],
    ) -> None:
        """Hold a hand's state; use `new` to start a hand or `from_dict` to restore one."""
        self.players = list(players)
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        self.options = options
        self.betting = betting
        n = len(self.players)
        self.deck = list(deck)
        self.dealt = 0
        self.down: list[Card | None] = [None] * n
        self.up: list[list[Card]] = [[] for _ in range(n)]
        self.looked = [False] * n
        self.street = 0
        self.first: int | None = None
        self.result: dict[str, Any] | None = None
        self._deadness: Deadness | None = None
        self._deadness_street = -1
        self._initial: tuple[Event, ...] = ()  # not in snapshots: sent once, when the hand starts

    # --- the protocol ---------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """True once the hand is over and the pots are paid."""
        return self.result is not None

    def to_act(self) -> int | None:
        """The seat to act now; None when the hand is over."""
        return None if self.finished else self.betting.to_act

    def legal_actions(self, seat: int) -> list[ActionSpec]:
        """What `seat` may do now, the void-bet rule applied (empty when it is not its turn).

        This depends on the seat's down card when the seat is dead: show it to that player only.
        """
        if self.finished or seat != self.betting.to_act:
            return []
        return self._allowed(seat)

    def public_legal_actions(self, seat: int) -> list[ActionSpec]:
        """The moves to offer `seat` where everybody sees them (buttons on the table message).

        Unlike `legal_actions`, this depends on public information only, so it never tells the
        table that the seat is dead by its down card: it is `legal_actions` with the seat's own
        deadness judged from up cards alone, plus "fold" when void bets are on (a dead player
        may fold with no bet). A move offered here may still be refused, privately, by `apply`.
        """
        if self.finished or seat != self.betting.to_act:
            return []
        return self._allowed(seat, public=True)

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Make a betting move; raises IllegalAction and changes nothing when it is refused."""
        if self.finished:
            raise IllegalAction("hand_over", "The hand is over.")
        if not isinstance(seat, int) or not 0 <= seat < len(self.players):
            raise IllegalAction("bad_seat", f"There is no seat {seat!r} at this table.", seat=seat)
        if seat != self.betting.to_act:
            raise IllegalAction("not_your_turn", "It is not your turn.", seat=seat)
        if action.kind not in BET_KINDS:
            raise IllegalAction(
                "action_not_allowed",
                f"You cannot {action.kind} in Açık poker; allowed: {', '.join(BET_KINDS)}.",
                action=action.kind,
                allowed=list(BET_KINDS),
            )
        if action.cards:
            raise IllegalAction("unexpected_cards", "Betting moves take no cards.")
        self._check_public(seat, action)
        self._check_void(seat, action.kind)
        allowed = self._allowed(seat)
        outcome = self.betting.apply(seat, action.kind, action.amount, allowed=allowed)
        events = [
            to_all(
                EVENT_OF[action.kind],
                action=action.kind,
                street=self.street,
                seat=seat,
                stake=outcome["stake"],
                added=outcome["added"],
                all_in=outcome["all_in"],
                pot=self.betting.pot,
                stack=self.betting.stacks[seat],
            )
        ]
        if outcome["closed"]:
            events += self._advance()
        else:
            events.append(to_all("turn", seat=self.betting.to_act, street=self.street))
        return events

    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see; `view(None)` is the public view and never holds a down card."""
        b = self.betting
        data: dict[str, Any] = {
            "game": GAME,
            "players": list(self.players),
            "dealer": self.dealer,
            "street": self.street,
            "up": [_names(cards) for cards in self.up],
            "folded": list(b.folded),
            "stacks": list(b.stacks),
            "pot": b.pot,
            "pots": [p.to_dict() for p in b.pots()] if not self.finished else [],
            "stakes": list(b.stake),
            "current_bet": b.current_bet,
            "to_act": self.to_act(),
            "first": self.first,
            "seed_hash": seed_hash(self.seed),
            "rules": self.rules.to_dict(),
            "options": dict(self.options),
            "finished": self.finished,
            "carried": False,  # an Açık poker hand is always played out
            "result": self.result,
            "committed": list(b.committed),
            "all_in": [b.all_in(s) and not self.finished for s in range(len(self.players))],
            "structure": self.options["structure"],
            "ante": self.options["ante"],
            "payouts": list(self.result["payouts"]) if self.result else [],
            "shown": dict(self.result["hands"]) if self.result else {},
        }
        if self.finished:
            data["seed"] = self.seed.hex()
        if seat is None:
            return data
        if not isinstance(seat, int) or not 0 <= seat < len(self.players):
            raise IllegalAction("bad_seat", f"There is no seat {seat!r} at this table.", seat=seat)
        down = self.down[seat]
        hidden = self.options["peek_once"] and self.looked[seat] and not self.finished
        data["seat"] = seat
        data["down"] = None if hidden or down is None else str(down)
        data["down_hidden"] = bool(hidden)
        data["hand"] = ([] if data["down"] is None else [data["down"]]) + _names(self.up[seat])
        data["legal"] = [vars(s).copy() for s in self.legal_actions(seat)]
        return data

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot (holds the seed and the down cards: storage only, never shown)."""
        return {
            "game": GAME,
            "version": SNAPSHOT_VERSION,
            "players": list(self.players),
            "rules": self.rules.to_dict(),
            "seed": self.seed.hex(),
            "deck": _names(self.deck),
            "dealer": self.dealer,
            "options": dict(self.options),
            "betting": self.betting.to_dict(),
            "dealt": self.dealt,
            "down": [None if c is None else str(c) for c in self.down],
            "up": [_names(cards) for cards in self.up],
            "looked": list(self.looked),
            "street": self.street,
            "first": self.first,
            "result": self.result,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AcikHand:
        """Rebuild a hand from `to_dict` output; it plays on identically."""
        if data.get("game") != GAME or data.get("version") != SNAPSHOT_VERSION:
            raise ValueError(
                f"not an Açık poker snapshot of version {SNAPSHOT_VERSION}: "
                f"{data.get('game')!r} v{data.get('version')!r}"
            )
        rules = PokerRules.from_dict(data["rules"])
        hand = cls(
            data["players"],
            rules,
            seed_from_hex(data["seed"]),
            data["dealer"],
            dict(data["options"]),
            Betting.from_dict(data["betting"]),
            _cards(data["deck"]),
        )
        hand.dealt = data["dealt"]
        hand.down = [None if c is None else Card.parse(c) for c in data["down"]]
        hand.up = [_cards(cards) for cards in data["up"]]
        hand.looked = list(data["looked"])
        hand.street = data["street"]
        hand.first = data["first"]
        hand.result = data["result"]
        return hand

    # --- beyond the protocol --------------------------------------------------------------------

    def initial_events(self) -> list[Event]:
        """The events of the deal, for the core to send when the hand starts.

        Public "hand_started", "antes" and "dealt_up", a private "hole" per seat, then the first
        street's "speaks_first" (or, if nobody can bet, the rest of the hand's events). They are
        not kept in snapshots: a hand restored by `from_dict` returns [].
        """
        return list(self._initial)

    def peek(self, seat: int) -> list[Event]:
        """The player looks at their down card: a private "hole" event for `seat`.

        With `peek_once` the look at the deal is the only one and this is refused.
        """
        if not isinstance(seat, int) or not 0 <= seat < len(self.players):
            raise IllegalAction("bad_seat", f"There is no seat {seat!r} at this table.", seat=seat)
        down = self.down[seat]
        if down is None:
            raise IllegalAction("no_down_card", "You have no down card in this hand.")
        if self.options["peek_once"] and self.looked[seat] and not self.finished:
            raise IllegalAction(
                "peek_used",
                "At this table you may look at your down card only once per hand.",
            )
        self.looked[seat] = True
        return [to_seat(seat, "hole", card=str(down))]

    def is_dead(self, seat: int, against: int, public: bool = False) -> bool:
        """True when `seat`'s hand can no longer beat `against`'s up cards on this street.

        By default this is judged from `seat`'s real cards, down card included: tell it only to
        that player. With `public=True` it is judged from up cards alone and anyone may see it.
        False for a folded seat, a seat against itself, or before the deal.
        """
        for s in (seat, against):
            if not isinstance(s, int) or not 0 <= s < len(self.players):
                raise IllegalAction("bad_seat", f"There is no seat {s!r} at this table.", seat=s)
        b = self.betting
        if seat == against or b.folded[seat] or b.folded[against] or self.street == 0:
            return False
        return self.deadness().is_dead(seat, against, public)

    def deadness(self) -> Deadness:
        """Who is dead against whom on this street (computed once per street, then cached)."""
        if self._deadness is None or self._deadness_street != self.street:
            live = [s for s in range(len(self.players)) if not self.betting.folded[s]]
            downs = {s: down for s in live if (down := self.down[s]) is not None}
            self._deadness = analyse(
                self.rules.deck,
                downs,
                {s: self.up[s] for s in downs},
                [c for cards in self.up for c in cards],
                HAND_SIZE,
                self._key,
            )
            self._deadness_street = self.street
        return self._deadness

    # --- internals ------------------------------------------------------------------------------

    def _key(self, cards: Sequence[Card]) -> int:
        return key(cards, self.rules)

    def _at_stake(self, seat: int) -> list[int]:
        """Live opponents who could still match chips `seat` puts in now."""
        b = self.betting
        return [
            o
            for o in range(len(self.players))
            if o != seat
            and not b.folded[o]
            and (b.stacks[o] > 0 or b.committed[o] > b.committed[seat])
        ]

    def _dead_for(self, seat: int, public: bool = False) -> list[int]:
        """Opponents at stake that `seat` (by its real cards, or its up cards with `public`) is
        dead against; [] when void bets are off."""
        if not self.options["void_bets"]:
            return []
        dead = self.deadness()
        return [o for o in self._at_stake(seat) if dead.is_dead(seat, o, public)]

    def _dead_into(self, seat: int) -> list[int]:
        """Opponents at stake publicly dead against `seat`: `seat` may not bet into them."""
        if not self.options["void_bets"]:
            return []
        dead = self.deadness()
        return [o for o in self._at_stake(seat) if dead.is_dead(o, seat, public=True)]

    def _allowed(self, seat: int, public: bool = False) -> list[ActionSpec]:
        """The betting module's moves for `seat`, filtered by the void-bet rule."""
        specs = self.betting.legal(seat)
        if not self.options["void_bets"]:
            return specs
        if self._dead_for(seat, public):
            specs = [s for s in specs if s.kind not in CHIP_KINDS]
        elif self._dead_into(seat):
            specs = [s for s in specs if s.kind not in ("bet", "raise")]
        if (public or self._dead_for(seat)) and not any(s.kind == "fold" for s in specs):
            specs.insert(0, ActionSpec("fold"))
        return specs

    def _check_public(self, seat: int, action: Action) -> None:
        """Refuse what public information alone refuses, before anything that depends on the
        seat's down card: so the refusal a move gets never tells its own deadness apart (a move
        refused here would be refused whatever the down card)."""
        kind = action.kind
        if kind in CHIP_KINDS and self._dead_for(seat, public=True):
            self._check_void(seat, kind, public=True)
        if kind in ("bet", "raise") and self._dead_into(seat):
            self._check_void(seat, kind, public=True)
        self.betting.check(seat, kind, action.amount, allowed=self._allowed(seat, public=True))

    def _check_void(self, seat: int, kind: str, public: bool = False) -> None:
        """Refuse a bet, raise or call that rule 8 voids, with the reason."""
        if kind not in CHIP_KINDS:
            return
        dead = self._dead_for(seat, public)
        if dead:
            o = dead[0]
            shown = " ".join(_names(self.up[o]))
            raise IllegalAction(
                "void_bet_dead",
                f"Your {kind} would be void (rule 8): your hand can no longer beat the up cards "
                f"of {self.players[o]} ({shown}). You may check when there is no bet, or fold.",
                action=kind,
                against=o,
                cards=_names(self.up[o]),
            )
        if kind in ("bet", "raise"):
            into = self._dead_into(seat)
            if into:
                o = into[0]
                raise IllegalAction(
                    "void_bet_into_dead",
                    f"Your {kind} would be void (rule 8): the up cards of {self.players[o]} "
                    f"({' '.join(_names(self.up[o]))}) can no longer beat yours, so you may not "
                    "bet into them. Check or call instead.",
                    action=kind,
                    against=o,
                    cards=_names(self.up[o]),
                )

    def _live(self) -> list[int]:
        return self.betting.live()

    def _draw(self) -> Card:
        card = self.deck[self.dealt]
        self.dealt += 1
        return card

    def _deal(self, antes: list[int]) -> list[Event]:
        """Antes are posted; deal one down and one up card, then start the first street."""
        n = len(self.players)
        events = [
            to_all(
                "hand_started",
                game=GAME,
                players=list(self.players),
                dealer=self.dealer,
                seed_hash=seed_hash(self.seed),
                rules=self.rules.to_dict(),
                options=dict(self.options),
                pot=self.betting.pot,
                carried_pot=self.options["carried_pot"],
            ),
            to_all("antes", amounts=antes, pot=self.betting.pot),
        ]
        order = deal_order(range(n), self.dealer, n)
        for seat in order:
            self.down[seat] = self._draw()
        for seat in order:
            events.append(to_seat(seat, "hole", card=str(self.down[seat])))
            self.looked[seat] = True
        events += self._next_street()
        return events

    def _next_street(self) -> list[Event]:
        """Deal one up card to each live seat and open the street's betting (or go on)."""
        events: list[Event] = []
        n = len(self.players)
        while True:
            self.street += 1
            live = deal_order(self._live(), self.dealer, n)
            for seat in live:
                self.up[seat].append(self._draw())
            events.append(
                to_all(
                    "dealt_up",
                    street=self.street,
                    cards=[{"seat": s, "card": str(self.up[s][-1])} for s in live],
                )
            )
            self.first = first_speaker({s: self.up[s] for s in live}, self._key, self.dealer, n)
            min_bet = self.options["min_bet"]
            big = self.options["big_bet"] if self.street > 2 else min_bet
            to_act = self.betting.start_round(self.first, min_bet=min_bet, bet_size=big)
            events.append(
                to_all(
                    "speaks_first",
                    street=self.street,
                    seat=self.first,
                    cards=_names(self.up[self.first]),
                    to_act=to_act,
                )
            )
            if to_act is not None:
                return events
            if self.street == STREETS:
                return events + self._showdown()

    def _advance(self) -> list[Event]:
        """After a betting round closes: win uncontested, deal the next street, or show down."""
        live = self._live()
        if len(live) == 1:
            return self._pay({live[0]: HandRank(0)})
        if self.street == STREETS:
            return self._showdown()
        return self._next_street()

    def _showdown(self) -> list[Event]:
        live = deal_order(self._live(), self.dealer, len(self.players))
        strength: dict[int, HandRank] = {}
        hands = []
        for seat in live:
            cards = self._shown(seat)
            rank = strength[seat] = evaluate(cards, self.rules)
            hands.append(
                {
                    "seat": seat,
                    "cards": _names(cards),
                    "category": rank.category,
                }
            )
        return [to_all("showdown", hands=hands), *self._pay(strength)]

    def _shown(self, seat: int) -> list[Card]:
        """The seat's down card (dealt by the showdown) and its up cards."""
        return [cast(Card, self.down[seat]), *self.up[seat]]

    def _pay(self, strength: dict[int, HandRank]) -> list[Event]:
        """Award every pot (all of it to the last player left without a showdown), settle, end."""
        b = self.betting
        n = len(self.players)
        showdown = len(strength) > 1
        events: list[Event] = []
        if showdown:
            pots = b.pots()
            payouts = award(pots, strength, self.dealer, n)
            for index, seat, chips in payouts:
                kind = "returned" if is_returned(pots, index) else "won"
                events.append(to_all(kind, pot=index, seat=seat, amount=chips))
        else:
            (seat,) = strength
            payouts = [(0, seat, b.pot)]
            events.append(to_all("won", pot=0, seat=seat, amount=b.pot, uncontested=True))
        won = [0] * n
        for _, seat, chips in payouts:
            won[seat] += chips
        b.pay(payouts)
        self.result = {
            "showdown": showdown,
            "won": won,
            "payouts": [{"pot": i, "seat": s, "amount": a} for i, s, a in payouts],
            "hands": ({str(s): _names(self._shown(s)) for s in strength} if showdown else {}),
        }
        events.append(
            to_all("hand_over", stacks=list(b.stacks), seed=self.seed.hex(), showdown=showdown)
        )
        return events


def new(
    players: Sequence[str],
    stacks: Sequence[int],
    rules: PokerRules | Mapping[str, Any] | None = None,
    seed: bytes | None = None,
    dealer: int = 0,
    **options: Any,
) -> AcikHand:
    """Start a hand of Açık poker: post antes, deal from the seeded shuffle, open the first street.

    `rules` is `acik_rules(...)` or a dict of its options (`deck`, `flush_beats_four`,
    `suit_order`); default 52 cards, flush beats four. `seed` is the hand's 32-byte server seed
    (fresh from `secrets` when None); the deck order is `deck_order(rules, seed)`. Keyword
    options: `ante` (default 0), `structure` (`pot_limit` default, `fixed`, `no_limit`),
    `min_bet` (the smallest bet; default the ante, at least 1), `big_bet` (the fixed-limit bet on
    streets 3 and 4; default twice `min_bet`), `void_bets` (default True), `peek_once` (default
    False), `carried_pot` (chips another game left in the middle, added to the main pot;
    default 0 — an Açık poker hand itself never carries a pot). The deal's events are in `initial_events()`. Bad arguments raise IllegalAction.
    """
    if rules is None:
        rules = acik_rules()
    elif isinstance(rules, Mapping):
        try:
            rules = PokerRules.from_dict({**rules, "game": GAME})
        except (TypeError, ValueError) as exc:
            raise TableError("bad_rules", f"Bad Açık poker rules: {exc}") from None
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise TableError(
            "unknown_option",
            f"Unknown Açık poker option(s): {', '.join(unknown)}; known: {', '.join(OPTIONS)}.",
            options=unknown,
        )
    seed = new_seed() if seed is None else seed
    if not isinstance(seed, bytes) or len(seed) != 32:
        raise TableError("bad_seed", "A hand needs a 32-byte seed.")
    return new_with_deck(players, stacks, rules, deck_order(rules, seed), seed, dealer, **options)


def new_with_deck(
    players: Sequence[str],
    stacks: Sequence[int],
    rules: Any,
    deck: Sequence[Card | str],
    seed: bytes,
    dealer: int = 0,
    *,
    ante: int = 0,
    structure: str = "pot_limit",
    min_bet: int | None = None,
    big_bet: int | None = None,
    void_bets: bool = True,
    peek_once: bool = False,
    carried_pot: int = 0,
) -> AcikHand:
    """Start a hand dealt from the given deck order (a recorded deal replayed, scripted tests).

    Same options as `new`; `deck` must hold every card of `rules.deck` once, and the hand's
    `seed` (whose hash is posted) then does not reproduce it: tables use `new`.
    """
    if getattr(rules, "game", None) != GAME:
        raise TableError("bad_rules", "An Açık poker hand needs acik_rules(...).")
    n = len(players)
    deck_size = len(rules.deck)
    limit = MAX_PLAYERS.get(deck_size, deck_size // HAND_SIZE)
    if not MIN_PLAYERS <= n <= limit:
        raise TableError(
            "player_count",
            f"Açık poker with {deck_size} cards needs {MIN_PLAYERS} to {limit} players, not {n}.",
            players=n,
            min=MIN_PLAYERS,
            max=limit,
        )
    if len(set(players)) != n:
        raise TableError("duplicate_player", "A player can sit at a table only once.")
    if len(stacks) != n or any(
        isinstance(s, bool) or not isinstance(s, int) or s <= 0 for s in stacks
    ):
        raise TableError(
            "bad_stacks", "Every player needs a positive whole number of chips to play."
        )
    if not isinstance(seed, bytes) or len(seed) != 32:
        raise TableError("bad_seed", "A hand needs a 32-byte seed.")
    try:
        cards = [c if isinstance(c, Card) else Card.parse(c) for c in deck]
    except ValueError as exc:
        raise TableError("bad_deck", f"Bad deck: {exc}.") from None
    if sorted(cards) != sorted(rules.deck):
        raise TableError("bad_deck", "The deck must hold every card of the table's deck once.")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise TableError("bad_dealer", f"The dealer must be a seat from 0 to {n - 1}.")
    if isinstance(ante, bool) or not isinstance(ante, int) or ante < 0:
        raise TableError("bad_ante", "The ante must be a whole number of chips, 0 or more.")
    if isinstance(carried_pot, bool) or not isinstance(carried_pot, int) or carried_pot < 0:
        raise TableError("bad_carried_pot", "A carried pot must be a whole number of chips.")
    if structure not in STRUCTURES:
        raise TableError(
            "bad_structure",
            f"Unknown betting structure {structure!r}; use one of {', '.join(STRUCTURES)}.",
            structure=structure,
        )
    min_bet = max(ante, 1) if min_bet is None else min_bet
    big_bet = 2 * min_bet if big_bet is None else big_bet
    for name, value in (("min_bet", min_bet), ("big_bet", big_bet)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise TableError(
                "bad_bet_size", f"{name} must be a whole number of chips, at least 1.", name=name
            )
    options = {
        "ante": ante,
        "structure": structure,
        "min_bet": min_bet,
        "big_bet": big_bet,
        "void_bets": bool(void_bets),
        "peek_once": bool(peek_once),
        "carried_pot": carried_pot,
    }
    betting = Betting(list(stacks), structure=structure, min_bet=min_bet, dead=carried_pot)
    hand = AcikHand(players, rules, seed, dealer, options, betting, cards)
    antes = [betting.post(seat, ante) if ante else 0 for seat in range(n)]
    hand._initial = tuple(hand._deal(antes))
    return hand
