"""Debian's Chromium, headless and driven by Playwright, for the browser tests (tests/web_browser,
the Discord Activity's page). Without /usr/bin/chromium or the playwright package those tests
are skipped, except with CI=true, where they fail: CI must run them (`.ci/run` installs it)."""

from __future__ import annotations

import base64
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


# a 1x1 picture, answered for every seat picture the page asks the platforms' hosts for
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
PICTURE_HOSTS = ("https://t.me/**", "https://cdn.discordapp.com/**")


async def fake_pictures(context: Any) -> list[str]:
    """Answer the seat pictures' hosts (t.me, Discord's CDN) on loopback's behalf with `PNG`
    (a fake at the network's edge: the tests never leave loopback); the URLs asked, in order.
    The page's own Content-Security-Policy still decides whether it may ask."""
    asked: list[str] = []

    async def answer(route: Any) -> None:
        asked.append(route.request.url)
        await route.fulfill(body=PNG, content_type="image/png")

    for host in PICTURE_HOSTS:
        await context.route(host, answer)
    return asked
