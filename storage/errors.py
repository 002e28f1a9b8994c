"""The errors the storage layer raises; each carries a clear English message."""

from __future__ import annotations


class StorageError(Exception):
    """Base of every storage error; nothing was written when one is raised."""


class Unavailable(StorageError):
    """The database cannot be reached or stayed locked too long; try again later."""


class Busy(Unavailable):
    """Another connection held SQLite's write lock for this write's whole budget (``seconds``),
    or a timer's write gave way to a player's (``yielded``); nothing was written, try again."""

    def __init__(self, seconds: float, *, yielded: bool = False) -> None:
        why = "gave way to a player's write" if yielded else f"waited {seconds:g} s"
        super().__init__(f"the database is busy (another writer holds it; {why})")
        self.seconds = seconds
        self.yielded = yielded


class NotFound(StorageError):
    """A player, table or other record does not exist."""


class InvalidRequest(StorageError, ValueError):
    """The arguments are malformed (bad account name, non-positive amount, bad seed...)."""


class StaleVersion(StorageError):
    """A commit named a table version that is no longer current (someone else wrote first)."""

    def __init__(self, table_id: int, expected: int, current: int) -> None:
        super().__init__(
            f"table {table_id} is at version {current}, not {expected}; reload it and retry"
        )
        self.table_id = table_id
        self.expected = expected
        self.current = current


class InsufficientFunds(StorageError):
    """A transfer would take an account other than the house below zero."""

    def __init__(self, account: str, balance: int, needed: int) -> None:
        super().__init__(f"account {account} holds {balance} chips but {needed} are needed")
        self.account = account
        self.balance = balance
        self.needed = needed


class TableClosed(StorageError):
    """The table is closed: no more play, buy-ins or cash-outs."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} is closed")
        self.table_id = table_id


class ChannelBusy(StorageError):
    """The channel already has an open table."""

    def __init__(self, platform: str, channel_id: str, table_id: int) -> None:
        super().__init__(f"channel {platform}:{channel_id} already has open table {table_id}")
        self.table_id = table_id


class TournamentOver(StorageError):
    """The tournament is finished or cancelled: its state and fees no longer change."""

    def __init__(self, tournament_id: int) -> None:
        super().__init__(f"tournament {tournament_id} is over")
        self.tournament_id = tournament_id


class CommunityFull(StorageError):
    """A community already has as many open tables, live tournaments or seated computer
    players (``what``: ``tables``, ``tournaments``, ``computers``) as its limit allows."""

    def __init__(self, community: str, what: str, most: int) -> None:
        super().__init__(f"community {community} already has the most {what} allowed ({most})")
        self.community = community
        self.what = what
        self.most = most
