"""Read-only questions the chat adapters ask the core (and of its answers), answered the same way
on every platform."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.core.api import CoreApi
from bot.core.i18n import normalize_locale
from bot.core.messages import Outgoing, OutKind, Picker
from bot.logs import kv

log = logging.getLogger("bot.adapters")


async def chosen_locale(core: CoreApi, platform: str, user_id: str) -> str | None:
    """The user's `/lang` choice (`tr`/`en`), else None.

    A failing look-up only costs the choice: the adapter must still answer, in the platform's
    language.
    """
    try:
        return normalize_locale(await core.locale_of(platform, user_id))
    except Exception:
        log.exception(kv(event="locale_lookup_failed", platform=platform, user=user_id))
        return None


def own_picker(items: Sequence[Outgoing], user_id: str) -> Picker | None:
    """The cards or tiles the core's answer shows `user_id` as their own (`Outgoing.picker` of
    their private items, the newest), or None when it shows none (no hand, a folded one)."""
    pickers = [
        item.picker
        for item in items
        if item.kind is OutKind.PRIVATE and item.user_id == user_id and item.picker is not None
    ]
    return pickers[-1] if pickers else None
