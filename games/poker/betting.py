"""The chips of one poker hand and its betting rounds, shared by Türk pokeri and Açık poker.

`Betting` holds, for every seat, the chips behind (`stacks`), everything put in this hand
(`committed`, antes included), whether the seat folded, and the current betting round: whose turn
it is, the bet to match, each seat's stake this round and who has acted. Engines drive it:

    b = Betting([100, 100, 100], structure="pot_limit", min_bet=10)
    b.post(seat, 5)                     # antes (all-in for less when short)
    b.start_round(first=1, min_bet=15)  # opening bet at least the ante pot, for example
    b.legal(b.to_act)                   # [ActionSpec("check"), ActionSpec("bet", 15, 15), ...]
    b.apply(seat, "bet", 15)            # amount = the TOTAL the seat's stake reaches this round
    b.round_closed                      # True when stakes are equal and everybody has spoken
    b.pots()                            # main pot and side pots (games.poker.pots)

Action kinds are "check", "bet", "call", "raise" and "fold". An engine that names them otherwise
(Türk pokeri's first round: "pass" and "open") translates before calling `apply` and after calling
`legal`. An engine that forbids some moves to some seats (Açık poker's void bets, opening
requirements) filters `legal(seat)` and passes its filtered list as `allowed=` to `apply`, which
then validates against that list; folding is always mechanically possible, so an engine may add a
"fold" spec that `legal` did not list.

Structures:
- `pot_limit` (default): a bet or raise is at most the pot after calling; the minimum bet is the
  round's `min_bet`, the minimum raise adds the size of the last full bet or raise.
- `no_limit`: same minimums, the maximum is the seat's whole stack.
- `fixed`: bets and raises are exactly the round's `bet_size` (the small bet before the draw or on
  early streets, the big bet later); a bet and at most `max_raises` (3) raises per round, so no
  stake above (max_raises + 1) bets. Stakes move in whole bets: after a short all-in bet or raise
  the next raise completes the level (a 3-chip all-in bet when the bet is 4: call 3 or raise to
  4; a completion that adds less than a bet does not re-open the betting).
Table stakes: a seat that cannot cover a call, bet or raise may put in all it has (all-in for
less). An all-in raise smaller than a full raise does not re-open the betting: seats that already
acted may then only call or fold, unless several short all-in raises since they acted add up to a
full raise. Chips are never created or lost: `sum(stacks) + pot` is constant.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.base import ActionSpec, IllegalAction
from games.poker.pots import Pot, side_pots

STRUCTURES = ("pot_limit", "fixed", "no_limit")
BETTING_KINDS = ("check", "bet", "call", "raise", "fold")
MAX_RAISES_FIXED = 3


class Betting:
    """The chips of one hand and its current betting round (see the module docstring)."""

    __slots__ = (
        "acted",
        "acted_at",
        "bet_size",
        "committed",
        "current_bet",
        "dead",
        "everyone_acts",
        "fold_unbet",
        "folded",
        "last_raise",
        "max_raises",
        "min_bet",
        "raises",
        "stacks",
        "stake",
        "structure",
        "to_act",
    )

    def __init__(
        self,
        stacks: Sequence[int],
        structure: str = "pot_limit",
        min_bet: int = 1,
        dead: int = 0,
        fold_unbet: bool = False,
        max_raises: int = MAX_RAISES_FIXED,
    ) -> None:
        """Start a hand: `stacks` are the chips each seat brings, `dead` a carried pot.

        `min_bet` is the default smallest bet of a round (`start_round` may override it);
        `fold_unbet` lists "fold" even when there is no bet to face (otherwise only "check").
        """
        if structure not in STRUCTURES:
            raise ValueError(f"unknown betting structure {structure!r}; use one of {STRUCTURES}")
        if min_bet < 1:
            raise ValueError("min_bet must be at least 1")
        if dead < 0 or any(s < 0 for s in stacks):
            raise ValueError("chips cannot be negative")
        n = len(stacks)
        self.structure = structure
        self.min_bet = min_bet
        self.bet_size = min_bet
        self.max_raises = max_raises
        self.fold_unbet = fold_unbet
        self.dead = dead
        self.stacks = list(stacks)
        self.committed = [0] * n
        self.folded = [False] * n
        self.stake = [0] * n
        self.acted = [False] * n
        self.acted_at = [0] * n
        self.current_bet = 0
        self.last_raise = min_bet
        self.raises = 0
        self.everyone_acts = False
        self.to_act: int | None = None

    # --- chips outside the betting rounds -------------------------------------------------------

    def post(self, seat: int, amount: int) -> int:
        """Put a forced amount (an ante) into the pot for `seat`; all-in when short.

        Returns the chips actually posted. Antes are not part of any round's stake.
        """
        paid = min(amount, self.stacks[seat])
        self.stacks[seat] -= paid
        self.committed[seat] += paid
        return paid

    def fold(self, seat: int) -> None:
        """Fold `seat` outside its turn (e.g. a player who leaves); the round moves on."""
        self.folded[seat] = True
        if self.to_act is not None:
            current = self.to_act
            self.to_act = self._next_to_act(seat if current == seat else current - 1)

    # --- state queries --------------------------------------------------------------------------

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.stacks)

    @property
    def pot(self) -> int:
        """All chips in the middle: the carried pot plus everything committed this hand."""
        return self.dead + sum(self.committed)

    @property
    def round_closed(self) -> bool:
        """True when nobody is left to act in the current round."""
        return self.to_act is None

    def live(self) -> list[int]:
        """Seats that have not folded."""
        return [s for s in range(len(self.folded)) if not self.folded[s]]

    def all_in(self, seat: int) -> bool:
        """True when `seat` is still in but has no chips behind."""
        return not self.folded[seat] and self.stacks[seat] == 0

    def to_call(self, seat: int) -> int:
        """Chips `seat` must add to match the current bet (capped at its stack)."""
        return min(self.current_bet - self.stake[seat], self.stacks[seat])

    # --- the betting round ----------------------------------------------------------------------

    def start_round(
        self,
        first: int,
        min_bet: int | None = None,
        bet_size: int | None = None,
        everyone_acts: bool = False,
    ) -> int | None:
        """Begin a betting round with `first` (or the next seat after it able to act) to speak.

        `min_bet` is the smallest opening bet this round (default: the table's `min_bet`);
        `bet_size` the fixed-limit bet (default: `min_bet`). With `everyone_acts`, a seat able to
        act must speak even if no other seat could answer a bet (Türk pokeri's opening round).
        Returns the seat to act, or None when nobody needs to act.
        """
        n = len(self.stacks)
        self.min_bet = self.min_bet if min_bet is None else min_bet
        self.bet_size = self.min_bet if bet_size is None else bet_size
        if self.min_bet < 1 or self.bet_size < 1:
            raise ValueError("bets must be at least 1 chip")
        self.stake = [0] * n
        self.acted = [False] * n
        self.acted_at = [0] * n
        self.current_bet = 0
        self.raises = 0
        self.last_raise = self.bet_size if self.structure == "fixed" else self.min_bet
        self.everyone_acts = everyone_acts
        self.to_act = self._next_to_act((first - 1) % n)
        return self.to_act

    def _needs_action(self, seat: int, others_can_act: bool) -> bool:
        if self.folded[seat] or self.stacks[seat] == 0:
            return False
        if self.stake[seat] < self.current_bet:
            return True
        return not self.acted[seat] and (others_can_act or self.everyone_acts)

    def _next_to_act(self, after: int) -> int | None:
        """The first seat clockwise after `after` that must still speak, or None."""
        n = len(self.stacks)
        stacks, folded = self.stacks, self.folded
        able = [s for s in range(n) if not folded[s] and stacks[s] > 0]
        live_count = n - sum(folded)
        if live_count <= 1:
            return None
        for step in range(1, n + 1):
            seat = (after + step) % n
            if folded[seat] or stacks[seat] == 0:
                continue
            others = len(able) > 1
            if self._needs_action(seat, others):
                return seat
        return None

    def pot_limit_max(self, seat: int) -> int:
        """The largest total stake `seat` may reach in pot limit: the pot after calling, on top."""
        call = self.current_bet - self.stake[seat]
        return self.current_bet + self.pot + call

    def legal(self, seat: int, fold_unbet: bool | None = None) -> list[ActionSpec]:
        """What `seat` may do now (empty when it is not its turn).

        Amounts are totals for the round: a bet or raise spec gives the smallest and largest stake
        the seat may reach; a call spec gives the stake after calling (lower when all-in for less).
        `fold_unbet` overrides the table's setting for listing "fold" when no bet is faced.
        """
        if seat != self.to_act:
            return []
        stake = self.stake[seat]
        stack = self.stacks[seat]
        most = stake + stack  # table stakes: the most this seat can reach
        specs: list[ActionSpec] = []
        facing = self.current_bet > stake
        allow_fold = self.fold_unbet if fold_unbet is None else fold_unbet
        if facing or allow_fold:
            specs.append(ActionSpec("fold"))
        if facing:
            reach = min(self.current_bet, most)
            specs.append(ActionSpec("call", reach, reach))
        else:
            specs.append(ActionSpec("check"))
        if most <= self.current_bet:
            return specs
        # Raising needs an opponent who could still answer, and a betting round that is open to
        # this seat: it has not acted since the last full bet or raise, or the short all-in raises
        # since it acted add up to a full raise.
        opponents = any(
            not self.folded[s] and self.stacks[s] > 0 and s != seat for s in range(len(self.stacks))
        )
        reopened = self.current_bet - self.acted_at[seat] >= self.last_raise
        if self.current_bet == 0:
            low, high = self._bet_range(seat)
            specs.append(ActionSpec("bet", min(low, most), min(high, most)))
        elif opponents and (not self.acted[seat] or reopened):
            if self.structure == "fixed" and self.current_bet >= self._fixed_cap():
                return specs
            low, high = self._raise_range(seat)
            specs.append(ActionSpec("raise", min(low, most), min(high, most)))
        return specs

    def _fixed_cap(self) -> int:
        """The highest stake of a fixed-limit round: the bet and `max_raises` raises."""
        return (self.max_raises + 1) * self.bet_size

    def _bet_range(self, seat: int) -> tuple[int, int]:
        if self.structure == "fixed":
            return self.bet_size, self.bet_size
        if self.structure == "no_limit":
            return self.min_bet, self.stake[seat] + self.stacks[seat]
        return self.min_bet, max(self.min_bet, self.pot_limit_max(seat))

    def _raise_range(self, seat: int) -> tuple[int, int]:
        if self.structure == "fixed":
            # Stakes move in whole bets: a raise goes to the next multiple of the bet, so after a
            # short all-in it completes that level.
            target = (self.current_bet // self.bet_size + 1) * self.bet_size
            return target, target
        low = self.current_bet + self.last_raise
        if self.structure == "no_limit":
            return low, self.stake[seat] + self.stacks[seat]
        return low, max(low, self.pot_limit_max(seat))

    def apply(
        self,
        seat: int,
        kind: str,
        amount: int | None = None,
        allowed: Sequence[ActionSpec] | None = None,
    ) -> dict[str, Any]:
        """Make a betting move for `seat`; raises IllegalAction and changes nothing when refused.

        `amount` is the total stake the seat reaches this round (needed for "bet" and "raise";
        optional for "call"). `allowed` replaces `legal(seat)` as the list to validate against.
        Returns what happened: kind, seat, `stake` (the seat's total this round), `added` (chips
        put in by this move), `all_in`, and `closed` (whether the round is over).
        """
        target = self.check(seat, kind, amount, allowed)
        # Validated: mutate.
        return self._make(seat, kind, target)

    def check(
        self,
        seat: int,
        kind: str,
        amount: int | None = None,
        allowed: Sequence[ActionSpec] | None = None,
    ) -> int:
        """Validate a betting move like `apply` without making it: raises the IllegalAction
        `apply` would raise, else returns the total stake the seat would reach. Engines call it
        with the moves public information allows, so that a refusal on public grounds comes
        before any check of a player's hidden cards."""
        if seat != self.to_act:
            raise IllegalAction("not_your_turn", "It is not your turn.", seat=seat)
        specs = self.legal(seat) if allowed is None else allowed
        spec = next((s for s in specs if s.kind == kind), None)
        if spec is None:
            if kind == "fold":
                raise IllegalAction(
                    "fold_without_bet", "There is no bet to fold against; check instead."
                )
            if kind == "check" and self.current_bet > self.stake[seat]:
                raise IllegalAction(
                    "cannot_check",
                    f"You face a bet of {self.current_bet}; call, raise or fold.",
                    current_bet=self.current_bet,
                )
            raise IllegalAction(
                "action_not_allowed",
                f"You cannot {kind} now; allowed: {', '.join(s.kind for s in specs)}.",
                action=kind,
                allowed=[s.kind for s in specs],
            )
        if kind in ("check", "fold") and amount is not None:
            raise IllegalAction(
                "unexpected_amount", f"This move ({kind}) takes no amount.", action=kind
            )
        target = self.stake[seat]
        if kind in ("bet", "raise"):
            if amount is None or isinstance(amount, bool) or not isinstance(amount, int):
                raise IllegalAction(
                    "amount_required", f"Say how much to {kind} (the total stake).", action=kind
                )
            assert spec.min_amount is not None and spec.max_amount is not None
            if not spec.min_amount <= amount <= spec.max_amount:
                raise IllegalAction(
                    "bad_amount",
                    f"A {kind} must bring your stake to between {spec.min_amount} and "
                    f"{spec.max_amount}; {amount} is not allowed.",
                    action=kind,
                    amount=amount,
                    min=spec.min_amount,
                    max=spec.max_amount,
                )
            target = amount
        elif kind == "call":
            assert spec.max_amount is not None
            if amount is not None and amount != spec.max_amount:
                raise IllegalAction(
                    "bad_amount",
                    f"Calling brings your stake to {spec.max_amount}, not {amount}.",
                    action=kind,
                    amount=amount,
                    min=spec.max_amount,
                    max=spec.max_amount,
                )
            target = spec.max_amount
        return target

    def _make(self, seat: int, kind: str, target: int) -> dict[str, Any]:
        """Make a move `check` accepted: the seat's stake becomes `target`."""
        added = target - self.stake[seat]
        if kind == "fold":
            self.folded[seat] = True
        elif added:
            self.stacks[seat] -= added
            self.committed[seat] += added
            self.stake[seat] = target
        if kind in ("bet", "raise"):
            increase = target - self.current_bet
            full = increase >= self.last_raise if kind == "raise" else True
            if self.current_bet == 0 or full:
                # A bet or a full raise re-opens the betting for everybody else.
                acted = self.acted
                for s in range(len(acted)):
                    acted[s] = False
                if kind == "raise":
                    self.raises += 1
                if self.structure != "fixed":
                    self.last_raise = max(increase, self.min_bet)
            self.current_bet = max(self.current_bet, target)
        self.acted[seat] = True
        self.acted_at[seat] = self.current_bet
        self.to_act = self._next_to_act(seat)
        return {
            "kind": kind,
            "seat": seat,
            "stake": self.stake[seat],
            "added": added,
            "all_in": self.stacks[seat] == 0 and kind != "fold",
            "closed": self.to_act is None,
        }

    # --- pots -----------------------------------------------------------------------------------

    def pots(self) -> list[Pot]:
        """The main pot and side pots from everything committed (see `games.poker.pots`)."""
        return side_pots(self.committed, self.folded, self.dead)

    def pay(self, payouts: Sequence[tuple[int, int, int]]) -> None:
        """Credit `(pot index, seat, chips)` payouts to the stacks and empty the middle.

        The payouts must add up to `pot` (as `games.poker.pots.award` does, or the whole pot to
        the last seat left); the hand's betting is over afterwards.
        """
        if sum(chips for _, _, chips in payouts) != self.pot:
            raise ValueError("payouts must add up to the pot")
        for _, seat, chips in payouts:
            self.stacks[seat] += chips
        n = len(self.stacks)
        self.dead = 0
        self.committed = [0] * n
        self.stake = [0] * n
        self.current_bet = 0
        self.to_act = None

    # --- snapshots ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot."""
        return {
            "structure": self.structure,
            "min_bet": self.min_bet,
            "bet_size": self.bet_size,
            "max_raises": self.max_raises,
            "fold_unbet": self.fold_unbet,
            "dead": self.dead,
            "stacks": list(self.stacks),
            "committed": list(self.committed),
            "folded": list(self.folded),
            "stake": list(self.stake),
            "acted": list(self.acted),
            "acted_at": list(self.acted_at),
            "current_bet": self.current_bet,
            "last_raise": self.last_raise,
            "raises": self.raises,
            "everyone_acts": self.everyone_acts,
            "to_act": self.to_act,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Betting:
        """Rebuild from `to_dict` output."""
        b = cls.__new__(cls)
        b.structure = data["structure"]
        b.min_bet = data["min_bet"]
        b.bet_size = data["bet_size"]
        b.max_raises = data["max_raises"]
        b.fold_unbet = data["fold_unbet"]
        b.dead = data["dead"]
        b.stacks = list(data["stacks"])
        b.committed = list(data["committed"])
        b.folded = list(data["folded"])
        b.stake = list(data["stake"])
        b.acted = list(data["acted"])
        # Snapshots from before `acted_at` existed: treat every seat as having seen the current
        # bet, so nothing is re-opened that was closed.
        b.acted_at = list(data.get("acted_at", [data["current_bet"]] * len(b.acted)))
        b.current_bet = data["current_bet"]
        b.last_raise = data["last_raise"]
        b.raises = data["raises"]
        b.everyone_acts = data["everyone_acts"]
        b.to_act = data["to_act"]
        return b
