"""The web table's frames (docs/web.md, "Protocol"): a `TableView` as JSON, and an `act` frame
turned into exactly the button press a chat would send.

`view_json` is the dataclass as JSON (times in ISO 8601 UTC), plus `me_name`; a `state` frame
adds the server's clock as `now`. `press_of` maps
a move (`kind`, `amount`, `cards`, `source`) onto the action and arguments of the table's turn
button: poker's `fold`/`call`/`raise` with the amount as the button's answer, `draw` with the
cards to exchange (none: `pat`); Okey's `ts`/`td` takes, `d.<tile>` discard, `f.<tile>` finish,
`show`; 101 Okey's one-press moves (`open_best` `ob`, `open_pairs` `op`, `take_open_best` `tb`,
`take_open_pairs` `tp`, `take_use` `tu`, `lay_best` `lb`) and any other engine move (`open`,
`lay`, `add`, `swap`, `discard!`: the `x` press with `(kind, source, amount, *tiles)`, melds
parted by `/`). The core then checks it as any press (nonce, turn, legality, ledger).
"""

from __future__ import annotations

import dataclasses
import json
import re
from datetime import UTC, datetime
from typing import Any

from bot.core.api import TableView

MAX_FRAME = 4096  # bytes of one client frame
NOTATION = re.compile(r"^[0-9A-Za-z]{1,4}$")  # a card (`Ah`, `Td`) or tile (`R5`, `K13`, `F`)
SEPARATOR = "/"  # 101 Okey: between two melds of one move
MAX_CARDS = 40  # a 101 opening: up to 22 tiles and the separators between its melds
KINDS = frozenset(
    {"check", "bet", "call", "raise", "fold", "open", "pass", "draw", "take", "discard",
     "finish", "show_indicator", "lay", "add", "swap", "discard!"}
)  # fmt: skip
ONE_PRESS = {
    "open_best": "ob", "open_pairs": "op", "take_open_best": "tb", "take_open_pairs": "tp",
    "take_use": "tu", "lay_best": "lb",
}  # fmt: skip
ENGINE_MOVES = frozenset({"open", "lay", "add", "swap", "discard!"})  # 101: the `x` press


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


def view_text(view: TableView) -> str:
    """The view as compact JSON without `me_name` (what every page with this view shares)."""
    data = view_json(view)
    del data["me_name"]
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
) -> str:
    """A `state` frame as text (compact JSON); `texts` and the viewer's `prefs` only with the
    first one; `now` as in `state_text`."""
    return state_text(view_text(view), me_name, texts, now, prefs)


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


def press_of(group: str, data: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    """The turn button's action and arguments for an `act` frame at a table of `group`
    (`poker` or `okey`); BadFrame when it names no move."""
    kind = data.get("kind")
    amount = data.get("amount")
    cards = data.get("cards") or []
    source = data.get("source")
    if kind not in KINDS and kind not in ONE_PRESS:
        raise BadFrame("unknown move")
    if amount is not None and (not isinstance(amount, int) or isinstance(amount, bool)):
        raise BadFrame("amount must be a number")
    if not isinstance(cards, list) or len(cards) > MAX_CARDS:
        raise BadFrame("cards must be a list")
    if not all(isinstance(c, str) and (NOTATION.match(c) or c == SEPARATOR) for c in cards):
        raise BadFrame("bad card")
    if group == "okey":
        if kind in ONE_PRESS:
            return ONE_PRESS[kind], ()
        if kind in ENGINE_MOVES:
            if source not in (None, "stock", "discard"):
                raise BadFrame("bad source")
            how = "-" if amount is None else str(amount)
            return "x", (kind, source or "-", how, *cards)
        if SEPARATOR in cards:
            raise BadFrame("bad card")
        return _okey(kind, cards, source), ()
    if kind in ONE_PRESS or kind in ENGINE_MOVES - {"open"} or SEPARATOR in cards:
        raise BadFrame("unknown move")
    if kind == "draw":
        return ("draw", tuple(cards)) if cards else ("pat", ())
    if cards or source is not None:
        raise BadFrame("that move takes no cards")
    return kind, () if amount is None else (str(amount),)


def _okey(kind: str, cards: list[str], source: Any) -> str:
    if kind == "take":
        if source == "stock":
            return "ts"
        if source == "discard":
            return "td"
        raise BadFrame("take needs a source")
    if kind == "show_indicator":
        return "show"
    if kind in ("discard", "finish") and len(cards) == 1:
        return ("d." if kind == "discard" else "f.") + cards[0]
    raise BadFrame("that move needs one tile")


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
