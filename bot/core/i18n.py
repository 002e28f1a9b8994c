"""The message catalogue: every player-facing text in Turkish and English, looked up by key.

Texts live in `bot/core/locales/<locale>.json` as `{"key": "text with {params}"}`. A missing key in
one locale falls back to English, then to the key itself, so a gap never crashes a reply.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from bot.render.text import card as shown_card

LOCALES = ("tr", "en")
FALLBACK = "en"
_DIR = Path(__file__).with_name("locales")


@cache
def catalogue(locale: str) -> dict[str, str]:
    """The texts of one locale, loaded once."""
    return json.loads((_DIR / f"{locale}.json").read_text(encoding="utf-8"))


def normalize_locale(value: str | None) -> str | None:
    """Map a platform locale (`tr`, `tr-TR`, `en_US`, `EN`) to one we speak, or None."""
    if not value:
        return None
    base = value.strip().lower().replace("_", "-").split("-")[0]
    return base if base in LOCALES else None


def preferred_locale(accept_language: str | None) -> str | None:
    """The language we speak that an HTTP `Accept-Language` header prefers most (`en-US,
    en;q=0.9`, `de,en;q=0.8`: weights honoured, a weight of 0 refused, others skipped), or
    None."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.partition(";")
        weight = 1.0
        name, _, value = params.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                weight = float(value)
            except ValueError:
                continue
        locale = normalize_locale(tag)
        if locale is not None and weight > 0:
            ranked.append((-weight, index, locale))
    return min(ranked)[2] if ranked else None


class _Params(dict):
    """Format parameters that leave an unknown `{name}` visible instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def t(locale: str, key: str, **params: Any) -> str:
    """The text for `key` in `locale`, filled with `params`."""
    text = catalogue(locale).get(key) if locale in LOCALES else None
    if text is None:
        text = catalogue(FALLBACK).get(key, key)
    return text.format_map(_Params(params))


def has(key: str) -> bool:
    """True when the English catalogue knows `key`."""
    return key in catalogue(FALLBACK)


def hand_name(locale: str, game: str, category: str) -> str:
    """The name players use for a poker hand category (`HandRank.category`, e.g. `two_pair`) of
    `game` (`turkish` or `acik`): "Döper" in Turkish, "Two pair" in English.

    The engines only give the code; the two games name some categories differently in Turkish
    (a straight flush is "Floş" in Türk pokeri, "Dizi Renk" in Açık). A platform locale
    (`tr_TR`, `en-US`) is normalized first; one we do not speak reads English.
    """
    return t(normalize_locale(locale) or FALLBACK, f"hand.{game}.{category}")


ECHO_LIMIT = 40  # characters of a typed word a refusal repeats


def _short(text: str) -> str:
    """`text` cut to `ECHO_LIMIT` characters, with an ellipsis when cut."""
    return text if len(text) <= ECHO_LIMIT else text[: ECHO_LIMIT - 1] + "…"


def refusal_params(locale: str, params: dict[str, Any]) -> dict[str, Any]:
    """Parameters of a refusal made readable in `locale`.

    An `action` (a move or sub-command code such as `raise`) becomes its name in the player's
    language (`act.<code>`, e.g. "Arttır"), and `command` the word they would type
    (`word.<code>`, e.g. `arttır`). `min`/`max` add `range`: `30` when they are equal, else `30-120`.
    A `card` is shown as cards are shown in chat (`K♣`). Any other text (often what the user
    typed, echoed back) is cut to `ECHO_LIMIT` characters, so a refusal always fits a message.
    """
    out = {k: _short(v) if isinstance(v, str) else v for k, v in params.items()}
    action = params.get("action")
    if isinstance(action, str):
        out["action"] = t(locale, f"act.{action}") if has(f"act.{action}") else action
        out["command"] = t(locale, f"word.{action}") if has(f"word.{action}") else action
    card = params.get("card")
    if isinstance(card, str):
        out["card"] = shown_card(card)  # as the player sees their cards: `Kc` -> `K♣`
    low, high = params.get("min"), params.get("max")
    if isinstance(low, int) and isinstance(high, int):
        out["range"] = str(low) if low == high else f"{low}-{high}"
    return out
