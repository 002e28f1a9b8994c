"""Debian's Chromium, headless and driven by Playwright, for the browser tests (tests/web_browser,
the Discord Activity's page). Without /usr/bin/chromium or the playwright package those tests
are skipped, except with CI=true, where they fail: CI must run them (`.ci/run` installs it)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, NoReturn

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 360, "height": 740}
WAIT_MS = 10_000  # Playwright's longest wait for a condition on the page
# Set to a folder (e.g. `docs`) to write the screenshots the docs show:
#   WEB_SCREENSHOTS=docs .venv/bin/python -m pytest -p no:xdist tests/web_browser
SHOTS = os.environ.get("WEB_SCREENSHOTS")


def absent(reason: str) -> NoReturn:
    """Skip, or fail in CI (where the browser tests must run)."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: the browser tests must run; .ci/run installs chromium)")
    pytest.skip(reason)


@asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    """A headless Chromium, closed after the block; skips the test without one (`absent`)."""
    if not CHROMIUM.exists():
        absent(f"{CHROMIUM} is not installed (apt-get install chromium)")
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        absent("the playwright package is not installed (pip install -e '.[dev]')")
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            await browser.close()
