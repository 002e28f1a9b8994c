"""Read-only look-ups of stored players that the `Store` facade has no method for.

`chosen_locale` reads the language a player picked with `/lang` without creating the player or
writing anything (`Store.player` is get-or-create, so it cannot be used for a look-up).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sqlalchemy as sa

from storage.db import read
from storage.models import players

if TYPE_CHECKING:
    from storage import Store


async def chosen_locale(store: Store, platform: str, user_id: str) -> str | None:
    """The locale stored for this platform user (their `/lang` choice), or None when they have
    none or are not a player yet; raises `storage.Unavailable` when the database is down."""
    query = sa.select(players.c.locale).where(
        players.c.platform == platform, players.c.user_id == user_id
    )
    async with read(store.engine) as conn:
        return await conn.scalar(query)
