"""Logging set-up: one structured `key=value` line per event, never a hidden card at INFO."""

from __future__ import annotations

import logging
import sys
from typing import Any


def setup_logging(level: str = "INFO") -> None:
    """Send log records to stderr as `time level logger message` lines."""
    logging.basicConfig(
        level=getattr(logging, level.upper(), logging.INFO),
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
        force=True,
    )
    # Alembic announces each of its plugins at INFO on every start; only its migrations matter.
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)


def kv(**fields: Any) -> str:
    """Format fields as a structured `key=value` log message (values with spaces are quoted)."""
    parts = []
    for key, value in fields.items():
        text = str(value)
        if not text or any(ch.isspace() for ch in text) or '"' in text:
            text = '"' + text.replace('"', '\\"') + '"'
        parts.append(f"{key}={text}")
    return " ".join(parts)
