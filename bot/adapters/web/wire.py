"""The web table's frames (docs/web.md, "Protocol"): a `TableView` as JSON, and an `act` frame
read as the typed move it carries (`bot.core.moves`, no chat code in between).

`view_json` is the dataclass as JSON (times in ISO 8601 UTC), plus `me_name`; a `state` frame
adds the server's clock as `now`. `move_of` reads a move's JSON (`kind`, `amount`, `cards`,
`source`, `confirm`) into the `Move` the server hands `Core.act`: the engine's `Action`, a 101
one-press move (`Plan`: `open_best`, `open_pairs`, `take_open_best`, `take_open_pairs`,
`take_use`, `lay_best`) or a 101 discard accepting its +101 (`ConfirmDiscard`).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from bot.core.api import TableView
from bot.core.moves import BadMove, Move, move_of_json

MAX_FRAME = 4096  # bytes of one client frame
NOTATION = re.compile(r"^[0-9A-Za-z]{1,4}$")  # a card (`Ah`, `Td`) or tile (`R5`, `K13`, `F`)


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat().replace("+00:00", "Z")
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def view_json(view: TableView, me_name: str | None = None) -> dict[str, Any]:
    """The view as the `state` frame's `view`: every field of `TableView` (nested dataclasses
    as objects, tuples as lists, datetimes as ISO 8601 UTC), plus `me_name`."""
    data = {f.name: _plain(_fields(getattr(view, f.name))) for f in dataclasses.fields(view)}
    data["me_name"] = me_name
    return data


def _fields(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _fields(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple):
        return [_fields(v) for v in value]
    return value


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def view_text(view: TableView, avatars: Mapping[str, str] | None = None) -> str:
    """The view as compact JSON without `me_name` (what every page with this view shares);
    a seat whose player has a picture (`avatars`: user id -> image URL, `avatars.Avatars`)
    gets it as `avatar`, a URL only."""
    data = view_json(view)
    del data["me_name"]
    for seat in data["seats"] if avatars else ():
        url = avatars.get(seat["user_id"]) if avatars else None
        if url is not None:
            seat["avatar"] = url
    return _dumps(data)


def state_text(
    shared: str,
    me_name: str | None,
    texts: dict[str, str] | None = None,
    now: datetime | None = None,
    prefs: dict[str, str] | None = None,
) -> str:
    """A `state` frame from a view's shared JSON (`view_text`) and the viewer's name; `texts`
    only with the first one; the view's `now` is the server's clock as the frame is built
    (`now`, default the wall clock), so that a page counts down to `deadline` on it. The view
    is serialised once however many pages share it."""
    clock = _plain(now or datetime.now(UTC))
    view = shared[:-1] + ',"now":' + _dumps(clock) + ',"me_name":' + _dumps(me_name) + "}"
    tail = "" if texts is None else ',"texts":' + _dumps(texts)
    if prefs is not None:  # the viewer's own settings (`tiles`), with the first state only
        tail += ',"prefs":' + _dumps(prefs)
    return '{"type":"state","view":' + view + tail + "}"


def state_frame(
    view: TableView,
    me_name: str | None,
    texts: dict[str, str] | None,
    now: datetime | None = None,
    prefs: dict[str, str] | None = None,
    avatars: Mapping[str, str] | None = None,
) -> str:
    """A `state` frame as text (compact JSON); `texts` and the viewer's `prefs` only with the
    first one; `now` as in `state_text`, `avatars` as in `view_text`."""
    return state_text(view_text(view, avatars), me_name, texts, now, prefs)


def frame(kind: str, **fields: Any) -> str:
    """A small server frame (`ack`, `refused`, `error`, `pong`) as text."""
    return json.dumps({"type": kind, **fields}, ensure_ascii=False, separators=(",", ":"))


class BadFrame(ValueError):
    """A client frame that is not one of the protocol's."""


def parse(text: str) -> dict[str, Any]:
    """A client frame's JSON object with a known `type`; BadFrame otherwise."""
    try:
        data = json.loads(text)
    except ValueError:
        raise BadFrame("not JSON") from None
    if not isinstance(data, dict) or data.get("type") not in (
        "hello",
        "act",
        "arrange",
        "sort",
        "ping",
        "prefs",
    ):
        raise BadFrame("unknown frame")
    ref = data.get("ref")
    if ref is not None and (not isinstance(ref, int) or isinstance(ref, bool)):
        raise BadFrame("ref must be a number")
    return data


def move_of(data: dict[str, Any]) -> Move:
    """The typed move an `act` frame carries (docs/web.md, "Moves": `kind`, `amount`, `cards`,
    `source`, `confirm`), for `Core.act`; BadFrame when it names no move. The core checks it
    as any move (nonce, turn, legality, ledger)."""
    try:
        return move_of_json(data)
    except BadMove as exc:
        raise BadFrame(str(exc)) from None


def slots_of(data: dict[str, Any]) -> list[str | None]:
    """An `arrange` frame's rack slots; BadFrame when they are not tiles or nulls."""
    tiles = data.get("tiles")
    if not isinstance(tiles, list) or len(tiles) > 30:
        raise BadFrame("tiles must be a list of at most 30")
    if not all(t is None or (isinstance(t, str) and NOTATION.match(t)) for t in tiles):
        raise BadFrame("bad tile")
    return list(tiles)


MAX_CHOICE = 32  # characters of a `prefs` frame's choice


def tiles_choice(data: dict[str, Any]) -> str:
    """A `prefs` frame's tile style as the player wrote it (`symbols`, `colours`; the core
    checks the word and refuses an unknown one in the player's language); BadFrame when it is
    not a short text."""
    tiles = data.get("tiles")
    if not isinstance(tiles, str) or not tiles.strip() or len(tiles) > MAX_CHOICE:
        raise BadFrame("tiles must be a word")
    return tiles.strip()
