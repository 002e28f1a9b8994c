"""Signed invitation tokens of private tables (`/table invite`, docs/commands.md).

A token names one invitation: the table's id, the invitation's random id and when it expires,
followed by an HMAC-SHA-256 of those (cut to 96 bits) under the bot's signing key (the web
table's, `web_secrets`), all in URL-safe base64: 40 characters of `A-Z a-z 0-9 _ -`, so that it
fits a Telegram deep link (`https://t.me/<bot>?start=<token>`, at most 64 of those). Nothing in
it is secret but the signature makes it unforgeable; whether it was withdrawn or used already is
the table's to say (its snapshot keeps the invitations). A token is never logged nor shown in a
public message.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
import struct
from dataclasses import dataclass
from datetime import UTC, datetime

_LAYOUT = struct.Struct(">Q6sI")  # table id, invitation id, expiry (seconds since the epoch)
_MAC_BYTES = 12
_SALT = b"turkish-table.invite\x00"
TOKEN_CHARS = 40  # base64 of 18 + 12 bytes


@dataclass(frozen=True)
class Ticket:
    """What a good token names: the table, the invitation and when it expires."""

    table_id: int
    invite_id: str  # 12 hex digits, the key of the invitation in the table's snapshot
    until: datetime


def new_invite_id() -> str:
    """A fresh random invitation id (48 bits, hex)."""
    return secrets.token_hex(6)


def _mac(key: str, body: bytes) -> bytes:
    return hmac.new(key.encode(), _SALT + body, hashlib.sha256).digest()[:_MAC_BYTES]


def make_token(key: str, ticket: Ticket) -> str:
    """The signed token of `ticket` under `key`."""
    body = _LAYOUT.pack(ticket.table_id, bytes.fromhex(ticket.invite_id), _seconds(ticket.until))
    return base64.urlsafe_b64encode(body + _mac(key, body)).decode().rstrip("=")


def read_token(key: str, token: str) -> Ticket | None:
    """The ticket of a token signed with `key`, or None when it is not one (forged, cut,
    altered, not ours). Expiry is the caller's to check (`Ticket.until`)."""
    if not isinstance(token, str) or len(token) != TOKEN_CHARS:
        return None
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError):
        return None
    body, mac = raw[: _LAYOUT.size], raw[_LAYOUT.size :]
    if len(mac) != _MAC_BYTES or not hmac.compare_digest(mac, _mac(key, body)):
        return None
    table_id, invite_id, until = _LAYOUT.unpack(body)
    return Ticket(table_id, invite_id.hex(), datetime.fromtimestamp(until, UTC))


def _seconds(moment: datetime) -> int:
    return max(0, min(int(moment.timestamp()), 2**32 - 1))
