"""The Store's argument checks: each raises InvalidRequest before anything is read or written.

Imported as ``check`` (``check.text(...)``); every function returns the value it accepted, in the
form the database stores (a deadline in UTC, an id as an int).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime

from storage.errors import InvalidRequest
from storage.records import (
    TABLE_STATUSES,
    TOURNAMENT_KINDS,
    TOURNAMENT_STATUSES,
    ActionEntry,
    GameResult,
    PenaltyEntry,
    SeedRecord,
    Transfer,
)

STATS_GAMES = ("turkish", "acik", "okey", "okey101")


def text(value: object, what: str, max_length: int) -> str:
    """``value`` if it is a non-blank string of at most ``max_length`` characters."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidRequest(f"{what} must be a non-empty string, got {value!r}")
    if len(value) > max_length:
        raise InvalidRequest(f"{what} is longer than {max_length} characters")
    return value


def optional_text(value: object, what: str, max_length: int) -> str | None:
    """None, or ``value`` checked by ``text``."""
    return None if value is None else text(value, what, max_length)


def idempotency_key(key: object) -> str | None:
    """None (no key), or a non-blank key of at most 200 characters."""
    if key is None:
        return None
    return text(key, "idempotency key", 200)


def json_object(value: object, what: str) -> None:
    """Refuse anything but a dict that JSON can store exactly (no NaN, no odd types)."""
    if not isinstance(value, dict):
        raise InvalidRequest(f"{what} must be a dict, got {type(value).__name__}")
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidRequest(f"{what} is not JSON-safe: {exc}") from None


def deadline(value: object) -> datetime | None:
    """An aware datetime in UTC (SQLite stores datetimes as naive text), or None."""
    if value is None:
        return None
    if not isinstance(value, datetime) or value.tzinfo is None:
        raise InvalidRequest(f"a deadline must be an aware datetime, got {value!r}")
    return value.astimezone(UTC)


def moment(value: object) -> datetime:
    """An aware datetime in UTC (a clock reading the caller passes); None is refused."""
    checked = deadline(value)
    if checked is None:
        raise InvalidRequest("now must be a datetime")
    return checked


def positive_int(value: object, what: str) -> int:
    """``value`` if it is an int (not a bool) above zero."""
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise InvalidRequest(f"{what} must be a positive integer, got {value!r}")
    return value


def most(value: object, what: str) -> int:
    """A community limit: an int (not a bool) of zero (no limit) or more."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidRequest(f"{what} must be an integer >= 0, got {value!r}")
    return value


def day(value: object) -> date:
    """The date of ``value`` (a date, or a datetime's date)."""
    if not isinstance(value, date):
        raise InvalidRequest(f"day must be a date, got {value!r}")
    return value.date() if isinstance(value, datetime) else value


def version(value: object) -> int:
    """A table message's version: an int (not a bool) of zero or more."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidRequest(f"version must be an integer >= 0, got {value!r}")
    return value


def limit(value: object) -> int:
    """A leaderboard's row count: an int (not a bool) above zero."""
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise InvalidRequest(f"limit must be a positive integer, got {value!r}")
    return value


def stats_game(game: object) -> str:
    """A game that has statistics: turkish, acik, okey or okey101."""
    if not isinstance(game, str) or game not in STATS_GAMES:
        raise InvalidRequest(f"unknown game {game!r}: use turkish, acik, okey or okey101")
    return game


def tournament_kind(kind: object) -> str:
    """A tournament's game: okey, turkish or acik."""
    if not isinstance(kind, str) or kind not in TOURNAMENT_KINDS:
        raise InvalidRequest(f"kind must be one of {TOURNAMENT_KINDS}, got {kind!r}")
    return kind


def transfers(items: Sequence[object]) -> list[Transfer]:
    """Every item a valid Transfer (see ``Transfer.validate``)."""
    checked = []
    for item in items:
        if not isinstance(item, Transfer):
            raise InvalidRequest("transfers must be Transfer values")
        item.validate()
        checked.append(item)
    return checked


def commit(
    table_id: object,
    expected_version: object,
    snapshot: object,
    action: object,
    items: list[Transfer],
    status: object,
) -> None:
    """The arguments of ``Store.commit`` other than its records (see ``records``)."""
    positive_int(table_id, "table id")
    positive_int(expected_version, "expected version")
    json_object(snapshot, "snapshot")
    if status is not None and status not in TABLE_STATUSES:
        raise InvalidRequest(f"status must be one of {TABLE_STATUSES}, got {status!r}")
    if action is not None:
        if not isinstance(action, ActionEntry):
            raise InvalidRequest("action must be an ActionEntry")
        json_object(action.action, "action")
        if not isinstance(action.at, datetime):
            raise InvalidRequest("action time must be a datetime")
        if action.player_id is not None:
            positive_int(action.player_id, "action player id")
    transfers(items)


def tournament_commit(
    tournament_id: object, expected_version: object, snapshot: object, status: object
) -> None:
    """The arguments of ``Store.commit_tournament`` other than its transfers."""
    positive_int(tournament_id, "tournament id")
    positive_int(expected_version, "expected version")
    json_object(snapshot, "snapshot")
    if status is not None and status not in TOURNAMENT_STATUSES:
        raise InvalidRequest(f"status must be one of {TOURNAMENT_STATUSES}, got {status!r}")


def records(
    table_id: int,
    results: list[GameResult],
    penalties: list[PenaltyEntry],
    seeds: list[SeedRecord],
) -> None:
    """The results, Okey penalties and shuffle seeds a commit records for ``table_id``."""
    for r in results:
        if not isinstance(r, GameResult):
            raise InvalidRequest("results must be GameResult values")
        positive_int(r.player_id, "result player id")
        text(r.game, "result game", 32)
        if isinstance(r.chips_delta, bool) or not isinstance(r.chips_delta, int):
            raise InvalidRequest(f"chips_delta must be an integer, got {r.chips_delta!r}")
        json_object(r.detail, "result detail")
    for p in penalties:
        if not isinstance(p, PenaltyEntry):
            raise InvalidRequest("penalties must be PenaltyEntry values")
        positive_int(p.player_id, "penalty player id")
        text(p.match_id, "match id", 64)
        if isinstance(p.points, bool) or not isinstance(p.points, int):
            raise InvalidRequest(f"penalty points must be an integer, got {p.points!r}")
    for s in seeds:
        if not isinstance(s, SeedRecord):
            raise InvalidRequest("seeds must be SeedRecord values")
        s.validate()
        if s.table_id != table_id:
            raise InvalidRequest(f"seed of hand {s.hand_id} belongs to table {s.table_id}")
    if len({s.hand_id for s in seeds}) != len(seeds):
        raise InvalidRequest("the same hand id appears twice in seeds")


def refunds(value: Mapping[int, int]) -> dict[int, int]:
    """A moderator's refunds: player ids mapped to whole chips of zero or more."""
    if not isinstance(value, Mapping):
        raise InvalidRequest("refunds must map player ids to chips")
    checked = {}
    for player_id, chips in value.items():
        positive_int(player_id, "refund player id")
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
            raise InvalidRequest(f"refund of player {player_id} must be an integer >= 0")
        checked[player_id] = chips
    return checked
