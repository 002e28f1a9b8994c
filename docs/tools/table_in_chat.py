"""Draw docs/img/table-in-chat.png: what a Türk pokeri table looks like in a channel.

The messages are the real core's output (an in-memory store, fixed seeds): three players open a
table, play the first moves of a hand, and the picture shows the channel as a player sees it: the
hand's announcement, then the one living table message with its last moves and turn buttons.

    .venv/bin/python docs/tools/table_in_chat.py
"""

from __future__ import annotations

import asyncio
import textwrap
from datetime import UTC, datetime
from pathlib import Path

from PIL import Image, ImageDraw

from bot.core.app import Core
from bot.core.config import CoreConfig
from bot.core.messages import Command, Outgoing, OutKind, Press
from bot.core.table.fairness import SeededSource
from bot.render.pictures.fonts import font
from storage import Store

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "img" / "table-in-chat.png"
WIDTH, MARGIN, LINE = 760, 24, 22
BACKGROUND, BUBBLE, BUTTON = (54, 57, 63), (64, 68, 75), (79, 84, 92)
TEXT, MUTED, ACCENT = (220, 221, 222), (150, 152, 157), (88, 101, 242)


def command(user: str, line: str) -> Command:
    """A command typed in the channel by `user`."""
    name, *args = line.lstrip("/").split()
    return Command("docs", "general", user, user.capitalize(), name, tuple(args), "en")


async def play() -> tuple[list[str], Outgoing]:
    """Open a table, play a few moves; the announcements posted and the last table message."""
    store = await Store.open("sqlite+aiosqlite:///:memory:", migrate=True)
    clock = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    core = Core(
        store, CoreConfig(default_locale="en"), clock=lambda: clock, seeds=SeededSource("docs")
    )
    posted: list[str] = []
    table: Outgoing | None = None

    def take(items: list[Outgoing]) -> None:
        nonlocal table
        for item in items:
            if item.kind is OutKind.PUBLIC:
                posted.append(item.text)
            elif item.kind is OutKind.EDIT_TABLE:
                table = item

    for user, line in [
        ("ayse", "/poker open turkish 10"),
        ("ayse", "/poker join 300"),
        ("mehmet", "/poker join 300"),
        ("zeynep", "/poker join 300"),
        ("ayse", "/poker start"),
    ]:
        take(await core.handle(command(user, line)))
    for _ in range(2):  # the first two players pass on the buttons
        assert table is not None
        button = next(b for row in table.buttons for b in row if b.action == "pass")
        seat = core.tables.in_channel("docs", "general").session.actor()
        user = core.tables.in_channel("docs", "general").session.seats[seat].user_id
        press = Press(
            "docs", "general", user, user.capitalize(), button.table_id, "pass", button.nonce
        )
        take(await core.press(press))
    await store.close()
    assert table is not None
    return posted, table


def bubble(draw: ImageDraw.ImageDraw, top: int, author: str, text: str, buttons: list[str]) -> int:
    """One chat message at `top`: the bot's name, its text and a row of buttons; returns the
    bottom edge."""
    lines = [wrapped for raw in text.splitlines() for wrapped in (textwrap.wrap(raw, 70) or [""])]
    height = 34 + LINE * len(lines) + (48 if buttons else 0)
    draw.rounded_rectangle((MARGIN, top, WIDTH - MARGIN, top + height), 10, fill=BUBBLE)
    draw.text((MARGIN + 14, top + 8), author, font=font(15, bold=True), fill=ACCENT)
    y = top + 32
    for line in lines:
        draw.text((MARGIN + 14, y), line, font=font(15), fill=TEXT)
        y += LINE
    x = MARGIN + 14
    for label in buttons:
        w = int(draw.textlength(label, font=font(14))) + 28
        draw.rounded_rectangle((x, y + 8, x + w, y + 40), 6, fill=BUTTON)
        draw.text((x + 14, y + 16), label, font=font(14), fill=TEXT)
        x += w + 10
    return top + height


def render(posted: list[str], table: Outgoing) -> Image.Image:
    """The channel: the last announcement above the table message and its buttons."""
    image = Image.new("RGB", (WIDTH, 900), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, 14), "# general", font=font(16, bold=True), fill=MUTED)
    y = 46
    for text in posted[-1:]:
        y = bubble(draw, y, "Türk masası (bot)", text, []) + 12
    labels = [b.label for row in table.buttons for b in row]
    y = bubble(draw, y, "Türk masası (bot) · edited", table.text, labels) + 14
    note = "Moves edit this message; cards arrive privately."
    draw.text((MARGIN, y), note, font=font(13), fill=MUTED)
    return image.crop((0, 0, WIDTH, y + 30))


def main() -> None:
    """Play, draw and write the picture."""
    posted, table = asyncio.run(play())
    OUT.parent.mkdir(parents=True, exist_ok=True)
    render(posted, table).save(OUT, optimize=True)
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
