"""Kept by machines: no module of the core, the adapters or storage grows past 700 lines.

A module that long holds more than one purpose; split it by feature (docs/architecture.md,
"Kept by machines") rather than raising the limit.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 700
WATCHED = ("bot/core", "bot/adapters", "storage")


def _modules() -> list[Path]:
    return sorted(p for folder in WATCHED for p in (ROOT / folder).rglob("*.py"))


def test_the_watched_folders_hold_modules() -> None:
    assert len(_modules()) > 50  # the walk itself finds the code it watches


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_module_is_at_most_700_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= LIMIT, f"{path.relative_to(ROOT)} has {lines} lines (limit {LIMIT}): split it"
