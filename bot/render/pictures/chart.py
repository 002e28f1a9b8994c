"""The `/stats` picture: a player's chip history over their last hands as a small line chart,
on the felt of the table pictures.

`ChipChartScene(title, deltas)`: `deltas` are the chip results of the hands, oldest first; the
line is their running sum from 0 (a point per hand), with the zero line, the highest and lowest
running totals and the final one written beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate

from PIL import Image, ImageDraw

from bot.render.pictures.draw import fit_text, to_png
from bot.render.pictures.fonts import font
from bot.render.pictures.style import FELT, FELT_DARK, HIGHLIGHT, TEXT, TEXT_MUTED, PictureStyle

WIDTH, HEIGHT = 560, 260
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 64, 20, 44, 34
LOSS = (240, 120, 110)
WORDS = {
    "hands": {"tr": "son {n} el", "en": "last {n} hands"},
    "none": {"tr": "Henüz el yok", "en": "No hands yet"},
}


@dataclass(frozen=True)
class ChipChartScene:
    """What the chart shows: a title (the player and the game) and the chip results, oldest
    first (at most a few hundred)."""

    title: str
    deltas: tuple[int, ...]

    def __post_init__(self) -> None:
        if not all(isinstance(d, int) and not isinstance(d, bool) for d in self.deltas):
            raise ValueError("deltas must be whole numbers of chips")


def _signed(value: int) -> str:
    return f"+{value:,}" if value > 0 else f"{value:,}".replace("-", "−")


def render_chip_chart(scene: ChipChartScene, style: PictureStyle) -> bytes:
    """The chart as PNG bytes."""
    lang = style.lang
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=FELT_DARK, width=4)
    title = fit_text(scene.title, 18, WIDTH - 40, bold=True)
    draw.text((20, 12), title, font=font(18, bold=True), fill=TEXT)
    left, top = MARGIN_LEFT, MARGIN_TOP
    right, bottom = WIDTH - MARGIN_RIGHT, HEIGHT - MARGIN_BOTTOM
    small = font(13)
    if not scene.deltas:
        draw.text((left, (top + bottom) // 2), WORDS["none"][lang], font=font(16), fill=TEXT_MUTED)
        return to_png(image)
    totals = [0, *accumulate(scene.deltas)]
    low, high = min(totals), max(totals)
    if low == high:
        low, high = low - 1, high + 1
    span = high - low

    def y(value: int) -> float:
        return bottom - (value - low) * (bottom - top) / span

    def x(index: int) -> float:
        return left + index * (right - left) / (len(totals) - 1)

    draw.rectangle((left, top, right, bottom), fill=FELT_DARK)
    draw.line((left, y(0), right, y(0)), fill=TEXT_MUTED, width=1)
    placed: list[float] = []
    for value in dict.fromkeys((high, low, 0)):
        if any(abs(y(value) - other) < 16 for other in placed):
            continue  # too close to a label already written
        placed.append(y(value))
        label = _signed(value)
        width = small.getlength(label)
        draw.text((left - 8 - width, y(value) - 8), label, font=small, fill=TEXT_MUTED)
    points = [(x(i), y(v)) for i, v in enumerate(totals)]
    colour = HIGHLIGHT if totals[-1] >= 0 else LOSS
    draw.line(points, fill=colour, width=3, joint="curve")
    end_x, end_y = points[-1]
    draw.ellipse((end_x - 4, end_y - 4, end_x + 4, end_y + 4), fill=colour)
    caption = f"{WORDS['hands'][lang].format(n=len(scene.deltas))}: {_signed(totals[-1])}"
    draw.text((left, bottom + 8), caption, font=font(14, bold=True), fill=TEXT)
    return to_png(image)
