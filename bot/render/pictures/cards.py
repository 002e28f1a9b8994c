"""Playing-card faces and backs as small RGBA images, cached per card, style and size.

A face is white with a dark border (readable on light and dark themes): the rank top-left, a small
suit under it and a large suit in the lower right.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.pictures.draw import rounded_frame, supersampled
from bot.render.pictures.fonts import font
from bot.render.pictures.notation import parse_card
from bot.render.pictures.style import (
    CARD_BACK,
    CARD_BACK_PATTERN,
    CARD_BORDER,
    CARD_FACE,
    SUIT_SYMBOLS,
    PictureStyle,
)

ASPECT = 1.4  # height / width of a card


def card_size(width: int) -> tuple[int, int]:
    """The (width, height) of a card drawn `width` pixels wide."""
    return width, round(width * ASPECT)


def card_image(card: str, style: PictureStyle, width: int) -> Image.Image:
    """The face of `card` (notation, e.g. `Ah`); raises NotationError for a bad name."""
    parsed = parse_card(card)
    return _face(parsed.rank, parsed.suit, style, width)


@lru_cache(maxsize=1024)
def _face(rank: str, suit: str, style: PictureStyle, width: int) -> Image.Image:
    w, h = card_size(width)
    ink = style.suit_colour(suit)
    letter = style.rank_letter(rank)
    symbol = SUIT_SYMBOLS[suit]

    # (x, y) as fractions of the card, text, font size in pixels: rank, small suit, large suit
    marks = (
        (0.27, 0.19, letter, round(w * (0.40 if len(letter) == 1 else 0.34))),
        (0.27, 0.43, symbol, round(w * 0.30)),
        (0.64, 0.70, symbol, round(w * 0.62)),
    )

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        _blank(draw, w, h, k)
        for x, y, text, size in marks:
            draw.text(
                (w * x * k, h * y * k), text, font=font(size * k, True), fill=ink, anchor="mm"
            )

    return supersampled(w, h, paint)


def _radius(w: int) -> int:
    return max(2, w // 10)


def _blank(draw: ImageDraw.ImageDraw, w: int, h: int, k: int) -> None:
    """The white face with its border, under the marks of a face and the pattern of a back."""
    rounded_frame(
        draw,
        (w, h),
        k,
        radius=_radius(w),
        fill=CARD_FACE,
        outline=CARD_BORDER,
        border=max(1, w // 30),
    )


@lru_cache(maxsize=64)
def card_back(width: int) -> Image.Image:
    """The back of a card (a face-down card), the same size as `card_image(..., width)`."""
    w, h = card_size(width)

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        _blank(draw, w, h, k)
        radius = _radius(w) * k
        inset = max(3, w // 12) * k
        inner = (inset, inset, w * k - inset, h * k - inset)
        draw.rounded_rectangle(inner, radius // 2, fill=CARD_BACK)
        pad = inset + max(2, w // 14) * k
        draw.rounded_rectangle(
            (pad, pad, w * k - pad, h * k - pad), radius // 3, outline=CARD_BACK_PATTERN, width=k
        )
        cx, cy, r = w * k / 2, h * k / 2, w * k * 0.18
        draw.ellipse(
            (cx - r, cy - r, cx + r, cy + r), outline=CARD_BACK_PATTERN, width=max(1, w // 16) * k
        )

    return supersampled(w, h, paint)
