"""The Store's skill ratings: a player's rating in a game, the rating board and the ratings of
a table's seats (``Store`` inherits them). The writes happen only inside ``Store.commit``
(storage/ratings.py, docs/ratings.md)."""

from __future__ import annotations

from collections.abc import Collection

from storage import ratings as rating_ops
from storage import validators as check
from storage.ratings import RatingRecord
from storage.store_base import StoreBase


class StoreRatings(StoreBase):
    """Reads of the ``ratings`` table."""

    async def rating(
        self, player_id: int, game: str, community: str | None = None
    ) -> RatingRecord | None:
        """The player's rating in ``game`` in ``community`` (None: over every community), or
        None when no rated result of theirs counted there yet."""
        check.positive_int(player_id, "player id")
        game = check.text(game, "game", 32)
        key = rating_ops.community_key(community)
        async with self._writer.read() as conn:
            return await rating_ops.rating_of(conn, player_id, game, key)

    async def rating_board(
        self,
        game: str,
        community: str | None = None,
        limit: int = 10,
        platform: str | None = None,
    ) -> list[RatingRecord]:
        """The rating board of ``game``: the highest conservative ratings (``mu - 3 sigma``)
        first, ties to the higher player id; in ``community`` or (None) over every community;
        ``platform``: its players only. Read in order from
        ``ix_ratings_game_community_conservative``."""
        check.limit(limit)
        game = check.text(game, "game", 32)
        key = rating_ops.community_key(community)
        async with self._writer.read() as conn:
            return await rating_ops.board(conn, game, key, limit, platform)

    async def seat_ratings(
        self, player_ids: Collection[int], game: str, community: str | None = None
    ) -> dict[int, RatingRecord]:
        """The ratings of ``player_ids`` in ``game`` and ``community`` (a table's seats, for
        their badges); players without one are left out."""
        ids = sorted({check.positive_int(p, "player id") for p in player_ids})
        game = check.text(game, "game", 32)
        key = rating_ops.community_key(community)
        if not ids:
            return {}
        async with self._writer.read() as conn:
            return await rating_ops.ratings_of(conn, ids, game, key)
