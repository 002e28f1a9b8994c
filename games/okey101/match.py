"""A 101 Okey match: a fixed number of rounds (option `rounds`), the lowest total wins.

`Match101` follows the `Game` protocol by passing moves to the current round. Each round needs a
fresh seed: `start_round(seed)` deals it. When a round ends its scores (discard penalties and the
end-of-round score) are added to the totals; `payout(pool)` splits the chips once the match is over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from copy import deepcopy
from typing import Any

from games.base import Event, public
from games.okey.common import TileMatch
from games.okey101.round import Round101
from games.okey101.scoring import check_options, match_payout, side_totals, sides


class Match101(TileMatch[Round101]):
    """A sequence of 101 rounds with running totals and the final payout."""

    round_type = Round101

    def __init__(self, data: Mapping[str, Any]) -> None:
        """Load a match from `to_dict` output (start a new one with `Match101.new`)."""
        super().__init__(data)
        self.totals: list[int] = list(data["totals"])

    @classmethod
    def new(cls, players: Sequence[str], options: Mapping[str, Any] | None = None) -> Match101:
        """A match with no round dealt yet; options per `scoring.check_options`."""
        players = cls._seated(players, "a 101")
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
        return self._snapshot("okey101_match", {"totals": list(self.totals)})

    # --- totals and the end -------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """True when every round of the match has been played."""
        if self.round is not None and not self.round.finished:
            return False
        return len(self.history) >= int(self.options["rounds"])

    def side_totals(self) -> list[int]:
        """The totals that decide: each seat's, or each side's with partners (seats 0+2, 1+3)."""
        return side_totals(self.totals, self.options["partners"])

    def standing(self) -> list[int]:
        """Each seat's side total (its own without partners), lower is better."""
        totals = self.side_totals()
        sides_of = self.seat_sides()
        return [totals[sides_of[seat]] for seat in range(len(self.players))]

    def seat_sides(self) -> list[int]:
        """Each seat's side: with partners seats 0+2 are side 0 and 1+3 side 1."""
        out = [0] * len(self.players)
        for index, side in enumerate(sides(len(self.players), self.options["partners"])):
            for seat in side:
                out[seat] = index
        return out

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

    def _running_totals(self) -> list[int]:
        return list(self.totals)

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

    def view(self, seat: int | None) -> dict[str, Any]:
        """The current round's view plus the match totals; never a rack in `view(None)`."""
        return self._view(
            seat,
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
            },
        )
