"""The web table in a real browser: Chromium headless (Debian's `chromium`, driven by
Playwright) on pages a real `WebTable` serves on loopback, over a real core in this process.

One browser per test session (per xdist worker); every page gets its own browser context (its
own sessionStorage, as two people on two devices). Without /usr/bin/chromium the tests are
skipped, except with CI=true, where they fail: CI must run them (`.ci/run` installs it).

Time: the core's clock is set once (to the wall clock's now, so the page's countdown reads
sensibly) and never moves unless a test moves it; the tests wait only for conditions on the
page (Playwright's own waiting), never for wall-clock time.
"""

from __future__ import annotations

import io
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest_asyncio

from testkit.browser import PHONE, SHOTS, WAIT_MS, chromium
from testkit.helpers import Clock, cmd, make_core
from testkit.stores import open_file_store
from testkit.web import Harness, serve_web

DESKTOP = {"width": 1280, "height": 860}


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser() -> AsyncIterator[Any]:
    """One headless Chromium for the session."""
    async with chromium() as launched:
        yield launched


@dataclass
class Site:
    """A table being served: the core, its web server, the table's id."""

    core: Any
    web: Harness
    table: str
    clock: Clock

    def url(self, user: str, locale: str = "en") -> str:
        """The signed link `/table web` would give `user` (a spectator when not seated)."""
        token = self.web.link(user, self.table, locale=locale)
        return str(self.web.client.make_url(f"/t/{token}"))

    async def say(self, user: str, line: str) -> None:
        """`user` types a command in the chat."""
        await self.core.handle(cmd(user, line))


@asynccontextmanager
async def site(
    lines: list[tuple[str, str]], seed: str = "web", **config: Any
) -> AsyncIterator[Site]:
    """A core on a fresh store where `lines` were typed in channel c1, its table (or its
    tournament's first table) served on loopback."""
    folder = tempfile.TemporaryDirectory(prefix="web-browser-")
    # a SQLite file, not the in-memory database: its one shared connection cannot take the
    # hub's reads while a move commits (the bot itself runs on a file too)
    store = await open_file_store(Path(folder.name))
    clock = Clock(datetime.now(UTC).replace(microsecond=0))
    core = make_core(store, seed=seed, clock=clock, **config)
    try:
        for user, line in lines:
            await core.handle(cmd(user, line))
        live = core.tables.in_channel("test", "c1")
        if live is None:  # a tournament's table plays in a shared room of c1
            rooms = [t for t in core.tables.tables.values() if t.channel_id.startswith("c1#")]
            live = rooms[0] if rooms else None
        assert live is not None, "no table was opened"
        async with serve_web(core) as web:
            yield Site(core, web, str(live.id), clock)
    finally:
        await store.close()
        folder.cleanup()


async def open_page(browser: Any, url: str, viewport: dict[str, int] = PHONE) -> Any:
    """A page of its own (own context: own sessionStorage) on `url`, once it shows a table."""
    context = await browser.new_context(viewport=viewport, locale="en-US")
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # a test asserts none happened
    await page.goto(url)
    await page.locator("#main section.poker, #main section.okey").first.wait_for(timeout=WAIT_MS)
    return page


async def shot(page: Any, name: str) -> None:
    """Write `docs/web-<name>.png` when screenshots are asked for (WEB_SCREENSHOTS), in 256
    colours (a third of the size; the page's flat colours lose nothing)."""
    if not SHOTS:
        return
    from PIL import Image

    picture = Image.open(io.BytesIO(await page.screenshot(full_page=True))).convert("RGB")
    flat = picture.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    flat.save(Path(SHOTS) / f"web-{name}.png", optimize=True)
