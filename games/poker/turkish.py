"""The Türk pokeri hand engine: one hand of five-card draw with a short deck, 2-5 players.

Follows `rules/turkish-poker.txt` and `rules/DECISIONS.md` on the engine protocol of DESIGN.md.
A hand goes: antes (on top of any carried pot), a seeded shuffle and a deal of five cards one at a
time from the dealer's left, a first betting round that needs a pair of kings or better to open
("pass" / "open", then "call" / "raise" / "fold"), the draw (0-4 cards in turn from the dealer's
left; a four-card draw gets its fourth card after everybody else), a second betting round begun by
the opener ("check" / "bet", then "call" / "raise" / "fold") and the showdown. If nobody opens,
the hand ends "carried": the pot stays for the next hand (`new(..., carried_pot=view["pot"])`).

Chips and betting rounds are handled by `games.poker.betting` (shared with Açık poker); hands are
ranked by `games.poker.evaluate` with `turkish_rules`.

Rulings taken here (see docs/rules/turkish.md):
- Folding is refused while there is no bet to face (pass or check instead: code
  "fold_without_bet").
- Opening minimum: the ante pot (all antes plus the carried pot) in `pot_limit` and `no_limit`,
  the small bet in `fixed`. The second round's minimum bet is `min_bet` (default: the ante).
- Discards go to a discard pile after their owner has been served; folded hands join it too.
  When the stock runs out the pile (never the opener's split discards) is shuffled into a new
  stock with the seed and context "reshuffle-<n>", so the whole hand stays a function of the seed.
- When every player is all-in on the antes, nobody can open: the hand goes straight to the draw
  and the showdown. A player who is all-in on the ante may not open; if nobody opens their ante
  stays in the carried pot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.base import (
    Action,
    ActionSpec,
    Event,
    IllegalAction,
    new_seed,
    private,
    public,
    seed_from_hex,
    seed_hash,
    shuffled,
)
from games.poker.betting import BETTING_KINDS, STRUCTURES, Betting
from games.poker.cards import Card
from games.poker.pots import award, is_returned, seats_from_dealer_left
from games.poker.ranking import HIGH_CARD, PAIR, PokerRules, evaluate
from games.poker.ranking import turkish_rules as turkish_rules  # re-exported here

GAME = "turkish"
MIN_PLAYERS, MAX_PLAYERS = 2, 5
HAND_SIZE = 5
MAX_DRAW = 4
KING = 13

# Phases of a hand.
BET1, DRAW, BET2, DONE = "bet1", "draw", "bet2", "done"


def _make_rules(players: int, rules: PokerRules | Mapping[str, Any] | None) -> PokerRules:
    """Accept a `turkish_rules` object, a dict of its options, or None for the defaults."""
    if rules is None:
        return turkish_rules(players)
    if isinstance(rules, Mapping):
        options = {k: v for k, v in rules.items() if k != "players"}
        return turkish_rules(players, **options)
    return rules


def qualifies_to_open(cards: Sequence[Card], rules: PokerRules) -> bool:
    """True when five cards hold a pair of kings or better (the opening requirement)."""
    if _pairs_qualify(cards):
        return True
    # Without a qualifying pair or set only a straight or a flush of some kind opens; a lower
    # pair never does (a hand with a pair is no straight or flush).
    return evaluate(cards, rules).category not in (HIGH_CARD, PAIR)


def _pairs_qualify(cards: Sequence[Card]) -> bool:
    """True when `cards` hold kings or aces, two pair, or three or four of a kind."""
    counts: dict[int, int] = {}
    for card in cards:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    paired = [rank for rank, count in counts.items() if count >= 2]
    if not paired:
        return False
    # Two pair, three or four of a kind and a full house all beat a pair of kings.
    return len(paired) > 1 or max(counts.values()) >= 3 or paired[0] >= KING


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def new(
    players: Sequence[str],
    stacks: Sequence[int],
    rules: PokerRules | Mapping[str, Any] | None = None,
    seed: bytes | None = None,
    dealer: int = 0,
    *,
    ante: int = 1,
    structure: str = "pot_limit",
    carried_pot: int = 0,
    min_bet: int | None = None,
    small_bet: int | None = None,
    big_bet: int | None = None,
) -> TurkishHand:
    """Deal a new Türk pokeri hand.

    `players` are player ids in seat order, `stacks` the chips each brings, `rules` a
    `turkish_rules(...)` object or a dict of its options, `seed` 32 bytes (fresh from `secrets`
    when None), `dealer` the dealer's seat. `ante` is taken from every player (all-in when
    short) on top of `carried_pot` (chips left by a hand nobody opened). `structure` is
    "pot_limit" (default), "fixed" or "no_limit"; `min_bet` the smallest bet of the second round
    (default: the ante); `small_bet`/`big_bet` the fixed-limit bets before/after the draw
    (default: twice the ante, and twice the small bet). Call `initial_events()` for the
    announcements of the deal.
    """
    hand = TurkishHand._blank()
    n = len(players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ValueError(f"Türk pokeri needs {MIN_PLAYERS}-{MAX_PLAYERS} players, got {n}")
    if len(stacks) != n:
        raise ValueError("one stack per player is needed")
    if any(not isinstance(s, int) or s < 1 for s in stacks):
        raise ValueError("every player needs at least 1 chip to be dealt in")
    if not 0 <= dealer < n:
        raise ValueError(f"dealer must be a seat 0..{n - 1}")
    if ante < 0 or carried_pot < 0:
        raise ValueError("ante and carried pot cannot be negative")
    if structure not in STRUCTURES:
        raise ValueError(f"unknown betting structure {structure!r}; use one of {STRUCTURES}")
    seed = new_seed() if seed is None else seed
    base = max(ante, 1)
    small = small_bet if small_bet is not None else 2 * base
    big = big_bet if big_bet is not None else 2 * small
    minimum = min_bet if min_bet is not None else base
    if min(small, big, minimum) < 1:
        raise ValueError("bets must be at least 1 chip")
    hand.players = list(players)
    hand.rules = _make_rules(n, rules)
    hand.seed = seed
    hand.dealer = dealer
    hand.options = {
        "ante": ante,
        "structure": structure,
        "carried_pot": carried_pot,
        "min_bet": minimum,
        "small_bet": small,
        "big_bet": big,
    }
    hand.betting = Betting(stacks, structure=structure, min_bet=minimum, dead=carried_pot)
    hand._deal()
    return hand


class TurkishHand:
    """One hand of Türk pokeri (the `Game` protocol of DESIGN.md). Create it with `new`."""

    players: list[str]
    rules: PokerRules
    seed: bytes
    dealer: int
    options: dict[str, Any]
    betting: Betting  # stacks, contributions, folds and the current betting round
    phase: str
    stock: list[Card]  # the next card is the last one
    pile: list[Card]  # discards (and folded hands) that a reshuffle may reuse
    set_aside: list[Card]  # the opener's split discards, never reused
    hands: list[list[Card]]
    openers: list[bool]  # dealt a pair of kings or better
    opener: int | None
    opening_announced: bool
    split: bool
    draw_order: list[int]
    draw_pos: int
    owed: list[int]  # seats waiting for the fourth card of a four-card draw
    drew: list[int | None]
    reshuffles: int
    carried: bool
    shown: dict[int, list[str]]
    payouts: list[dict[str, int]]
    antes: list[int]
    _start_events: list[Event]
    _cached: tuple[int, list[ActionSpec]] | None

    # --- construction ---------------------------------------------------------------------------

    @classmethod
    def _blank(cls) -> TurkishHand:
        hand = cls.__new__(cls)
        hand.players = []
        hand.rules = turkish_rules(MIN_PLAYERS)
        hand.seed = b""
        hand.dealer = 0
        hand.options = {}
        hand.betting = Betting([0, 0])
        hand.phase = BET1
        hand.stock = []
        hand.pile = []
        hand.set_aside = []
        hand.hands = []
        hand.openers = []
        hand.opener = None
        hand.opening_announced = False
        hand.split = False
        hand.draw_order = []
        hand.draw_pos = 0
        hand.owed = []
        hand.drew = []
        hand.reshuffles = 0
        hand.carried = False
        hand.shown = {}
        hand.payouts = []
        hand.antes = []
        hand._start_events = []
        hand._cached = None
        return hand

    def _deal(self) -> None:
        n = len(self.players)
        order = shuffled(self.rules.deck, self.seed, "deal")
        self.stock = order[::-1]  # the next card is at the end
        self.antes = [self.betting.post(seat, self.options["ante"]) for seat in range(n)]
        self.hands = [[] for _ in range(n)]
        first = (self.dealer + 1) % n
        for i in range(HAND_SIZE * n):
            self.hands[(first + i) % n].append(self.stock.pop())
        self.openers = [qualifies_to_open(h, self.rules) for h in self.hands]
        self.drew = [None] * n
        ante_pot = self.betting.pot
        if self.options["structure"] == "fixed":
            opening_min = self.options["small_bet"]
        else:
            opening_min = max(ante_pot, 1)
        events = [
            public(
                "hand_started",
                game=GAME,
                seed_hash=seed_hash(self.seed),
                dealer=self.dealer,
                antes=list(self.antes),
                carried_pot=self.options["carried_pot"],
                pot=ante_pot,
                structure=self.options["structure"],
            ),
            public("dealt", cards=[len(h) for h in self.hands], deck=len(self.rules.deck)),
        ]
        events += [private(s, "hand", cards=_cards(h)) for s, h in enumerate(self.hands)]
        to_act = self.betting.start_round(
            first, min_bet=opening_min, bet_size=self.options["small_bet"], everyone_acts=True
        )
        if to_act is None:
            # Everybody is all-in on the antes: nobody can open, play it out.
            events += self._start_draw()
        else:
            events.append(public("turn", seat=to_act, phase=BET1))
        self._start_events = events

    def initial_events(self) -> list[Event]:
        """The events of the deal: the seed's hash, antes, card counts and each seat's hand."""
        return list(self._start_events)

    # --- protocol: queries ----------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """True once the hand is over (won, or carried because nobody opened)."""
        return self.phase == DONE

    def to_act(self) -> int | None:
        """The seat to act now; None when the hand is over."""
        if self.phase == DRAW:
            return self.draw_order[self.draw_pos]
        if self.phase == DONE:
            return None
        return self.betting.to_act

    def legal_actions(self, seat: int) -> list[ActionSpec]:
        """Exactly the moves `seat` may make now, with amount limits (empty if not its turn)."""
        if seat != self.to_act():
            return []
        if self.phase == DRAW:
            return [ActionSpec("draw", max_cards=MAX_DRAW)]
        return [self._rename(spec) for spec in self._betting_specs(seat)]

    def public_legal_actions(self, seat: int) -> list[ActionSpec]:
        """The moves to offer `seat` where everybody sees them (buttons on the table message).

        Unlike `legal_actions`, this depends on public information only: before anyone opens it
        offers "open" to every seat that could bet, whether or not it holds a pair of kings or
        better, so the table cannot tell who has openers. An "open" without openers is then
        refused by `apply`, privately, with code "no_openers".
        """
        if seat != self.to_act():
            return []
        if self.phase == BET1 and self.betting.current_bet == 0:
            return [self._rename(spec) for spec in self.betting.legal(seat)]
        return self.legal_actions(seat)

    def _betting_specs(self, seat: int) -> list[ActionSpec]:
        """The betting module's specs with the opening requirement applied (cached per move)."""
        cached = self._cached
        if cached is not None and cached[0] == seat:
            return cached[1]
        specs = self.betting.legal(seat)
        if self.phase == BET1 and self.betting.current_bet == 0 and not self.openers[seat]:
            specs = [s for s in specs if s.kind != "bet"]
        self._cached = (seat, specs)
        return specs

    def _rename(self, spec: ActionSpec) -> ActionSpec:
        if self.phase == BET1 and self.betting.current_bet == 0:
            if spec.kind == "check":
                return ActionSpec("pass")
            if spec.kind == "bet":
                return ActionSpec("open", spec.min_amount, spec.max_amount)
        return spec

    # --- protocol: moves ------------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Make a move; raises IllegalAction (stable `code`) and changes nothing when refused."""
        if self.phase == DONE:
            raise IllegalAction("hand_over", "The hand is over.")
        if not isinstance(seat, int) or not 0 <= seat < len(self.players):
            raise IllegalAction("bad_seat", f"There is no seat {seat!r}.", seat=seat)
        if seat != self.to_act():
            raise IllegalAction("not_your_turn", "It is not your turn.", seat=seat)
        try:
            if self.phase == DRAW:
                return self._apply_draw(seat, action)
            return self._apply_bet(seat, action)
        finally:
            self._cached = None

    def _apply_bet(self, seat: int, action: Action) -> list[Event]:
        kind = action.kind
        b = self.betting
        opening = self.phase == BET1 and b.current_bet == 0
        internal = kind
        if opening:
            if kind in ("check", "bet"):
                raise IllegalAction(
                    "action_not_allowed",
                    f"Before anyone opens, say 'pass' or 'open', not {kind!r}.",
                    action=kind,
                    allowed=[s.kind for s in self.legal_actions(seat)],
                )
            internal = {"pass": "check", "open": "bet"}.get(kind, kind)
            if kind == "open" and not self.openers[seat]:
                # Refuse on public grounds first (cards named, the amount against the public
                # limits), so the refusal a word gets never tells whether the seat has openers.
                if action.cards:
                    raise IllegalAction("unexpected_cards", "Betting moves take no cards.")
                b.check(seat, "bet", action.amount)
                raise IllegalAction(
                    "no_openers", "You need a pair of kings or better to open.", seat=seat
                )
            if kind == "fold":
                raise IllegalAction(
                    "fold_without_bet", "Nobody has opened yet; pass instead of folding."
                )
        elif kind in ("pass", "open"):
            raise self._not_allowed(seat, kind)
        if internal not in BETTING_KINDS:
            raise self._not_allowed(seat, kind)
        if action.cards:
            raise IllegalAction("unexpected_cards", "Betting moves take no cards.")
        result = b.apply(seat, internal, action.amount, allowed=self._betting_specs(seat))
        events = [self._bet_event(kind, result)]
        if kind == "open":
            self.opener = seat
        if kind == "fold":
            self.pile.extend(self.hands[seat])
            self.hands[seat] = []
            if seat == self.opener and not self.opening_announced:
                events.append(self._announce_opening())
        if not b.round_closed:
            events.append(public("turn", seat=b.to_act, phase=self.phase))
            return events
        events += self._end_round()
        return events

    def _not_allowed(self, seat: int, kind: str) -> IllegalAction:
        allowed = [s.kind for s in self.legal_actions(seat)]
        return IllegalAction(
            "action_not_allowed",
            f"You cannot {kind} now; allowed: {', '.join(allowed)}.",
            action=kind,
            allowed=allowed,
        )

    def _bet_event(self, kind: str, result: dict[str, Any]) -> Event:
        b = self.betting
        data = {
            "seat": result["seat"],
            "stake": result["stake"],
            "added": result["added"],
            "all_in": result["all_in"],
            "pot": b.pot,
            "stack": b.stacks[result["seat"]],
        }
        if kind == "open":
            return public("opened", **data)
        if kind == "pass":
            return public("passed", **data)
        return public("bet", action=kind, round=1 if self.phase == BET1 else 2, **data)

    def _announce_opening(self) -> Event:
        self.opening_announced = True
        return public("opening_was_legal", seat=self.opener)

    def _end_round(self) -> list[Event]:
        b = self.betting
        live = b.live()
        if len(live) == 1:
            return self._win_uncontested(live[0])
        if self.phase == BET1:
            if self.opener is None and any(b.acted):
                return self._carry()
            return self._start_draw()
        return self._showdown()

    def _carry(self) -> list[Event]:
        self.phase = DONE
        self.carried = True
        self.pile.clear()
        return [public("carried", pot=self.betting.pot, dealer=self.dealer)]

    def _win_uncontested(self, seat: int) -> list[Event]:
        b = self.betting
        events: list[Event] = []
        if seat == self.opener and not self.opening_announced:
            events.append(self._announce_opening())
        amount = b.pot
        b.pay([(0, seat, amount)])
        self.phase = DONE
        self.payouts = [{"pot": 0, "seat": seat, "amount": amount}]
        events.append(public("won", pot=0, seat=seat, amount=amount, uncontested=True))
        events.append(self._end_event())
        return events

    def _end_event(self) -> Event:
        return public("hand_over", seed=self.seed.hex(), stacks=list(self.betting.stacks))

    # --- the draw -------------------------------------------------------------------------------

    def _start_draw(self) -> list[Event]:
        self.phase = DRAW
        n = len(self.players)
        self.draw_order = seats_from_dealer_left(self.betting.live(), self.dealer, n)
        self.draw_pos = 0
        return [
            public("draw_started", order=list(self.draw_order)),
            public("turn", seat=self.draw_order[0], phase=DRAW),
        ]

    def _take(self, events: list[Event]) -> Card:
        """The next card from the stock, reshuffling the discard pile into it when empty."""
        if not self.stock:
            self.reshuffles += 1
            self.stock = shuffled(self.pile, self.seed, f"reshuffle-{self.reshuffles}")[::-1]
            self.pile = []
            events.append(public("reshuffled", cards=len(self.stock)))
            if not self.stock:
                raise RuntimeError("no cards left to draw")  # impossible with 5 players max
        return self.stock.pop()

    def _parse_discards(self, seat: int, action: Action) -> list[Card]:
        if action.kind != "draw":
            raise IllegalAction(
                "action_not_allowed",
                f"It is the draw: say which cards to discard (draw), not {action.kind!r}.",
                action=action.kind,
                allowed=["draw"],
            )
        if action.amount is not None:
            raise IllegalAction("unexpected_amount", "A draw takes cards, not an amount.")
        if len(action.cards) > MAX_DRAW:
            raise IllegalAction(
                "too_many_cards",
                f"You may exchange at most {MAX_DRAW} cards, not {len(action.cards)}.",
                count=len(action.cards),
                max=MAX_DRAW,
            )
        # Every check of the words comes before the one of the seat's hidden hand, so which
        # refusal a draw gets never depends on cards the seat holds.
        discards: list[Card] = []
        for text in action.cards:
            try:
                card = Card.parse(text) if not isinstance(text, Card) else text
            except ValueError as exc:
                raise IllegalAction("bad_card", f"{exc}.", card=str(text)) from None
            if card in discards:
                raise IllegalAction("duplicate_card", f"{card} is named twice.", card=str(card))
            discards.append(card)
        for card in discards:
            if card not in self.hands[seat]:
                raise IllegalAction("card_not_in_hand", f"You do not hold {card}.", card=str(card))
        return discards

    def _apply_draw(self, seat: int, action: Action) -> list[Event]:
        discards = self._parse_discards(seat, action)
        events: list[Event] = []
        hand = self.hands[seat]
        kept = [c for c in hand if c not in discards]
        # The opener splits when the kept cards alone no longer hold kings or better.
        splitting = seat == self.opener and bool(discards) and not _pairs_qualify(kept)
        count = len(discards)
        now = min(count, MAX_DRAW - 1)
        received = [self._take(events) for _ in range(now)]
        self.hands[seat] = kept + received
        if splitting:
            self.split = True
            self.set_aside.extend(discards)
            events.append(public("openers_split", seat=seat))
        else:
            self.pile.extend(discards)
        self.drew[seat] = count
        if count == MAX_DRAW:
            self.owed.append(seat)
        events.append(public("drew", seat=seat, count=count, pending=count - now))
        events.append(
            private(
                seat,
                "drew_cards",
                discarded=_cards(discards),
                received=_cards(received),
                hand=_cards(self.hands[seat]),
            )
        )
        self.draw_pos += 1
        if self.draw_pos < len(self.draw_order):
            events.append(public("turn", seat=self.draw_order[self.draw_pos], phase=DRAW))
            return events
        for owed in self.owed:
            card = self._take(events)
            self.hands[owed].append(card)
            events.append(public("fourth_card", seat=owed))
            events.append(
                private(
                    owed,
                    "drew_cards",
                    discarded=[],
                    received=[str(card)],
                    hand=_cards(self.hands[owed]),
                )
            )
        self.owed = []
        events += self._start_second_round()
        return events

    def _start_second_round(self) -> list[Event]:
        self.phase = BET2
        n = len(self.players)
        first = self.opener if self.opener is not None else (self.dealer + 1) % n
        to_act = self.betting.start_round(
            first, min_bet=self.options["min_bet"], bet_size=self.options["big_bet"]
        )
        events = [public("round_started", round=2)]
        if to_act is None:
            return events + self._showdown()
        events.append(public("turn", seat=to_act, phase=BET2))
        return events

    # --- showdown -------------------------------------------------------------------------------

    def _showdown(self) -> list[Event]:
        b = self.betting
        live = b.live()
        ranks = {s: evaluate(self.hands[s], self.rules) for s in live}
        self.shown = {s: _cards(self.hands[s]) for s in live}
        events: list[Event] = [
            public(
                "showdown",
                hands=[
                    {
                        "seat": s,
                        "cards": self.shown[s],
                        "category": ranks[s].category,
                    }
                    for s in seats_from_dealer_left(live, self.dealer, len(self.players))
                ],
            )
        ]
        pots = b.pots()
        payouts = award(pots, ranks, self.dealer, len(self.players))
        for index, seat, amount in payouts:
            kind = "returned" if is_returned(pots, index) else "won"
            events.append(public(kind, pot=index, seat=seat, amount=amount))
        self.payouts = [{"pot": i, "seat": s, "amount": a} for i, s, a in payouts]
        b.pay(payouts)
        self.phase = DONE
        events.append(self._end_event())
        return events

    # --- views ----------------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see; `None` is the public view (no hidden card before the showdown)."""
        b = self.betting
        n = len(self.players)
        to_act = self.to_act()
        data: dict[str, Any] = {
            "game": GAME,
            "players": list(self.players),
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": to_act,
            "finished": self.finished,
            "carried": self.carried,
            "pot": b.pot,
            "pots": [p.to_dict() for p in b.pots()] if not self.finished else [],
            "stacks": list(b.stacks),
            "stakes": list(b.stake),
            "committed": list(b.committed),
            "current_bet": b.current_bet,
            "folded": list(b.folded),
            "all_in": [b.all_in(s) for s in range(n)],
            "cards": [len(h) for h in self.hands],
            "drew": list(self.drew),
            "opener": self.opener,
            "openers_split": self.split,
            "stock": len(self.stock),
            "structure": self.options["structure"],
            "ante": self.options["ante"],
            "seed_hash": seed_hash(self.seed),
            "shown": {str(s): list(c) for s, c in self.shown.items()},
            "payouts": [dict(p) for p in self.payouts],
        }
        if self.finished:
            data["seed"] = self.seed.hex()
        if seat is not None:
            if not 0 <= seat < n:
                raise ValueError(f"there is no seat {seat}")
            data["seat"] = seat
            data["hand"] = _cards(self.hands[seat])
            data["has_openers"] = self.openers[seat]
            data["legal"] = [
                {
                    "kind": s.kind,
                    "min_amount": s.min_amount,
                    "max_amount": s.max_amount,
                    "max_cards": s.max_cards,
                }
                for s in self.legal_actions(seat)
            ]
        return data

    # --- snapshots ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot; `from_dict(to_dict())` plays on identically."""
        return {
            "game": GAME,
            "players": list(self.players),
            "rules": self.rules.to_dict(),
            "seed": self.seed.hex(),
            "dealer": self.dealer,
            "options": dict(self.options),
            "betting": self.betting.to_dict(),
            "phase": self.phase,
            "stock": _cards(self.stock),
            "pile": _cards(self.pile),
            "set_aside": _cards(self.set_aside),
            "hands": [_cards(h) for h in self.hands],
            "openers": list(self.openers),
            "opener": self.opener,
            "opening_announced": self.opening_announced,
            "split": self.split,
            "draw_order": list(self.draw_order),
            "draw_pos": self.draw_pos,
            "owed": list(self.owed),
            "drew": list(self.drew),
            "reshuffles": self.reshuffles,
            "carried": self.carried,
            "shown": {str(s): list(c) for s, c in self.shown.items()},
            "payouts": [dict(p) for p in self.payouts],
            "antes": list(self.antes),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TurkishHand:
        """Rebuild a hand from `to_dict` output."""
        parse = Card.parse
        hand = cls._blank()
        hand.players = list(data["players"])
        hand.rules = PokerRules.from_dict(data["rules"])
        hand.seed = seed_from_hex(data["seed"])
        hand.dealer = data["dealer"]
        hand.options = dict(data["options"])
        hand.betting = Betting.from_dict(data["betting"])
        hand.phase = data["phase"]
        hand.stock = [parse(c) for c in data["stock"]]
        hand.pile = [parse(c) for c in data["pile"]]
        hand.set_aside = [parse(c) for c in data["set_aside"]]
        hand.hands = [[parse(c) for c in h] for h in data["hands"]]
        hand.openers = list(data["openers"])
        hand.opener = data["opener"]
        hand.opening_announced = data["opening_announced"]
        hand.split = data["split"]
        hand.draw_order = list(data["draw_order"])
        hand.draw_pos = data["draw_pos"]
        hand.owed = list(data["owed"])
        hand.drew = list(data["drew"])
        hand.reshuffles = data["reshuffles"]
        hand.carried = data["carried"]
        hand.shown = {int(s): list(c) for s, c in data["shown"].items()}
        hand.payouts = [dict(p) for p in data["payouts"]]
        hand.antes = list(data["antes"])
        return hand
