"""Button ids ↔ Telegram callback data, which may hold at most 64 bytes.

Data is the core's `Button.custom_id` (`table:action:nonce`), optionally followed by `|`-separated
extras the adapter adds for its own pickers: `|40` (a chosen amount), `|~Ah` (toggle a card in the
draw picker) or `|=` (confirm the picked cards).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass

MAX_CALLBACK_BYTES = 64
LONG_PREFIX = "#"
SEP = "|"
TOGGLE = "~"
CONFIRM = "="


@dataclass(frozen=True)
class Pressed:
    """What a callback names: the table, action and turn nonce, plus the adapter's extras."""

    table_id: str
    action: str
    nonce: str
    args: tuple[str, ...] = ()
    local: str | None = None  # "toggle" or "confirm" for the draw picker; None for the core

    @property
    def custom_id(self) -> str:
        """The core's button id this press came from."""
        return f"{self.table_id}:{self.action}:{self.nonce}"


class CallbackCodec:
    """Encodes button ids (plus extras) as callback data and decodes them back.

    Data that fits in 64 bytes travels as it is, so any bot process can decode it. Longer data is
    replaced by a short digest token remembered here (the most recent `capacity` of them); the core
    still checks the table, action and nonce of whatever comes back, so a forged or forgotten token
    only ever gets a refusal.
    """

    def __init__(self, capacity: int = 20_000) -> None:
        self._capacity = capacity
        self._long: OrderedDict[str, str] = OrderedDict()

    def encode(self, custom_id: str, *extras: str) -> str:
        """Callback data for a button id and extras; always 1-64 bytes."""
        data = SEP.join((custom_id, *extras))
        if len(data.encode()) <= MAX_CALLBACK_BYTES and not data.startswith(LONG_PREFIX):
            return data
        token = LONG_PREFIX + hashlib.sha256(data.encode()).hexdigest()[:32]
        self._long[token] = data
        self._long.move_to_end(token)
        while len(self._long) > self._capacity:
            self._long.popitem(last=False)
        return token

    def decode(self, data: str | None) -> Pressed | None:
        """What callback data names; None when it is not one of ours."""
        if not data:
            return None
        if data.startswith(LONG_PREFIX):
            found = self._long.get(data)
            if found is None:
                return None
            data = found
        custom_id, *extras = data.split(SEP)
        parts = custom_id.split(":")
        if len(parts) < 3:
            return None
        table_id, action, nonce = parts[0], ":".join(parts[1:-1]), parts[-1]
        if not (table_id and action and nonce) or any(not extra for extra in extras):
            return None
        if extras and extras[0] == CONFIRM:
            return Pressed(table_id, action, nonce, (), "confirm") if len(extras) == 1 else None
        if extras and extras[0].startswith(TOGGLE):
            if len(extras) != 1 or len(extras[0]) < 2:
                return None
            return Pressed(table_id, action, nonce, (extras[0][1:],), "toggle")
        return Pressed(table_id, action, nonce, tuple(extras))
