"""What the browser tests do on a page: find whose turn it is (from the core), wait for that
page to show the turn, press its buttons, drag a tile."""

from __future__ import annotations

from typing import Any

from tests.web_browser.conftest import WAIT_MS, Site

PLATFORM = "test"

# what is typed in the chat before the pages open: two people and a computer player
TURKISH = [
    ("ayse", "/poker open turkish 10"),
    ("ayse", "/poker join 200"),
    ("mehmet", "/poker join 200"),
    ("ayse", "/poker addbot"),
    ("ayse", "/poker start"),
]
ACIK = [
    ("ayse", "/poker open acik 10"),
    ("ayse", "/poker join 200"),
    ("mehmet", "/poker join 200"),
    ("ayse", "/poker addbot"),
    ("ayse", "/poker start"),
]


async def turn(site: Site) -> tuple[str | None, Any]:
    """(the user to act now, their view), or (None, a spectator's view) when nobody acts.

    The web server's clock moves on a second per turn (virtual time): a page's frame budget
    (20 at once, then 5 a second) refills as it would between a person's moves."""
    site.web.clock[0] += 1.0
    view = await site.core.table_view(site.table, PLATFORM, "")
    if view is None or view.acting is None:
        return None, view
    user = view.seats[view.acting].user_id
    return user, await site.core.table_view(site.table, PLATFORM, user)


async def ready(page: Any, nonce: str) -> None:
    """Wait until `page` shows the turn `nonce` with its moves enabled."""
    await page.locator(f'#main[data-nonce="{nonce}"] button.act:enabled').first.wait_for(
        timeout=WAIT_MS
    )


async def kinds(page: Any) -> list[str]:
    """The moves the page offers now (its enabled move buttons)."""
    found = await page.locator("button.act:enabled").evaluate_all(
        "nodes => nodes.map(n => n.dataset.kind)"
    )
    return [k for k in found if k]


async def drag(page: Any, source: Any, target: Any) -> None:
    """Drag `source` onto `target` with the mouse (pointer events, as a finger would)."""
    a = await source.bounding_box()
    b = await target.bounding_box()
    assert a is not None and b is not None
    x, y = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x + 8, y + 8, steps=2)
    await page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=6)
    await page.mouse.up()


async def close_all(pages: list[Any]) -> None:
    """Close the pages' contexts, and fail if a page threw an error meanwhile."""
    errors = [e for page in pages for e in page.errors]
    for page in pages:
        await page.context.close()
    assert errors == []
