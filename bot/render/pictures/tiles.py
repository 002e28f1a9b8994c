"""Okey tiles as small RGBA images, cached per tile, mark, style and size.

A tile is cream with its number in the colour's ink and a dot under it, as on real tiles; with
`symbols` the dot is the colour's own shape instead (red circle, yellow triangle, blue square,
black diamond: `style.TILE_SHAPES`), larger, so the colour reads without telling inks apart. The
false joker (sahte okey) carries a large green star instead of a number. An okey tile (wild) gets
a gold frame and a gold star badge in its top-right corner.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.pictures.draw import rounded_frame, supersampled
from bot.render.pictures.fonts import font
from bot.render.pictures.notation import parse_tile
from bot.render.pictures.style import (
    FALSE_JOKER_INK,
    OKEY_MARK,
    RGB,
    TILE_BACK,
    TILE_BORDER,
    TILE_COLOURS,
    TILE_FACE,
    TILE_SHAPES,
)

ASPECT = 1.38  # height / width of a tile


def tile_size(width: int) -> tuple[int, int]:
    """The (width, height) of a tile drawn `width` pixels wide."""
    return width, round(width * ASPECT)


def star_points(cx: float, cy: float, outer: float, inner: float) -> list[tuple[float, float]]:
    """The ten corners of a five-pointed star centred on (cx, cy), pointing up."""
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def _blank(
    draw: ImageDraw.ImageDraw, w: int, h: int, k: int, fill: RGB, okey: bool = False
) -> None:
    """The tile's body in `fill` with its frame: thin and dark, or thick and gold for an okey."""
    rounded_frame(
        draw,
        (w, h),
        k,
        radius=max(2, w // 8),
        fill=fill,
        outline=OKEY_MARK if okey else TILE_BORDER,
        border=max(2, w // 12) if okey else max(1, w // 28),
    )


def tile_image(tile: str, width: int, okey: bool = False, symbols: bool = False) -> Image.Image:
    """The face of `tile` (notation, e.g. `R5`, `F`); `okey` marks it as a wild okey tile,
    `symbols` draws the colour's shape under the number instead of the dot.

    Raises NotationError for a bad name.
    """
    parsed = parse_tile(tile)
    return _face(parsed.colour, parsed.number, width, okey, symbols)


def shape_points(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """The corners of a colour's shape (`triangle`, `square`, `diamond`) of radius `r` centred on
    (cx, cy); the circle is drawn as an ellipse, not from points."""
    if shape == "triangle":
        return [(cx, cy - r), (cx + r * 1.05, cy + r * 0.8), (cx - r * 1.05, cy + r * 0.8)]
    if shape == "square":
        s = r * 0.95
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if shape == "diamond":
        return [(cx, cy - r * 1.15), (cx + r, cy), (cx, cy + r * 1.15), (cx - r, cy)]
    raise ValueError(f"no shape {shape!r}")


def _mark(draw: ImageDraw.ImageDraw, colour: str, cx: float, cy: float, r: float) -> None:
    """The colour's shape in its ink (`symbols`)."""
    ink = TILE_COLOURS[colour]
    shape = TILE_SHAPES[colour]
    if shape == "circle":
        c = r * 0.85  # a little smaller than the square's corners reach: the two never blur
        draw.ellipse((cx - c, cy - c, cx + c, cy + c), fill=ink)
    else:
        draw.polygon(shape_points(shape, cx, cy, r), fill=ink)


@lru_cache(maxsize=1024)
def _face(
    colour: str | None, number: int | None, width: int, okey: bool, symbols: bool = False
) -> Image.Image:
    w, h = tile_size(width)

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        _blank(draw, w, h, k, TILE_FACE, okey)
        if colour is None:
            draw.polygon(
                star_points(w * k / 2, h * k * 0.45, w * k * 0.36, w * k * 0.15),
                fill=FALSE_JOKER_INK,
            )
            draw.ellipse(
                (w * k * 0.40, h * k * 0.76, w * k * 0.60, h * k * 0.76 + w * k * 0.2),
                outline=FALSE_JOKER_INK,
                width=max(1, w // 20) * k,
            )
        else:
            ink = TILE_COLOURS[colour]
            text = str(number)
            size = round(w * (0.60 if len(text) == 1 else 0.50)) * k
            draw.text((w * k / 2, h * k * 0.40), text, font=font(size, True), fill=ink, anchor="mm")
            cx, cy = w * k / 2, h * k * 0.76
            if symbols:
                _mark(draw, colour, cx, cy, w * k * 0.15)
            else:
                dot = w * k * 0.09
                draw.ellipse((cx - dot, cy - dot, cx + dot, cy + dot), fill=ink)
        if okey:
            draw.polygon(
                star_points(w * k * 0.80, h * k * 0.13, w * k * 0.17, w * k * 0.07),
                fill=OKEY_MARK,
            )

    return supersampled(w, h, paint)


@lru_cache(maxsize=16)
def tile_back(width: int) -> Image.Image:
    """A face-down tile (the stock), the same size as `tile_image(..., width)`."""
    w, h = tile_size(width)

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        _blank(draw, w, h, k, TILE_BACK)

    return supersampled(w, h, paint)
