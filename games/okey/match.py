"""An Okey match: 1 or 3 rounds (penalty preset) or rounds until someone reaches 0 (classic).

`OkeyMatch` follows the `Game` protocol by passing moves to the current round, so the bot can keep
one object per table. Each round needs a fresh seed: `start_round(seed)` deals it (the bot draws
the seed with `games.base.new_seed` and posts its hash). When a round ends the match adds its
charges to the totals; `payout(pool)` splits the chips once the match is over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from copy import deepcopy
from typing import Any

from games.base import Event, public
from games.okey.common import TileMatch
from games.okey.round import OkeyRound
from games.okey.scoring import (
    PRESETS,
    check_options,
    payout,
    payout_threshold,
    totals_from_charges,
)


class OkeyMatch(TileMatch[OkeyRound]):
    """A sequence of Okey rounds with running totals and the final payout."""

    round_type = OkeyRound

    def __init__(self, data: Mapping[str, Any]) -> None:
        """Load a match from `to_dict` output (start a new one with `OkeyMatch.new`)."""
        super().__init__(data)
        self.charged: list[int] = list(data["charged"])

    @classmethod
    def new(cls, players: Sequence[str], options: Mapping[str, Any] | None = None) -> OkeyMatch:
        """A match with no round dealt yet; options per `check_options`."""
        players = cls._seated(players, "an Okey")
        return cls(
            {
                "players": players,
                "options": check_options(options),
                "charged": [0] * len(players),
                "history": [],
                "round": None,
            }
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot, the current round included."""
        return self._snapshot("okey_match", {"charged": list(self.charged)})

    # --- totals and the end -------------------------------------------------------------------

    @property
    def preset(self) -> str:
        """The scoring preset: "penalty" or "classic"."""
        preset: str = self.options["preset"]
        return preset

    @property
    def totals(self) -> list[int]:
        """Penalty points per seat, or classic points left."""
        return totals_from_charges(self.preset, self.charged)

    @property
    def finished(self) -> bool:
        """True when the match is over (and no round is being played)."""
        if self.round is not None and not self.round.finished:
            return False
        if PRESETS[self.preset].counts_down:
            return min(self.totals) == 0
        rounds: int = self.options["rounds"]
        return len(self.history) >= rounds

    def winners(self) -> list[int]:
        """Seats with the best total (lowest penalty, or most classic points left)."""
        best = min(self._ranked())
        return [s for s, c in enumerate(self._ranked()) if c == best]

    def standing(self) -> list[int]:
        """Each seat's total as the match ranks it (`winners`), lower is better."""
        return self._ranked()

    def _ranked(self) -> list[int]:
        # lower is better in both presets; classic charges beyond the 20 points a player has
        # are capped, so everyone at 0 points left ranks the same
        start = PRESETS[self.preset].start
        return [min(c, start) for c in self.charged] if start else list(self.charged)

    def payout(self, pool: int) -> list[int]:
        """Chips for each seat from a pool of every player's buy-in; sums to `pool` exactly."""
        if not self.finished:
            raise ValueError("the match is not over yet")
        threshold = payout_threshold(self.preset, self.options["rounds"])
        return payout(self._ranked(), pool, threshold)

    # --- rounds -------------------------------------------------------------------------------

    def _running_totals(self) -> list[int]:
        return self.totals

    def _record(self) -> list[Event]:
        assert self.round is not None and self.round.finished
        for seat, charge in enumerate(self.round.penalties):
            self.charged[seat] += charge
        result = self.round.result or {}
        self.history.append(
            {
                "reason": result.get("reason"),
                "winner": result.get("winner"),
                "penalties": list(self.round.penalties),
                "seed": self.round.seed.hex(),
            }
        )
        events = [public("match_totals", totals=self.totals, rounds_played=len(self.history))]
        if self.finished:
            events.append(public("match_over", totals=self.totals, winners=self.winners()))
        return events

    # --- the protocol, passed to the current round --------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """The current round's view plus the match totals; never a rack in `view(None)`."""
        return self._view(
            seat,
            {
                "game": "okey",
                "players": list(self.players),
                "options": dict(self.options),
                "totals": self.totals,
                "rounds_played": len(self.history),
                # a round's seed is public once that round is over
                "history": deepcopy(self.history),
                "match_over": self.finished,
                "needs_round": self.needs_round,
            },
        )
