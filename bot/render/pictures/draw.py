"""Small drawing helpers shared by the card, tile and table pictures."""

from __future__ import annotations

import io
from collections.abc import Callable

from PIL import Image, ImageDraw

from bot.render.pictures.fonts import font
from bot.render.pictures.style import RGB

SUPERSAMPLE = 3


def supersampled(
    width: int, height: int, paint: Callable[[ImageDraw.ImageDraw, int], None]
) -> Image.Image:
    """Paint at SUPERSAMPLE times the size on a transparent canvas and scale down, for smooth
    edges; `paint(draw, k)` receives the scale factor `k` to multiply its coordinates by."""
    k = SUPERSAMPLE
    big = Image.new("RGBA", (width * k, height * k), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), k)
    return big.resize((width, height), Image.Resampling.LANCZOS)


def rounded_frame(
    draw: ImageDraw.ImageDraw,
    size: tuple[int, int],
    k: int,
    *,
    radius: int,
    fill: RGB,
    outline: RGB,
    border: int,
) -> None:
    """Paint a whole card or tile of `size` pixels (drawn at scale `k`, as in `supersampled`) as a
    rounded rectangle with an outline; `radius` and `border` are in final pixels."""
    w, h = size
    draw.rounded_rectangle(
        (0, 0, w * k - 1, h * k - 1), radius * k, fill=fill, outline=outline, width=border * k
    )


def smooth_mask(
    width: int, height: int, paint: Callable[[ImageDraw.ImageDraw, int], None], k: int = 2
) -> Image.Image:
    """An anti-aliased "L" mask: `paint(draw, k)` fills shapes with 255 at k times the size.

    Single-channel and box-filtered, so it is far cheaper than `supersampled` for big flat shapes
    such as the table's felt.
    """
    big = Image.new("L", (width * k, height * k), 0)
    paint(ImageDraw.Draw(big), k)
    return big.resize((width, height), Image.Resampling.BOX)


def layered(size: tuple[int, int], base: RGB, layers: list[tuple[RGB, Image.Image]]) -> Image.Image:
    """An RGB image of colour `base` with each (colour, mask) pasted on top in order."""
    image = Image.new("RGB", size, base)
    for colour, mask in layers:
        image.paste(colour, (0, 0, *size), mask)
    return image


def fit_text(text: str, size: int, max_width: float, bold: bool = False) -> str:
    """Shorten `text` with an ellipsis until it fits `max_width` pixels at `size`."""
    face = font(size, bold)
    if face.getlength(text) <= max_width:
        return text
    while text and face.getlength(text + "…") > max_width:
        text = text[:-1]
    return text + "…"


def to_png(image: Image.Image) -> bytes:
    """Encode as PNG bytes. Pictures are flat colours, so zlib level 6 keeps them small and fast."""
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=6)
    return out.getvalue()
