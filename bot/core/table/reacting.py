"""Reactions at a table (issue 37): who may send one, where it shows, and its button row.

A reaction (`bot.core.reactions.Reaction`) is no step of the game: it changes nothing stored,
keeps the turn's nonce (nobody's buttons go stale) and never makes a channel message of its own.
It is kept in memory with the open table (`LiveTable.reactions`: each seated person's newest
since the table's last committed step) and

- goes at once to the web pages of the table (`Core.watch_reactions`: table, seat, reaction),
  which show it beside the seat for a few seconds;
- is folded into the move log when the table's next step commits (`fold`: one line such as
  "Ayşe: 👏 · Can: Nice hand" before that step's moves), so the table message shows it on its
  next edit, on its normal cadence, and costs the chat no call of its own.

Only seated players react (a spectator's reaction is refused); the chat's `😀` button under the
turn buttons opens the picker (`picker`), a private answer only the presser sees.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core.codec import codec
from bot.core.errors import Refusal
from bot.core.i18n import t
from bot.core.messages import Button, Outgoing, OutKind
from bot.core.moves import React
from bot.core.reactions import REACTIONS, Reaction
from bot.core.table.session import Msg, TableSession, Who

if TYPE_CHECKING:
    from bot.core.table.live import LiveTable

__all__ = ["PICKER_ROW", "fold", "picker", "react", "reaction_row"]

PICKER_ROW = 4  # reactions per row of the chat's picker (two rows)


def fold(pending: dict[str, tuple[str, Reaction]]) -> Msg | None:
    """The reactions since the last step as one move-log line, oldest first (`name: reaction`,
    joined by ` · `), or None when there were none."""
    items = [
        Msg("reaction.by", {"name": name, "reaction": Msg(f"reaction.{reaction.value}", {})})
        for name, reaction in pending.values()
    ]
    if not items:
        return None
    line = items[-1]
    for item in reversed(items[:-1]):
        line = Msg("reaction.and", {"first": item, "rest": line})
    return line


async def react(live: LiveTable, who: Who, reaction: Reaction) -> int:
    """Keep `who`'s reaction at the table (their newest replaces their older one, and goes
    last); the index of their seat. Refused when they do not sit at the table or it is over."""
    async with live.lock:
        session = live.session
        index = session.find(who.player_id)
        if live.closed or session.phase == "closed":
            raise Refusal("err.no_table")
        if index is None:
            raise Refusal("err.react_not_seated")
        live.reactions.pop(who.user_id, None)
        live.reactions[who.user_id] = (session.seats[index].name, reaction)
        return index


def reaction_row(session: TableSession) -> tuple[Button, ...]:
    """The table message's row under the turn buttons: one `😀` that opens the picker."""
    return (_button(session, t(session.locale, "reaction.button"), React(None)),)


def picker(session: TableSession, who: Who) -> Outgoing:
    """The reactions to choose from, privately to a seated player (refused to anyone else)."""
    if session.find(who.player_id) is None:
        raise Refusal("err.react_not_seated")
    buttons = [
        _button(session, t(who.locale, f"reaction.{reaction.value}"), React(reaction))
        for reaction in REACTIONS
    ]
    rows = tuple(tuple(buttons[i : i + PICKER_ROW]) for i in range(0, len(buttons), PICKER_ROW))
    return Outgoing(
        OutKind.PRIVATE,
        t(who.locale, "reaction.pick"),
        user_id=who.user_id,
        table_id=str(session.table_id),
        buttons=rows,
    )


def _button(session: TableSession, label: str, move: React) -> Button:
    return Button(
        label=label, table_id=str(session.table_id), action=codec.code(move), nonce=session.nonce
    )
