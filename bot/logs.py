"""Logging set-up: one structured `key=value` line per event, never a hidden card or a secret.

Every handler of the root logger gets a `Redactor`: any configured secret (the platform tokens,
the Telegram webhook secret, anything added later with `redact`) is replaced by `[redacted]` in
each record's message, arguments, traceback and stack before it is written, whatever logger or
level it comes from. httpx and httpcore, which log each request URL at INFO (the Bot API puts the
token in the URL), are raised to WARNING.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable
from typing import Any

MASK = "[redacted]"
# Libraries that log every request URL at INFO; the Bot API's URLs carry the token.
CHATTY_URL_LOGGERS = ("httpx", "httpcore")
MIN_SECRET = 8  # shorter values are not treated as secrets (they would mask ordinary words)


class Redactor(logging.Filter):
    """A handler filter that masks every known secret in a record (it never drops one)."""

    def __init__(self) -> None:
        super().__init__("")
        self.secrets: set[str] = set()

    def add(self, *values: str | None) -> None:
        """Mask these values from now on (None and short values are ignored)."""
        for value in values:
            if value and len(value) >= MIN_SECRET:
                self.secrets.add(value)

    def clean(self, text: str) -> str:
        """`text` with every secret masked (the longest first, so a token's parts go with it)."""
        for secret in sorted(self.secrets, key=len, reverse=True):
            if secret in text:
                text = text.replace(secret, MASK)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        """Mask the record in place; always keeps it."""
        if not self.secrets:
            return True
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: keep the raw parts, masked
            message = f"{record.msg} {record.args}"
        record.msg, record.args = self.clean(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.clean(record.exc_text)
        if record.stack_info:
            record.stack_info = self.clean(record.stack_info)
        return True


REDACTOR = Redactor()


def token_parts(token: str | None) -> list[str]:
    """A token and its secret part: a Telegram token `<bot id>:<secret>` may appear split (the
    bot id alone is public and is not masked)."""
    if not token:
        return []
    parts = [token]
    _, colon, secret = token.partition(":")
    if colon and secret:
        parts.append(secret)
    return parts


def redact(*values: str | None) -> None:
    """Mask these values in every log line from now on (every handler `setup_logging` set)."""
    REDACTOR.add(*values)


def setup_logging(level: str = "INFO", secrets: Iterable[str | None] = ()) -> None:
    """Send log records to stderr as `time level logger message` lines, with `secrets` (and any
    added later by `redact`) masked in every one."""
    logging.basicConfig(
        level=getattr(logging, level.upper(), logging.INFO),
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
        force=True,
    )
    REDACTOR.add(*secrets)
    for handler in logging.getLogger().handlers:
        if REDACTOR not in handler.filters:
            handler.addFilter(REDACTOR)
    # Alembic announces each of its plugins at INFO on every start; only its migrations matter.
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    for name in CHATTY_URL_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


def kv(**fields: Any) -> str:
    """Format fields as a structured `key=value` log message (values with spaces are quoted)."""
    parts = []
    for key, value in fields.items():
        text = str(value)
        if not text or any(ch.isspace() for ch in text) or '"' in text:
            text = '"' + text.replace('"', '\\"') + '"'
        parts.append(f"{key}={text}")
    return " ".join(parts)
