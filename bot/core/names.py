"""Display names as they enter the core, and finding a player by a typed name.

`clean_name` is what every adapter passes as `Command.user_name`/`Press.user_name`: control
characters (newlines, tabs) become spaces; bidi controls (which can reverse the text after a name:
"Ali" + U+202E makes "…kcip" read backwards), zero-width characters and the blank "filler"
letters some people use to look nameless or like someone else are removed; spaces collapse. A
name left empty becomes the fallback (the user id).

`seat_named` finds the seat a typed name means (`/table kick <name>`) and refuses a name several
seats answer to, listing them with their user ids (which always tell them apart).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Protocol

from bot.core.errors import Refusal

MAX_NAME = 64  # characters kept of a display name
# Letters that draw nothing (Hangul fillers, the braille blank, the Mongolian vowel separator).
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")
MAX_CANDIDATES = 5


def clean_name(name: str | None, fallback: str = "?") -> str:
    """The display name without control, bidi or zero-width characters (see the module)."""
    kept: list[str] = []
    for ch in name or "":
        kind = unicodedata.category(ch)
        if kind in ("Cc", "Zl", "Zp") or ch.isspace():
            kept.append(" ")
        elif kind in ("Cf", "Cs", "Co", "Cn") or ch in INVISIBLE:
            continue  # format (bidi, zero-width), surrogates, private use, unassigned
        else:
            kept.append(ch)
    cleaned = " ".join("".join(kept).split())[:MAX_NAME].strip()
    return cleaned or fallback


def same_name(a: str, b: str) -> bool:
    """Whether two names read the same (ignoring case and what `clean_name` removes)."""
    return clean_name(a, "").casefold() == clean_name(b, "").casefold()


class Named(Protocol):
    """A seat: who sits there."""

    name: str
    user_id: str


def candidates(found: Sequence[tuple[str, str]]) -> str:
    """`name (user id), …` for a refusal that lists look-alike names."""
    shown = [f"{name} ({user_id})" for name, user_id in found[:MAX_CANDIDATES]]
    return ", ".join(shown) + (", …" if len(found) > MAX_CANDIDATES else "")


def seat_named(seats: Sequence[Named], text: str) -> int | None:
    """The index of the seat whose user id is `text`, else the one seat whose name reads as
    `text` (see `same_name`; a leading @ is ignored); None when none does. Several seats with
    that name: refused (`err.ambiguous_name`) listing them."""
    want = text.strip().lstrip("@")
    for i, seat in enumerate(seats):
        if seat.user_id.casefold() == want.casefold():
            return i
    matches = [i for i, seat in enumerate(seats) if same_name(seat.name, want)]
    if len(matches) > 1:
        found = [(seats[i].name, seats[i].user_id) for i in matches]
        raise Refusal("err.ambiguous_name", name=want[:40], candidates=candidates(found))
    return matches[0] if matches else None
