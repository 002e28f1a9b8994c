"""The rating maths: openskill's Weng-Lin Plackett-Luce model, and nothing else.

It lives in ``storage`` because the ratings are updated inside ``Store.commit``'s transaction
(storage/ratings.py) and the import contracts let storage import neither ``bot`` nor ``games``;
the module is pure (no database, no clock), so the core may import it too for the shown number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
MU = float(MODEL.mu)
SIGMA = float(MODEL.sigma)

SHOWN_BASE = 1000
SHOWN_SCALE = 40
PROVISIONAL_GAMES = 10  # fewer rated games than this: the rating is shown as provisional


@dataclass(frozen=True)
class Skill:
    """A player's belief of skill: the mean ``mu`` and its uncertainty ``sigma``."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def conservative(self) -> float:
        """``mu - 3 sigma``: a skill the player very probably has at least (the board's order)."""
        return self.mu - 3 * self.sigma


def rate(teams: Sequence[Sequence[Skill]], ranks: Sequence[float]) -> list[list[Skill]]:
    """The teams' skills after one result; ``ranks[i]`` is team ``i``'s place, lower is
    better, equal ranks a tie. A team of one is a player on their own."""
    if len(teams) != len(ranks) or len(teams) < 2:
        raise ValueError("a rated result needs two or more teams, each with a rank")
    before = [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams]
    after = MODEL.rate(before, ranks=list(ranks))
    return [[Skill(float(r.mu), float(r.sigma)) for r in team] for team in after]


def shown(conservative: float) -> int:
    """The rating players see: ``1000 + 40 * (mu - 3 sigma)``, rounded (a new player: 1000)."""
    return round(SHOWN_BASE + SHOWN_SCALE * conservative)


def provisional(games: int) -> bool:
    """True while the player has fewer than ``PROVISIONAL_GAMES`` rated games."""
    return games < PROVISIONAL_GAMES
