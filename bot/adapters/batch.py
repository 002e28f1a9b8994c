"""What every chat adapter does with a batch of the core's outgoing items before sending it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.core.messages import Outgoing, OutKind

ANSWERS = (OutKind.PUBLIC, OutKind.ERROR)


def coalesce(items: Sequence[Outgoing]) -> list[Outgoing]:
    """Drop every table edit that a later edit of the same table in the batch supersedes (a
    computer player's moves each bring one; only the newest state is worth writing). The edit
    kept is `fresh` (posted anew at the bottom) when any edit of that table in the batch was:
    an announcement came before it, and the table message must come after. A repeated identical
    answer (no table: a refusal, a text to the channel) is sent once."""
    last_edit: dict[str, int] = {}
    fresh: set[str] = set()
    for index, item in enumerate(items):
        if item.kind is OutKind.EDIT_TABLE and item.table_id is not None:
            last_edit[item.table_id] = index
            if item.fresh:
                fresh.add(item.table_id)
    out: list[Outgoing] = []
    answers: set[tuple[object, ...]] = set()
    for index, item in enumerate(items):
        if item.kind in ANSWERS and item.table_id is None:
            same = (item.kind, item.channel_id, item.user_id, item.text, item.picture)
            if same not in answers:
                answers.add(same)
                out.append(item)
        elif item.kind is not OutKind.EDIT_TABLE or item.table_id is None:
            out.append(item)
        elif last_edit[item.table_id] == index:
            keep_fresh = item.table_id in fresh and not item.fresh
            out.append(replace(item, fresh=True) if keep_fresh else item)
    return out
