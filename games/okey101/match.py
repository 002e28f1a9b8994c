"""A 101 Okey match: a fixed number of rounds (option `rounds`), the lowest total wins.

`Match101` follows the `Game` protocol by passing moves to the current round. Each round needs a
fresh seed: `start_round(seed)` deals it. When a round ends its scores (discard penalties and the
end-of-round score) are added to the totals; `payout(pool)` splits the chips once the match is over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from copy import deepcopy
from typing import Any

from games.base import Action, ActionSpec, Event, IllegalAction, public
from games.okey101.round import Round101
from games.okey101.scoring import check_options, match_payout, side_totals, sides


class Match101:
    """A sequence of 101 rounds with running totals and the final payout."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        """Load a match from `to_dict` output (start a new one with `Match101.new`)."""
        self.players: list[str] = list(data["players"])
        self.options: dict[str, Any] = dict(data["options"])
        self.totals: list[int] = list(data["totals"])
        self.history: list[dict[str, Any]] = deepcopy(list(data["history"]))
        current = data.get("round")
        self.round: Round101 | None = None if current is None else Round101.from_dict(current)

    @classmethod
    def new(cls, players: Sequence[str], options: Mapping[str, Any] | None = None) -> Match101:
        """A match with no round dealt yet; options per `scoring.check_options`."""
        players = list(players)
        if not 2 <= len(players) <= 4 or len(set(players)) != len(players):
            raise ValueError("a 101 match is for 2-4 different players")
        return cls(
            {
                "players": players,
                "options": check_options(options, len(players)),
                "totals": [0] * len(players),
                "history": [],
                "round": None,
            }
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot, the current round included."""
        return {
            "game": "okey101_match",
            "players": list(self.players),
            "options": dict(self.options),
            "totals": list(self.totals),
            "history": deepcopy(self.history),
            "round": None if self.round is None else self.round.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match101:
        """Rebuild a match from `to_dict` output."""
        return cls(data)

    # --- totals and the end -------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """True when every round of the match has been played."""
        if self.round is not None and not self.round.finished:
            return False
        return len(self.history) >= int(self.options["rounds"])

    @property
    def needs_round(self) -> bool:
        """True when the next round should be dealt with `start_round`."""
        return not self.finished and (self.round is None or self.round.finished)

    def side_totals(self) -> list[int]:
        """The totals that decide: each seat's, or each side's with partners (seats 0+2, 1+3)."""
        return side_totals(self.totals, self.options["partners"])

    def winners(self) -> list[int]:
        """Seats on the lowest total (with partners, both seats of the lowest side); ties share."""
        ranked = self.side_totals()
        best = min(ranked)
        groups = sides(len(self.players), self.options["partners"])
        return sorted(
            s for side, total in zip(groups, ranked, strict=True) if total == best for s in side
        )

    def payout(self, pool: int) -> list[int]:
        """Chips for each seat from a pool of every player's stake; sums to `pool` exactly."""
        if not self.finished:
            raise ValueError("the match is not over yet")
        return match_payout(
            self.totals,
            pool,
            self.options["rounds"],
            self.options["partners"],
            self.options["payout"],
        )

    # --- rounds -------------------------------------------------------------------------------

    def start_round(self, seed: bytes) -> list[Event]:
        """Deal the next round from a fresh 32-byte seed; returns its opening events."""
        if not self.needs_round:
            raise ValueError("a round is being played or the match is over")
        self.round = Round101.new(self.players, seed, self.options)
        return [
            public("match_round", number=len(self.history) + 1, totals=list(self.totals)),
            *self.round.opening_events(),
        ]

    def _record(self) -> list[Event]:
        assert self.round is not None and self.round.finished
        for seat, score in enumerate(self.round.penalties):
            self.totals[seat] += score
        result = self.round.result or {}
        self.history.append(
            {
                "reason": result.get("reason"),
                "winner": result.get("winner"),
                "scores": list(self.round.penalties),
                "opened": list(self.round.opened),
                "seed": self.round.seed.hex(),
            }
        )
        events = [
            public(
                "match_totals",
                totals=list(self.totals),
                sides=self.side_totals(),
                rounds_played=len(self.history),
            )
        ]
        if self.finished:
            events.append(public("match_over", totals=list(self.totals), winners=self.winners()))
        return events

    # --- the protocol, passed to the current round --------------------------------------------

    def to_act(self) -> int | None:
        """Seat to act in the current round; None between rounds and at the end."""
        return None if self.round is None else self.round.to_act()

    def legal_actions(self, seat: int) -> list[ActionSpec]:
        """The current round's legal moves for `seat`."""
        return [] if self.round is None else self.round.legal_actions(seat)

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Play a move in the current round; the totals are updated when it ends."""
        if self.round is None or self.round.finished:
            raise IllegalAction("no_round", "no round is being played")
        events = self.round.apply(seat, action)
        if self.round.finished:
            events += self._record()
        return events

    def view(self, seat: int | None) -> dict[str, Any]:
        """The current round's view plus the match totals; never a rack in `view(None)`."""
        out: dict[str, Any] = {} if self.round is None else self.round.view(seat)
        out.update(
            {
                "game": "okey101",
                "players": list(self.players),
                "options": dict(self.options),
                "totals": list(self.totals),
                "side_totals": self.side_totals(),
                "rounds_played": len(self.history),
                "history": deepcopy(self.history),
                "match_over": self.finished,
                "needs_round": self.needs_round,
            }
        )
        out.setdefault("penalties", [0] * len(self.players))
        return out
