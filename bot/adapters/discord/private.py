"""The private messages the adapter may still edit: one user's current message of a slot (their
hand or rack of one hand or round), and their newest message with turn buttons per table.

A direct message can be edited for ever; an ephemeral reply only through its interaction's
token, which Discord honours for 15 minutes (`EPHEMERAL_EDITABLE` leaves a margin). A slot's
newer text may replace a message only where the player still sees it: their DM, or an ephemeral
reply of the interaction being answered (or the one whose component they just pressed); an
ephemeral reply of an earlier interaction may be scrolled away or dismissed, so the newer text
goes out as a new message and the older one only loses its buttons. When a newer
message takes a slot's or a table's place, or the turn moves on, the older one's buttons must
go: `remember` and `stale` hand those back to the caller, who edits them (off the answer path).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

EPHEMERAL_EDITABLE = 14 * 60.0  # seconds; Discord's interaction tokens last 15 minutes


@dataclass
class Sent:
    """A private message that was sent: the discord.py message (with an async `edit`), when it
    stops being editable (None: never), the table and turn nonce of its buttons, if any, and
    the interaction it is an ephemeral reply of (None: a direct message)."""

    message: Any
    editable_until: float | None
    table_id: str | None = None
    nonce: str | None = None
    interaction: Any = None

    def seen_in(self, interaction: Any) -> bool:
        """Whether the player sees this message while `interaction` (theirs, or None when the
        bot speaks unasked) is answered: a DM always; an ephemeral reply only when it belongs to
        that interaction or carries the component it came from."""
        if self.interaction is None:
            return True
        if interaction is None:
            return False
        if self.interaction is interaction or _id(self.interaction) == _id(interaction):
            return True
        source = _id(getattr(interaction, "message", None))
        return source is not None and source == _id(self.message)

    def editable(self, now: float) -> bool:
        """Whether Discord still lets the bot edit it."""
        return self.editable_until is None or now < self.editable_until


def _id(thing: Any) -> Any:
    """A discord.py object's id, or None."""
    return getattr(thing, "id", None)


class PrivateMessages:
    """Current private messages per (user, slot) and per (user, table) with buttons."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.slots: dict[tuple[str, str], Sent] = {}
        self.buttons: dict[tuple[str, str], Sent] = {}

    def ephemeral_until(self) -> float:
        """When an ephemeral reply sent now stops being editable (a DM never does: None)."""
        return self.clock() + EPHEMERAL_EDITABLE

    def of_slot(self, user_id: str, slot: str | None, interaction: Any = None) -> Sent | None:
        """The user's message of `slot` when it can still be edited and the user sees it while
        `interaction` is answered (see `Sent.seen_in`)."""
        if slot is None:
            return None
        sent = self.slots.get((user_id, slot))
        if sent is None or not sent.editable(self.clock()) or not sent.seen_in(interaction):
            return None
        return sent

    def remember(self, user_id: str, sent: Sent, slot: str | None) -> list[Sent]:
        """Note a message just sent (or edited) for the user; returns the older messages whose
        buttons it supersedes (same slot, or buttons of the same table)."""
        retired: list[Sent] = []
        if slot is not None:
            old = self.slots.get((user_id, slot))
            self.slots[(user_id, slot)] = sent
            if old is not None and old.message is not sent.message and old.nonce is not None:
                retired.append(old)
        if sent.table_id is not None and sent.nonce is not None:
            old = self.buttons.get((user_id, sent.table_id))
            self.buttons[(user_id, sent.table_id)] = sent
            if old is not None and old.message is not sent.message and old not in retired:
                retired.append(old)
        return [r for r in retired if r.editable(self.clock())]

    def holders(self, table_id: str) -> list[str]:
        """The users with a message of the table's buttons."""
        return [user_id for user_id, table in self.buttons if table == table_id]

    def stale(self, user_id: str, table_id: str, nonce: str) -> Sent | None:
        """Forget and return the user's message of the table's buttons when they are not of the
        turn `nonce` and can still be edited; None otherwise."""
        sent = self.buttons.get((user_id, table_id))
        if sent is None or sent.nonce == nonce:
            return None
        del self.buttons[(user_id, table_id)]
        sent.nonce = None
        return sent if sent.editable(self.clock()) else None

    def forget_table(self, table_id: str) -> None:
        """Drop everything about a closed table."""
        prefix = f"{table_id}:"
        self.slots = {k: v for k, v in self.slots.items() if not k[1].startswith(prefix)}
        self.buttons = {k: v for k, v in self.buttons.items() if k[1] != table_id}

    def prune(self) -> None:
        """Drop ephemeral messages that can no longer be edited."""
        now = self.clock()
        self.slots = {k: v for k, v in self.slots.items() if v.editable(now)}
        self.buttons = {k: v for k, v in self.buttons.items() if v.editable(now)}
