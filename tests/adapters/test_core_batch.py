"""`bot.adapters.batch.coalesce`: only the newest edit of each table is written, and it is posted
anew when any edit it replaces was (an announcement came before it in the batch)."""

from __future__ import annotations

from bot.adapters.batch import coalesce
from bot.core.messages import Outgoing, OutKind


def edit(table: str, text: str, fresh: bool = False) -> Outgoing:
    return Outgoing(OutKind.EDIT_TABLE, text, channel_id="c", table_id=table, fresh=fresh)


def test_coalesce_keeps_the_newest_edit_and_makes_it_fresh_when_an_older_one_was():
    news = Outgoing(OutKind.PUBLIC, "hand 2 starts", channel_id="c", table_id="1")
    items = [news, edit("1", "a", fresh=True), edit("2", "x"), edit("1", "b"), edit("1", "c")]
    out = coalesce(items)
    assert [(i.text, i.fresh) for i in out] == [("hand 2 starts", False), ("x", False), ("c", True)]


def test_coalesce_leaves_edits_fresh_only_where_they_were():
    out = coalesce([edit("1", "a"), edit("2", "x", fresh=True), edit("1", "b")])
    assert [(i.text, i.fresh) for i in out] == [("x", True), ("b", False)]
