"""Read queries behind `/history` and `/stats`: a player's recent results, their statistics per
game added up from `game_results.detail`, and their chip history (docs/storage.md, "History and
statistics").

Every query filters on `player_id` first (and the game), so it reads only that player's rows
through the indexes `game_results (player_id, game, at)` and `(player_id, at)`, never the whole
table or the action log. The statistics are one aggregate query per game, added up by the
database from the JSON detail (`json_extract` on SQLite, `->>` on PostgreSQL).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVarTuple

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from storage.models import game_results, players
from storage.sql import aware

_Columns = TypeVarTuple("_Columns")  # the column types of a select

POKER_STREETS = (1, 2, 3, 4)  # Türk pokeri: betting round 1 or 2; Açık poker: streets 1-4


@dataclass(frozen=True)
class HistoryEntry:
    """One of a player's results: a poker hand, an Okey round (no chips: `detail["kind"]` is
    `"round"`) or an Okey match (the chips and the match's penalty points)."""

    hand_id: str | None
    table_id: int
    game: str
    chips_delta: int
    detail: dict[str, Any]
    at: datetime


@dataclass(frozen=True)
class PlayerStats:
    """A player's statistics in one game, added up over all their stored results.

    Poker: `hands`, `won` (hands in which they won a pot), `chips_won` / `chips_lost` (the sums
    of their winning and losing hands' results), `biggest_pot` (the most they collected from the
    pots of one hand), `showdowns` / `showdowns_won`, `folded` (street or betting round -> hands
    folded there); Türk pokeri also `opened`, `passed`, `went_to_draw`, `cards_drawn`.
    Okey: `matches` (with their chips in `chips_won` / `chips_lost`), `rounds`, `rounds_won`,
    `okey_discards`, `pairs`, `penalty` (the sum over rounds) and `indicators`. 101 Okey: the
    same match and round counts, and `series_openings`, `pair_openings`, `by_hand`,
    `discard_penalties`.
    """

    game: str
    hands: int = 0
    won: int = 0
    chips_won: int = 0
    chips_lost: int = 0
    biggest_pot: int = 0
    showdowns: int = 0
    showdowns_won: int = 0
    opened: int = 0
    passed: int = 0
    went_to_draw: int = 0
    cards_drawn: int = 0
    folded: dict[int, int] = field(default_factory=dict)
    matches: int = 0
    rounds: int = 0
    rounds_won: int = 0
    okey_discards: int = 0
    pairs: int = 0
    penalty: int = 0
    indicators: int = 0
    # 101 Okey: rounds opened with melds, with pairs, finishes in the opening turn (elden), +101
    # discards; `rounds_won` counts finishes, `okey_discards` finishes with an okey, `penalty`
    # the sum of the round scores
    series_openings: int = 0
    pair_openings: int = 0
    by_hand: int = 0
    discard_penalties: int = 0

    @property
    def net(self) -> int:
        """Chips won minus chips lost."""
        return self.chips_won - self.chips_lost


CARRIED = "carried"  # `detail.kind` of a carried pot taken when a table ends: no hand played
ROUND = "round"  # `detail.kind` of one Okey or 101 round (a match's row has "match")

_detail = game_results.c.detail
_kind = _detail["kind"].as_string()
_is_round = sa.and_(_kind.is_not(None), _kind == ROUND)
_is_hand = sa.or_(_kind.is_(None), _kind != CARRIED)  # a poker row that is a hand played


def _flag(key: str) -> Any:
    """1 when the detail's boolean `key` is true, else 0 (also when the key is missing)."""
    return sa.case((_detail[key].as_boolean(), 1), else_=0)


def _count(condition: Any) -> Any:
    return sa.func.coalesce(sa.func.sum(sa.case((condition, 1), else_=0)), 0)


def _total(value: Any) -> Any:
    return sa.func.coalesce(sa.func.sum(value), 0)


_delta = game_results.c.chips_delta
_won_chips = sa.case((_delta > 0, _delta), else_=0)
_lost_chips = sa.case((_delta < 0, -_delta), else_=0)


def _poker_columns() -> list[Any]:
    folded = _detail["folded"].as_integer()
    drew = _detail["drew"].as_integer()
    # rows written before statistics were kept have no detail: a win is then a positive result
    won = sa.case(
        (_detail["won"].as_boolean().is_(None), sa.case((_delta > 0, 1), else_=0)),
        else_=_flag("won"),
    )
    return [
        sa.func.count().label("hands"),
        _total(won).label("won"),
        _total(_won_chips).label("chips_won"),
        _total(_lost_chips).label("chips_lost"),
        sa.func.coalesce(sa.func.max(_detail["pot_won"].as_integer()), 0).label("biggest_pot"),
        _total(_flag("showdown")).label("showdowns"),
        _total(_flag("showdown_won")).label("showdowns_won"),
        _total(_flag("opened")).label("opened"),
        _total(_flag("passed")).label("passed"),
        _count(drew.is_not(None)).label("went_to_draw"),
        _total(drew).label("cards_drawn"),
        *(_count(folded == street).label(f"folded_{street}") for street in POKER_STREETS),
    ]


def _okey_columns() -> list[Any]:
    match = sa.not_(_is_round)
    return [
        _count(match).label("matches"),
        _total(sa.case((match, _won_chips), else_=0)).label("chips_won"),
        _total(sa.case((match, _lost_chips), else_=0)).label("chips_lost"),
        _count(_is_round).label("rounds"),
        _total(sa.case((_is_round, _flag("won")), else_=0)).label("rounds_won"),
        _total(_flag("okey_discard")).label("okey_discards"),
        _total(_flag("pairs")).label("pairs"),
        _total(sa.case((_is_round, _detail["penalty"].as_integer()), else_=0)).label("penalty"),
        _total(_flag("indicator")).label("indicators"),
    ]


def _okey101_columns() -> list[Any]:
    match = sa.not_(_is_round)
    return [
        _count(match).label("matches"),
        _total(sa.case((match, _won_chips), else_=0)).label("chips_won"),
        _total(sa.case((match, _lost_chips), else_=0)).label("chips_lost"),
        _count(_is_round).label("rounds"),
        _total(sa.case((_is_round, _flag("won")), else_=0)).label("rounds_won"),
        _total(_flag("okey_finish")).label("okey_discards"),
        _total(_flag("series")).label("series_openings"),
        _total(_flag("pairs")).label("pair_openings"),
        _total(_flag("by_hand")).label("by_hand"),
        _total(sa.case((_is_round, _detail["discard_penalties"].as_integer()), else_=0)).label(
            "discard_penalties"
        ),
        _total(sa.case((_is_round, _detail["penalty"].as_integer()), else_=0)).label("penalty"),
    ]


_POKER_STATS = (
    sa.select(*_poker_columns())
    .where(game_results.c.player_id == sa.bindparam("player_id"))
    .where(game_results.c.game == sa.bindparam("game"))
    .where(_is_hand)
)
_OKEY_STATS = (
    sa.select(*_okey_columns())
    .where(game_results.c.player_id == sa.bindparam("player_id"))
    .where(game_results.c.game == "okey")
)
_OKEY101_STATS = (
    sa.select(*_okey101_columns())
    .where(game_results.c.player_id == sa.bindparam("player_id"))
    .where(game_results.c.game == "okey101")
)


async def player_stats(conn: AsyncConnection, player_id: int, game: str) -> PlayerStats:
    """The player's statistics in `game` (`turkish`, `acik`, `okey` or `okey101`): one aggregate
    query."""
    values: dict[str, Any]  # the counts by field name (the stats' keyword arguments)
    if game == "okey":
        row = (await conn.execute(_OKEY_STATS, {"player_id": player_id})).one()
        values = {k: int(v or 0) for k, v in row._mapping.items()}
        return PlayerStats(game, hands=values["rounds"], **values)
    if game == "okey101":
        row = (await conn.execute(_OKEY101_STATS, {"player_id": player_id})).one()
        values = {k: int(v or 0) for k, v in row._mapping.items()}
        return PlayerStats(game, hands=values["rounds"], **values)
    row = (await conn.execute(_POKER_STATS, {"player_id": player_id, "game": game})).one()
    values = {k: int(v or 0) for k, v in row._mapping.items()}
    folded = {s: values.pop(f"folded_{s}") for s in POKER_STREETS}
    return PlayerStats(game, folded={s: n for s, n in folded.items() if n}, **values)


def _for_games(
    stmt: sa.Select[*_Columns], player_id: int, games: Sequence[str] | None
) -> sa.Select[*_Columns]:
    stmt = stmt.where(game_results.c.player_id == player_id)
    if games:
        stmt = stmt.where(game_results.c.game.in_(list(games)))
    return stmt


async def recent(
    conn: AsyncConnection, player_id: int, games: Sequence[str] | None, limit: int
) -> list[HistoryEntry]:
    """The player's newest `limit` results in `games` (all games when None), newest first."""
    stmt = _for_games(
        sa.select(
            game_results.c.hand_id,
            game_results.c.table_id,
            game_results.c.game,
            game_results.c.chips_delta,
            game_results.c.detail,
            game_results.c.at,
        ),
        player_id,
        games,
    )
    stmt = stmt.order_by(game_results.c.at.desc(), game_results.c.id.desc()).limit(limit)
    return [
        HistoryEntry(
            hand_id=row.hand_id,
            table_id=row.table_id,
            game=row.game,
            chips_delta=int(row.chips_delta),
            detail=dict(row.detail or {}),
            at=aware(row.at),
        )
        for row in await conn.execute(stmt)
    ]


async def chip_history(
    conn: AsyncConnection, player_id: int, games: Sequence[str] | None, limit: int
) -> list[int]:
    """The chip results of the player's last `limit` hands or Okey matches in `games` (all when
    None), oldest first; Okey rounds (which move no chips) are left out."""
    stmt = _for_games(sa.select(game_results.c.chips_delta), player_id, games)
    stmt = stmt.where(sa.or_(_kind.is_(None), _kind != ROUND))
    stmt = stmt.order_by(game_results.c.at.desc(), game_results.c.id.desc()).limit(limit)
    found: sa.ScalarResult[int] = await conn.scalars(stmt)
    deltas = [int(d) for d in found]
    return deltas[::-1]


async def find_players(
    conn: AsyncConnection, platform: str, text: str, limit: int = 5
) -> list[tuple[int, str, str]]:
    """Players of `platform` whose user id is `text` or whose name is `text` (ignoring case):
    `(id, user id, name)`, the user-id match first. Two index probes: the unique
    `(platform, user_id)` and `(platform, lower(name))` of migration 0007 (an `OR` of both
    could make the planner scan the platform's rows)."""
    wanted = text.strip()
    columns = (players.c.id, players.c.user_id, players.c.name)
    by_id = sa.select(*columns).where(players.c.platform == platform, players.c.user_id == wanted)
    by_name = (
        sa.select(*columns)
        .where(
            players.c.platform == platform,
            sa.func.lower(players.c.name) == sa.func.lower(wanted),
        )
        .order_by(players.c.id)
        .limit(limit)
    )
    found = [(r.id, r.user_id, r.name) for r in await conn.execute(by_id)]
    seen = {row[0] for row in found}
    found += [(r.id, r.user_id, r.name) for r in await conn.execute(by_name) if r.id not in seen]
    return found[:limit]


async def played_in(conn: AsyncConnection, player_id: int, table_id: int, hand_id: str) -> bool:
    """True when the player has a result of this hand (or Okey round) of this table: read
    through `game_results (player_id, at)`, the player's own rows only."""
    stmt = (
        sa.select(game_results.c.id)
        .where(
            game_results.c.player_id == player_id,
            game_results.c.table_id == table_id,
            game_results.c.hand_id == hand_id,
        )
        .limit(1)
    )
    return (await conn.execute(stmt)).first() is not None
