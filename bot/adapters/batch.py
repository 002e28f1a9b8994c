"""What every chat adapter does with a batch of the core's outgoing items before sending it."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.messages import Outgoing, OutKind


def coalesce(items: Sequence[Outgoing]) -> list[Outgoing]:
    """Drop every table edit that a later edit of the same table in the batch supersedes (a
    computer player's moves each bring one; only the newest state is worth writing)."""
    last_edit: dict[str, int] = {}
    for index, item in enumerate(items):
        if item.kind is OutKind.EDIT_TABLE and item.table_id is not None:
            last_edit[item.table_id] = index
    return [
        item
        for index, item in enumerate(items)
        if not (
            item.kind is OutKind.EDIT_TABLE
            and item.table_id is not None
            and last_edit[item.table_id] != index
        )
    ]
