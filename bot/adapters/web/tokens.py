"""Signed tokens of the web table (itsdangerous): who is looking at which table.

A *link token* rides in the address `/t/<token>` that `/table web` sends a user privately; the
page trades it once for a *session token* (`POST /api/auth/link`) and takes it out of the
address bar. A session token is kept by the page (sessionStorage, never a URL) and is the first
frame on the WebSocket. Both carry the same `Identity` (platform, user id and name, table id,
language), are signed (HMAC-SHA-256) with the bot's web secret under different salts (a link is never a
session and back) and expire (`LINK_SECONDS`, `SESSION_SECONDS`). Nothing in them is secret:
the signature makes them unforgeable; the table id is public, and a user's name is shown at the
table anyway.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Any

from itsdangerous import BadSignature, URLSafeTimedSerializer

LINK_SECONDS = 24 * 3600  # a `/table web` link works for a day
SESSION_SECONDS = 12 * 3600  # a page's session for half a day (the page asks again after)
LINK_SALT = "turkish-table.web.link"
SESSION_SALT = "turkish-table.web.session"
SECRET_NAME = "web"  # the generated secret's name in the store (`web_secrets`)


def new_secret() -> str:
    """A fresh signing secret (256 bits, URL-safe text)."""
    return secrets.token_urlsafe(32)


@dataclass(frozen=True)
class Identity:
    """Who a token speaks for: a user of a platform at one table, in their language."""

    platform: str
    user_id: str
    name: str
    table_id: str
    locale: str

    def to_dict(self) -> dict[str, str]:
        """Compact JSON-safe form (inside a token)."""
        return {
            "p": self.platform,
            "u": self.user_id,
            "n": self.name,
            "t": self.table_id,
            "l": self.locale,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Identity | None:
        """The identity of a token's payload, or None when it is not one."""
        if not isinstance(data, dict):
            return None
        fields = [data.get(k) for k in ("p", "u", "n", "t", "l")]
        texts = [f for f in fields if isinstance(f, str) and f]
        if len(texts) != len(fields):
            return None
        platform, user_id, name, table_id, locale = texts
        return cls(platform, user_id, name, table_id, locale)


class Signer:
    """Makes and reads the web table's link and session tokens with one secret.

    `now` (seconds since the epoch, optional) replaces the clock, so that tests expire tokens
    without waiting."""

    def __init__(
        self,
        secret: str,
        *,
        link_seconds: int = LINK_SECONDS,
        session_seconds: int = SESSION_SECONDS,
    ) -> None:
        sha256 = {"digest_method": hashlib.sha256}
        self._links = URLSafeTimedSerializer(secret, salt=LINK_SALT, signer_kwargs=sha256)
        self._sessions = URLSafeTimedSerializer(secret, salt=SESSION_SALT, signer_kwargs=sha256)
        self.link_seconds = link_seconds
        self.session_seconds = session_seconds

    def link(self, who: Identity) -> str:
        """A link token for `who`."""
        return str(self._links.dumps(who.to_dict()))

    def session(self, who: Identity) -> str:
        """A session token for `who`."""
        return str(self._sessions.dumps(who.to_dict()))

    def read_link(self, token: object, now: float | None = None) -> Identity | None:
        """The identity of a good, unexpired link token, else None."""
        return _read(self._links, token, self.link_seconds, now)

    def read_session(self, token: object, now: float | None = None) -> Identity | None:
        """The identity of a good, unexpired session token, else None."""
        return _read(self._sessions, token, self.session_seconds, now)


MAX_TOKEN = 1024  # longer is no token of ours
CLOCK_SKEW = 60  # a token signed this much in the future (another process's clock) still reads


def _read(
    serializer: URLSafeTimedSerializer, token: object, max_age: int, now: float | None
) -> Identity | None:
    """The identity in a token signed by `serializer` at most `max_age` seconds before `now`
    (default: the wall clock), else None (bad signature, expired, not ours)."""
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN:
        return None
    try:
        data, signed_at = serializer.loads(token, return_timestamp=True)
    except (BadSignature, ValueError, TypeError, UnicodeError):
        return None
    age = (time.time() if now is None else now) - signed_at.timestamp()
    if age > max_age or age < -CLOCK_SKEW:
        return None
    return Identity.from_dict(data)
