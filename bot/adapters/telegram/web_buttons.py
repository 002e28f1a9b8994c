"""The buttons under a group's table message that open the live web table (the Mini App's
direct link, `t.me/<bot>/<app>?startapp=t<table>`: URL buttons, allowed in groups where web-app
buttons are not). A table's own message gets one ("Live table"); a tournament's living message
one per table playing now ("Table 3"), never one naming the tournament itself: the Mini App
opens tables only, and a start parameter naming a tournament would be refused.
"""

from __future__ import annotations

from collections.abc import Callable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.adapters.telegram.texts import text as adapter_text
from bot.core.messages import Outgoing
from bot.core.tournament.view import is_tournament_id

PER_ROW = 4  # table buttons on one row (a tournament's first stage may hold 16 tables)


def web_rows(
    item: Outgoing, link: Callable[[str], str | None], locale: str
) -> list[list[InlineKeyboardButton]]:
    """The rows of buttons opening `item`'s table (or its tournament's tables) on the web."""
    if item.table_id is None:
        return []
    if not is_tournament_id(item.table_id):
        url = link(item.table_id)
        label = adapter_text(locale, "web_table_button")
        return [] if url is None else [[InlineKeyboardButton(label, url=url)]]
    buttons = []
    for table in item.tables:
        url = link(table.table_id)
        if url is not None:
            label = adapter_text(locale, "web_table_numbered", number=table.number)
            buttons.append(InlineKeyboardButton(label, url=url))
    return [buttons[i : i + PER_ROW] for i in range(0, len(buttons), PER_ROW)]


def with_web_rows(
    markup: InlineKeyboardMarkup | None, rows: list[list[InlineKeyboardButton]]
) -> InlineKeyboardMarkup | None:
    """`markup` with `rows` added at the bottom (unchanged without any)."""
    if not rows:
        return markup
    kept = [list(row) for row in markup.inline_keyboard] if markup is not None else []
    return InlineKeyboardMarkup([*kept, *rows])
