"""Leaderboard queries: chips, Okey penalty totals, wins and 101 Okey's average round score,
for one community or everyone.

A community's players are those with a result recorded in it (a hand or match finished at one of
its tables). Each query reads one of migration 0004's indexes, the win tallies of 0005 or the 101
tallies of 0009 (docs/storage.md, "Leaderboards").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import sqlalchemy as sa

from storage.models import (
    game_results,
    okey101_tallies,
    okey_penalties,
    players,
    wallets,
    win_tallies,
)

Board = Literal["chips", "okey", "wins"]
BOARDS: tuple[Board, ...] = ("chips", "okey", "wins")


def board_query(
    kind: Board, limit: int, platform: str | None, community: str | None
) -> sa.Select[str, int]:
    """The select of ``(name, value)`` rows, best first; ties go to the lower player id.

    chips: wallet balance, most first (in a community: its players only). okey: the sum of the
    player's match penalty totals (in a community: of its matches), fewest first, only players
    with a match. wins: hands and matches that ended with more chips than they began, most first,
    only players with a win.
    """
    if kind == "chips":
        stmt = _chips(community)
    elif kind == "okey":
        stmt = _okey(community)
    else:
        stmt = _wins(community)
    if platform is not None:
        stmt = stmt.where(players.c.platform == platform)
    return stmt.limit(limit)


def _chips(community: str | None) -> sa.Select[str, int]:
    value = wallets.c.balance
    stmt = (
        sa.select(players.c.name, value)
        .join(wallets, wallets.c.player_id == players.c.id)
        .order_by(value.desc(), players.c.id)
    )
    if community is None:
        return stmt
    # one probe of (community, player_id) per player: no pass over the community's results
    played_here = (
        sa.select(sa.literal(1))
        .where(game_results.c.community == community, game_results.c.player_id == players.c.id)
        .exists()
    )
    return stmt.where(played_here)


def _okey(community: str | None) -> sa.Select[str, int]:
    value = sa.func.sum(okey_penalties.c.points)
    totals = sa.select(okey_penalties.c.player_id, value.label("value"))
    if community is not None:
        totals = totals.where(okey_penalties.c.community == community)
    return _ranked(totals.group_by(okey_penalties.c.player_id).subquery(), ascending=True)


def _wins(community: str | None) -> sa.Select[str, int]:
    return _ranked(_per_player(win_tallies, community, value="wins"), ascending=False)


def _per_player(table: sa.Table, community: str | None, **columns: str) -> sa.Subquery:
    """Each player's tally (storage/tallies.py) ``columns`` (label: column name): a community's
    rows through its index; everyone's add up each player's communities, a few rows per player
    whatever the number of results."""
    if community is not None:
        picked = [table.c[name].label(label) for label, name in columns.items()]
        return (
            sa.select(table.c.player_id, *picked).where(table.c.community == community).subquery()
        )
    summed = [sa.func.sum(table.c[name]).label(label) for label, name in columns.items()]
    return sa.select(table.c.player_id, *summed).group_by(table.c.player_id).subquery()


def _ranked(per_player: sa.Subquery, *, ascending: bool) -> sa.Select[str, int]:
    value = per_player.c.value
    return (
        sa.select(players.c.name, value)
        .join(per_player, per_player.c.player_id == players.c.id)
        .order_by(value.asc() if ascending else value.desc(), players.c.id)
    )


# fewer rounds than this say little about a player: they are left off the 101 board
MIN_OKEY101_ROUNDS = 10


@dataclass(frozen=True)
class Okey101Standing:
    """A player's line on the 101 board: their rounds and the scores of those rounds added up."""

    name: str
    rounds: int
    penalty: int

    @property
    def average(self) -> float:
        """The average score per round (lower is better; a finish scores below zero)."""
        return self.penalty / self.rounds


def okey101_query(
    limit: int, platform: str | None, community: str | None, min_rounds: int
) -> sa.Select[str, int, int]:
    """The select of ``(name, rounds, penalty)`` rows of players with at least ``min_rounds``
    101 rounds (in a community: played there), lowest average score per round first; at an
    equal average more rounds first, then the lower player id."""
    totals = _per_player(okey101_tallies, community, rounds="rounds", penalty="penalty")
    average = sa.cast(totals.c.penalty, sa.Float) / totals.c.rounds
    stmt = (
        sa.select(players.c.name, totals.c.rounds, totals.c.penalty)
        .join(totals, totals.c.player_id == players.c.id)
        .where(totals.c.rounds >= min_rounds)
        .order_by(average, totals.c.rounds.desc(), players.c.id)
    )
    if platform is not None:
        stmt = stmt.where(players.c.platform == platform)
    return stmt.limit(limit)
