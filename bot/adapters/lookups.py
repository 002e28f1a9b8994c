"""Read-only questions the chat adapters ask the core, answered the same way on every platform."""

from __future__ import annotations

import logging
from typing import Any

from bot.core.i18n import normalize_locale
from bot.logs import kv

log = logging.getLogger("bot.adapters")


async def chosen_locale(core: Any, platform: str, user_id: str) -> str | None:
    """The user's `/lang` choice (`tr`/`en`) when the core can look it up, else None.

    A failing look-up only costs the choice: the adapter must still answer, in the platform's
    language. Cores without `locale_of` (narrow cores in adapter tests) simply have no choice.
    """
    lookup = getattr(core, "locale_of", None)
    if not callable(lookup):
        return None
    try:
        return normalize_locale(await lookup(platform, user_id))
    except Exception:
        log.exception(kv(event="locale_lookup_failed", platform=platform, user=user_id))
        return None
