"""Plain values the storage API takes and returns, and the account names of the chip ledger."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from storage.errors import InvalidRequest

HOUSE = "house"
"""The account that issues chips (daily grants); allowed below zero."""
COMPUTERS = "computers"
"""The house's account for computer players: it tops their wallets up to their bankroll and takes
back what they win beyond it, so its balance is what people have won from (below zero) or lost
to the computer players; allowed below zero like the house."""
HOUSE_ACCOUNTS = (HOUSE, COMPUTERS)

TABLE_STATUSES = ("open", "closed")
TOURNAMENT_STATUSES = ("registering", "running", "finished", "cancelled")
TOURNAMENT_KINDS = ("okey", "turkish", "acik")
ACCOUNT_KINDS = ("player", "table", "tournament")


def wallet(player_id: int) -> str:
    """The account name of a player's wallet: ``player:<id>``."""
    return f"player:{_positive_id(player_id, 'player id')}"


def escrow(table_id: int) -> str:
    """The account name of a table's escrow (the chips on the table): ``table:<id>``."""
    return f"table:{_positive_id(table_id, 'table id')}"


def tournament_escrow(tournament_id: int) -> str:
    """The account name of a tournament's entry fees: ``tournament:<id>``."""
    return f"tournament:{_positive_id(tournament_id, 'tournament id')}"


def parse_account(account: object) -> tuple[str, int | None]:
    """Split an account name into ``("house", None)``, ``("computers", None)``, ``("player", id)``,
    ``("table", id)`` or ``("tournament", id)``."""
    if account in HOUSE_ACCOUNTS:
        return str(account), None
    if isinstance(account, str):
        kind, sep, number = account.partition(":")
        if sep and kind in ACCOUNT_KINDS and number.isdigit() and number[0] != "0":
            return kind, int(number)
    raise InvalidRequest(
        f"bad account {account!r}: expected 'house', 'computers', 'player:<id>', 'table:<id>'"
        " or 'tournament:<id>'"
    )


def _positive_id(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise InvalidRequest(f"{what} must be a positive integer, got {value!r}")
    return value


def check_amount(amount: object) -> int:
    """Return ``amount`` if it is a positive int, else raise InvalidRequest."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise InvalidRequest(f"amount must be a positive integer, got {amount!r}")
    return amount


@dataclass(frozen=True)
class Transfer:
    """Move ``amount`` chips from account ``src`` to account ``dst`` (amount > 0)."""

    src: str
    dst: str
    amount: int
    reason: str

    def validate(self) -> None:
        """Raise InvalidRequest unless the accounts, the amount and the reason are well formed."""
        parse_account(self.src)
        parse_account(self.dst)
        if self.src == self.dst:
            raise InvalidRequest(f"a transfer needs two different accounts, got {self.src} twice")
        check_amount(self.amount)
        if not isinstance(self.reason, str) or not self.reason.strip():
            raise InvalidRequest("a transfer needs a reason")


@dataclass(frozen=True)
class ActionEntry:
    """One accepted action to append to a table's action log."""

    seat: int | None
    player_id: int | None
    action: dict[str, Any]
    at: datetime


@dataclass(frozen=True)
class ActionRecord:
    """A stored action log entry; ``seq`` counts from 1 per table."""

    table_id: int
    seq: int
    seat: int | None
    player_id: int | None
    action: dict[str, Any]
    at: datetime


@dataclass(frozen=True)
class PlayerRecord:
    """A player known on one platform; ``user_id`` is the platform's user id as text."""

    id: int
    platform: str
    user_id: str
    name: str
    locale: str | None
    tile_symbols: bool = False  # `/tiles symbols`: tiles marked with a shape per colour too


@dataclass(frozen=True)
class TableRecord:
    """A table with its latest snapshot; ``version`` grows by one with each commit.
    ``community``: the Discord server, Telegram group or "console" it plays in, or None."""

    id: int
    platform: str
    channel_id: str
    game: str
    options: dict[str, Any]
    status: str
    snapshot: dict[str, Any]
    version: int
    community: str | None = None


@dataclass(frozen=True)
class TournamentRecord:
    """A tournament with its latest snapshot; ``version`` grows by one with each commit.
    ``kind`` is ``okey``, ``turkish`` or ``acik``; ``status`` one of ``TOURNAMENT_STATUSES``."""

    id: int
    platform: str
    channel_id: str
    community: str | None
    kind: str
    status: str
    snapshot: dict[str, Any]
    version: int
    deadline: datetime | None = None


@dataclass(frozen=True)
class TableHead:
    """A table's identity, status and version without its snapshot: what a process reads to
    learn whether its copy of the table is still current (and where it plays: ``community``)."""

    id: int
    platform: str
    channel_id: str
    game: str
    status: str
    version: int
    community: str | None = None


@dataclass(frozen=True)
class GameResult:
    """One player's outcome of a hand or match (``chips_delta`` may be negative)."""

    player_id: int
    game: str
    chips_delta: int
    hand_id: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PenaltyEntry:
    """A player's Okey penalty total in one match; a later entry for the same match replaces it."""

    player_id: int
    points: int
    match_id: str


@dataclass(frozen=True)
class SeedRecord:
    """A hand's fair-shuffle commitment; ``seed_hex`` stays None until the hand ends."""

    hand_id: str
    table_id: int
    seed_hash: str
    seed_hex: str | None = None

    def validate(self) -> None:
        """Raise InvalidRequest unless the hash is hex sha256 and the seed (if any) matches it."""
        if not isinstance(self.hand_id, str) or not self.hand_id or len(self.hand_id) > 64:
            raise InvalidRequest(f"bad hand id {self.hand_id!r}")
        if not _is_hex(self.seed_hash, 64):
            raise InvalidRequest(f"seed hash of hand {self.hand_id} is not 64 hex digits")
        if self.seed_hex is not None:
            if not _is_hex(self.seed_hex, None):
                raise InvalidRequest(f"seed of hand {self.hand_id} is not hex")
            if hashlib.sha256(bytes.fromhex(self.seed_hex)).hexdigest() != self.seed_hash.lower():
                raise InvalidRequest(f"seed of hand {self.hand_id} does not match its hash")


def _is_hex(text: object, length: int | None) -> bool:
    if not isinstance(text, str) or (length is not None and len(text) != length):
        return False
    if len(text) % 2 or not text:
        return False
    try:
        bytes.fromhex(text)
    except ValueError:
        return False
    return True
