"""Telegram Mini App launch data (`initData`), checked on the server.

Telegram signs the launch parameters it hands a Mini App: `hash` is HMAC-SHA-256 of the
data-check string (every other field as `key=value`, sorted by key, joined by newlines) under
the key HMAC-SHA-256("WebAppData", bot token). python-telegram-bot 22 has no helper for this
(it parses `WebAppData` sent from a keyboard button, a different thing), so it is done here with
the standard library: the raw query string is parsed as sent (never re-encoded), the hash
compared in constant time (`hmac.compare_digest`), and `auth_date` must be recent
(`MAX_AGE_SECONDS`). Identity comes from the signed `user` field only; `start_param` names a
table, never a person. The user's `photo_url` (their profile photo on t.me) is taken only from
that signed field, and only when it is a t.me photo address (`avatars.telegram_photo`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qsl

from bot.adapters.web.avatars import telegram_photo

MAX_AGE_SECONDS = 24 * 3600  # launch data older than a day is refused
MAX_INIT_DATA = 4096  # Telegram's launch data is far shorter
CLOCK_SKEW = 60  # launch data signed this far in the future (clocks differ) still counts


@dataclass(frozen=True)
class MiniAppUser:
    """The Telegram user a valid `initData` names, and the table its start parameter names."""

    user_id: str
    name: str
    language: str | None
    start_param: str | None
    photo_url: str | None = None  # their Telegram photo on t.me (the seat's picture), if any


def secret_key(bot_token: str) -> bytes:
    """The key `hash` is signed with: HMAC-SHA-256 of the bot token under "WebAppData"."""
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def sign(fields: dict[str, str], bot_token: str) -> str:
    """The `hash` Telegram would put on these fields (tests build launch data with it)."""
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    return hmac.new(secret_key(bot_token), check.encode(), hashlib.sha256).hexdigest()


def validate(init_data: object, bot_token: str, now: float) -> MiniAppUser | None:
    """The user of valid, recent launch data, else None (no hash, a wrong one, a repeated
    field, too old, no user)."""
    if not isinstance(init_data, str) or not init_data or len(init_data) > MAX_INIT_DATA:
        return None
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        return None
    fields = dict(pairs)
    if len(fields) != len(pairs):  # a field given twice: which one was signed?
        return None
    given = fields.pop("hash", None)
    if given is None:
        return None
    if not hmac.compare_digest(sign(fields, bot_token), given):
        return None
    auth_date = fields.get("auth_date", "")
    if not auth_date.isdigit() or not -CLOCK_SKEW <= now - int(auth_date) <= MAX_AGE_SECONDS:
        return None
    try:
        user = json.loads(fields.get("user", ""))
    except ValueError:
        return None
    if not isinstance(user, dict) or not isinstance(user.get("id"), int):
        return None
    name = " ".join(
        str(user[k]) for k in ("first_name", "last_name") if isinstance(user.get(k), str)
    ).strip() or str(user.get("username") or user["id"])
    language = user.get("language_code")
    return MiniAppUser(
        user_id=str(user["id"]),
        name=name[:64],
        language=language if isinstance(language, str) else None,
        start_param=fields.get("start_param") or None,
        photo_url=telegram_photo(user.get("photo_url")),
    )
