"""An open table as the service holds it (`LiveTable`), and the small pure helpers of running
one: turn nonces, the table id a button names, what the action log keeps of a step."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Mapping
from typing import Any

from bot.core.reactions import Reaction
from bot.core.table.session import Step, TableSession
from storage import TableRecord


class LostRace(Exception):
    """Another process committed the table first; its state has been reloaded."""


def new_nonce() -> str:
    """A short random turn nonce (6 hex digits)."""
    return secrets.token_hex(3)


class LiveTable:
    """An open table held in memory: its record, last committed snapshot, session and lock."""

    def __init__(self, record: TableRecord, session: TableSession) -> None:
        self.id = record.id
        self.platform = record.platform
        self.channel_id = record.channel_id
        self.game = record.game
        self.version = record.version
        self.snapshot: dict[str, Any] = record.snapshot
        self.session = session
        self.lock = asyncio.Lock()
        self.closed = False
        self.told = record.version  # the newest version known (LISTEN/NOTIFY): above, read first
        # reactions since the last committed step: user id -> (name, reaction), newest last;
        # folded into the move log by the next commit (`bot.core.table.reacting`)
        self.reactions: dict[str, tuple[str, Reaction]] = {}


def table_number(table_id: str) -> int | None:
    """The table id a button carries as a number, or None for a forged one (other scripts'
    digits, absurdly long, or 0: ids start at 1)."""
    if not (table_id.isascii() and table_id.isdigit()) or len(table_id) > 18:
        return None
    return int(table_id) or None


def safe_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """IllegalAction parameters usable in a translated text (never a card list)."""
    return {k: v for k, v in params.items() if isinstance(v, int | str) and k != "reason"}


def logged_action(step: Step) -> dict[str, Any]:
    """What the action log keeps of a step: its action, and the setups of the hands or rounds
    it dealt (`deals`)."""
    action = step.action or {"kind": "update"}
    return {**action, "deals": step.deals} if step.deals else action
